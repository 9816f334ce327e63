#include "core/strings.h"
#include "expert/conv_recipe.h"
#include "expert/kernel_library.h"
#include "expert/templates.h"
#include "task/abi.h"

namespace cutegen {

std::string entry_signature(const TaskSpec& spec) {
  std::vector<std::string> decls;
  for (auto& p : abi_params(spec))
    decls.push_back(p.c_decl);
  decls.push_back("cudaStream_t stream");
  return "extern \"C\" void cutegen_forward(" + join(decls, ", ") + ")";
}

std::string kernel_title(const Recipe& r, const Params& p) { return r.summary + " [" + to_string(p) + "]"; }

Result<std::string> generate_kernel(const Recipe& r, const TaskSpec& spec, const Params& p, const ArchLimits& hw) {
  if (auto why = invalid_reason(r, p, hw); !why.empty()) return error("params " + to_string(p) + ": " + why);
  if (r.chain) return inline_library(CUTEGEN_TRY(chain_instance(r, spec, p)));
  switch (r.kind) {
    case TemplateKind::kElementwise: return inline_library(CUTEGEN_TRY(elementwise_instance(r, spec, p)));
    case TemplateKind::kReduce: return inline_library(CUTEGEN_TRY(reduce_instance(r, spec, p)));
    case TemplateKind::kRowNorm: return inline_library(CUTEGEN_TRY(rownorm_instance(r, spec, p)));
    case TemplateKind::kGemm: return inline_library(CUTEGEN_TRY(gemm_instance(r, spec, p)));
    case TemplateKind::kConv: return inline_library(CUTEGEN_TRY(conv_instance(r, spec, p)));
  }
  return error("unknown template");
}

}  // namespace cutegen
