// Pointwise expression trees: the math of an elementwise chain (and of a normalization's
// pre/post steps) as data, printed as CUDA float code or evaluated on the host for tests.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cutegen {

enum class Prim {
  kLeaf,
  kConst,
  kScalarArg,  // operands
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMax,
  kMin,
  kPow,
  kNeg,
  kExp,
  kExpFast,
  kExpm1,
  kLog,
  kLogFast,
  kLog1p,
  kTanh,
  kErf,
  kSqrt,
  kRsqrt,
  kAbs,
  kSin,
  kCos,
  kSelectGt,  // a > b ? c : d
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  Prim prim = Prim::kConst;
  double value = 0;  // kConst
  int leaf = -1;     // kLeaf: operand index
  std::string name;  // kScalarArg: the ABI parameter holding it
  std::vector<ExprPtr> kids;
};

ExprPtr leaf(int index);
ExprPtr constant(double v);
ExprPtr scalar_arg(const std::string& c_name);
ExprPtr call(Prim p, std::vector<ExprPtr> kids);

// How to_cuda spells the math.
struct Spelling {
  // exp/expm1/log/log1p/tanh by the hardware intrinsics (__expf, __logf): absolute error ~1e-7, for
  // results stored in 16 bits, whose rounding hides it; accurate libdevice calls otherwise.
  bool fast = false;
  // Division as IEEE's correctly rounded `/`, not cg_expert::div_full (nor a constant's reciprocal).
  bool ieee_div = false;
};
// CUDA text computing the expression in float; leaf k is written as leaf_names[k].
std::string to_cuda(const ExprPtr& e, const std::vector<std::string>& leaf_names, Spelling spelling = {});
// A float literal of v as CUDA reads it: "2.0f", "1e-05f", "(-0.5f)".
std::string float_literal(double v);
// Evaluates in double precision with the same formulas (for tests against reference math).
double eval_host(const ExprPtr& e, const std::vector<double>& leaves,
                 const std::map<std::string, double>& scalars = {});
// Readable form for logs: "max(x0, 0)".
std::string describe(const ExprPtr& e);
// Whether some node of e has a primitive satisfying pred (or equal to p).
bool contains(const ExprPtr& e, const std::function<bool(Prim)>& pred);
bool contains(const ExprPtr& e, Prim p);
// The names of the scalar arguments (kScalarArg leaves) e reads, each once.
std::set<std::string> scalar_args(const ExprPtr& e);

}  // namespace cutegen
