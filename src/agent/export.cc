#include "agent/export.h"

#include "agent/export_model_new.h"
#include "build/target.h"
#include "sys/fs.h"
#include "task/abi.h"

namespace cutegen {

std::string standalone_source(const TaskSpec& spec, const std::string& kernel) {
  return "// Exported by CuTeGen for task `" + spec.name + "`: the ABI header first, then the kernel.\n" +
         abi_header(spec) + "\n" + kernel;
}

Result<std::pair<std::string, std::string>> export_kernel(const TaskSpec& spec, const std::string& kernel,
                                                          const std::string& out_dir, const std::string& arch) {
  auto target = CUTEGEN_TRY(parse_target(arch));
  auto reference = read_file(spec.path);
  if (!reference) return error(spec.name + ": cannot read the task file to embed it: " + reference.err().message);
  std::string source = standalone_source(spec, kernel);
  auto python = CUTEGEN_TRY(model_new_python(spec, *reference, source, target));
  CUTEGEN_TRY(make_dirs(out_dir));
  std::string cu = out_dir + "/" + spec.name + "_cutegen.cu", py = out_dir + "/" + spec.name + "_model_new.py";
  CUTEGEN_TRY(write_file_atomic(cu, source));
  CUTEGEN_TRY(write_file_atomic(py, python));
  return std::make_pair(cu, py);
}

}  // namespace cutegen
