#include "eval/invoke_shim.h"

#include "task/abi.h"

namespace cutegen {

std::string invoke_shim(const TaskSpec& spec) {
  std::string args;
  auto params = abi_params(spec);
  for (size_t i = 0; i < params.size(); ++i) {
    const AbiParam& p = params[i];
    std::string slot = "s[" + std::to_string(i) + "]";
    std::string type = p.c_decl.substr(0, p.c_decl.size() - p.c_name.size());
    std::string value = p.arg->is_tensor()         ? "reinterpret_cast<" + type + ">(" + slot + ")"
                        : p.arg->ctype == "double" ? "cutegen_slot_double(" + slot + ")"
                        : p.arg->ctype == "bool"   ? slot + " != 0"
                                                   : "static_cast<int64_t>(" + slot + ")";
    args += "      " + value + ",\n";
  }
  return "\n// Harness glue (evaluation builds only): the runner's one entry point for every task.\n"
         "static inline double cutegen_slot_double(unsigned long long v) {\n"
         "  double d;\n  __builtin_memcpy(&d, &v, sizeof d);\n  return d;\n}\n"
         "extern \"C\" __attribute__((visibility(\"default\"))) void cutegen_invoke(\n"
         "    const unsigned long long* s, cudaStream_t stream) {\n"
         "  cutegen_forward(\n" +
         args + "      stream);\n}\n";
}

std::string evaluation_header(const TaskSpec& spec) { return abi_header(spec) + invoke_shim(spec); }

}  // namespace cutegen
