// A convolution's precision from what the evaluator's baseline measured. Eager's cuDNN runs fp32
// convolutions in TF32 or in full fp32 by its own heuristics, which no rule over the shape predicts
// (level 2's 7 and 8 in TF32 over 8 input channels, level 2's 78 in fp32 over 32), so the recipe's
// guess from the channel count (recognize_conv.cc) gives way to the measurement where there is one.
#pragma once

#include "expert/params.h"
#include "expert/recipe.h"

namespace cutegen {

// What the baseline states about precision; 0: unknown.
struct PrecisionBudget {
  double tf32_rel_err = 0;    // the task's error against float64 with TF32 operands (the evaluator's tf32_rel_err)
  double accuracy_limit = 0;  // the most error the evaluator's accuracy rule admits (eager's, times its factor)
};

// TF32 is taken where its error is at most this share of the limit: a kernel's own rounding and sums
// move its error a little from the rounded model's.
constexpr double kTf32Share = 0.25;

// Whether the budget admits TF32 operands; false where it is unknown.
bool tf32_admitted(const PrecisionBudget& b);

// `p`, a default point, with an implicit-GEMM convolution's math set by a known budget: plain TF32
// where it admits it (tf32x1 over a 3xTF32 recipe, at the default a TF32 recipe of that shape gets),
// 3xTF32 where it does not (tf32x3 over a TF32 recipe, likewise); p itself where the budget is
// unknown, the recipe is no convolution or already runs that math, or no such point is valid.
Params conv_precision_point(const Recipe& r, const Params& p, const PrecisionBudget& b, const ArchLimits& hw);

}  // namespace cutegen
