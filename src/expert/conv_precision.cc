#include "expert/conv_precision.h"

#include <memory>

#include "expert/conv_recipe.h"
#include "expert/strategy.h"

namespace cutegen {

bool tf32_admitted(const PrecisionBudget& b) {
  return b.tf32_rel_err > 0 && b.accuracy_limit > 0 && b.tf32_rel_err <= kTf32Share * b.accuracy_limit;
}

Params conv_precision_point(const Recipe& r, const Params& p, const PrecisionBudget& b, const ArchLimits& hw) {
  if (r.kind != TemplateKind::kConv || !r.conv || b.tf32_rel_err <= 0 || b.accuracy_limit <= 0) return p;
  bool const tf32 = tf32_admitted(b);
  GemmMath const want = tf32 ? GemmMath::kTF32 : GemmMath::k3xTF32;
  if (r.conv->math == want) return p;
  // The default the recipe would get at that math (its tiles, reads and template), as the override.
  Recipe as = r;
  auto conv = std::make_shared<ConvRecipe>(*r.conv);
  conv->math = want;
  as.conv = conv;
  Params q = default_params(as, hw), flagged = p;
  (tf32 ? q.tf32x1 : q.tf32x3) = 1;
  flagged.strategy = Strategy::kConvImplicitGemm;
  (tf32 ? flagged.tf32x1 : flagged.tf32x3) = 1;
  for (const Params& c : {q, flagged})
    if (invalid_reason(r, c, hw).empty()) return c;
  return p;
}

}  // namespace cutegen
