#include "build/preprocess.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <regex>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace fs = std::filesystem;

namespace {

// The preprocessor lines of `nvcc --dryrun`: "#$ gcc ... -E -x c++ ... "kernel.cu" -o "X.ii"".
std::vector<std::string> preprocessor_commands(const std::string& dryrun) {
  std::vector<std::string> out;
  for (auto& line : split_lines(dryrun))
    if (line.rfind("#$ ", 0) == 0 && contains(line, " -E ") && contains(line, " -x c++ "))
      out.push_back(line.substr(3));
  return out;
}

}  // namespace

Result<Preprocessed> preprocess(const Builder& builder, const BuildRequest& req) {
  static std::atomic<int> counter{0};
  fs::path work =
      fs::temp_directory_path() / ("cutegen-pp-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  CUTEGEN_TRY(make_dirs(work.string()));
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{work};

  Preprocessed pp;
  pp.source_path = (work / "kernel.cu").string();
  CUTEGEN_TRY(write_file_atomic(pp.source_path, req.source));
  // The same command line as Builder::compile, asked only what it would run.
  std::vector<std::string> argv = {builder.toolchain().nvcc, "--dryrun"};
  for (auto& f : builder.flags(req.target))
    argv.push_back(f);
  if (!req.force_include.empty()) {
    CUTEGEN_TRY(write_file_atomic((work / "cutegen_abi.h").string(), req.force_include));
    argv.insert(argv.end(), {"-include", (work / "cutegen_abi.h").string()});
  }
  argv.insert(argv.end(), {pp.source_path, "-o", (work / "kernel.so").string()});
  auto dry = CUTEGEN_TRY(run_process({.argv = argv, .cwd = work.string(), .timeout = std::chrono::seconds(60)}));
  if (!dry.success()) return error("nvcc --dryrun " + dry.describe() + ": " + trim(dry.err));
  auto commands = preprocessor_commands(dry.err + dry.out);
  if (commands.empty()) return error("nvcc --dryrun listed no preprocessing step");

  static const std::regex output_arg(R"(-o "[^"]*")");
  for (size_t i = 0; i < commands.size(); ++i) {
    std::string out_path = (work / ("pass" + std::to_string(i) + ".ii")).string();
    // nvcc prints each step as a shell command line; run it as printed, writing our own file.
    std::string cmd = std::regex_replace(commands[i], output_arg, "-o \"" + out_path + "\"");
    auto r = CUTEGEN_TRY(
        run_process({.argv = {"/bin/sh", "-c", cmd}, .cwd = work.string(), .timeout = std::chrono::seconds(120)}));
    if (!r.success()) {
      pp.message = "preprocessing " + r.describe() + ": " + truncate_middle(trim(r.err), 2000);
      return pp;
    }
    bool device = contains(commands[i], "-D__CUDA_ARCH__=");
    pp.passes.push_back({device ? "device" : "host", CUTEGEN_TRY(read_file(out_path))});
  }
  pp.ok = true;
  return pp;
}

}  // namespace cutegen
