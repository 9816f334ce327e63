#include "expert/expr.h"

#include <cmath>
#include <cstdio>
#include <functional>

#include "core/strings.h"

namespace cutegen {
namespace {

// One row per primitive: its readable name, CUDA spelling ("{0}" are children) and host math.
struct PrimInfo {
  Prim prim;
  const char* name;
  const char* cuda;
  std::function<double(const std::vector<double>&)> host;
};

const std::vector<PrimInfo>& prim_table() {
  using V = const std::vector<double>&;
  static const std::vector<PrimInfo> table = {
      {Prim::kAdd, "add", "({0} + {1})", [](V a) { return a[0] + a[1]; }},
      {Prim::kSub, "sub", "({0} - {1})", [](V a) { return a[0] - a[1]; }},
      {Prim::kMul, "mul", "({0} * {1})", [](V a) { return a[0] * a[1]; }},
      // div.full.f32, as torch.compile's kernels divide (see cg_expert::div_full).
      {Prim::kDiv, "div", "cg_expert::div_full({0}, {1})", [](V a) { return a[0] / a[1]; }},
      // NaN-propagating, as torch.maximum/minimum/relu/clamp are.
      {Prim::kMax, "max", "cg_expert::nan_max({0}, {1})",
       [](V a) { return std::isnan(a[0]) || std::isnan(a[1]) ? a[0] + a[1] : std::fmax(a[0], a[1]); }},
      {Prim::kMin, "min", "cg_expert::nan_min({0}, {1})",
       [](V a) { return std::isnan(a[0]) || std::isnan(a[1]) ? a[0] + a[1] : std::fmin(a[0], a[1]); }},
      {Prim::kPow, "pow", "powf({0}, {1})", [](V a) { return std::pow(a[0], a[1]); }},
      {Prim::kNeg, "neg", "(-{0})", [](V a) { return -a[0]; }},
      {Prim::kExp, "exp", "expf({0})", [](V a) { return std::exp(a[0]); }},
      // For arguments that are bounded or whose error is damped (softplus below its threshold, the
      // logistic's 1 + exp(-x)): __expf's relative error, about 2 + 1.2|x| ulp, then stays small
      // against the result. torch.compile's exp is the same instruction (ex2.approx).
      {Prim::kExpFast, "exp_fast", "__expf({0})", [](V a) { return std::exp(a[0]); }},
      {Prim::kExpm1, "expm1", "expm1f({0})", [](V a) { return std::expm1(a[0]); }},
      {Prim::kLog, "log", "logf({0})", [](V a) { return std::log(a[0]); }},
      // __logf's error: at most 2^-21.4 absolute for arguments in [0.5, 2], 3 ulp elsewhere.
      {Prim::kLogFast, "log_fast", "__logf({0})", [](V a) { return std::log(a[0]); }},
      {Prim::kLog1p, "log1p", "log1pf({0})", [](V a) { return std::log1p(a[0]); }},
      {Prim::kTanh, "tanh", "tanhf({0})", [](V a) { return std::tanh(a[0]); }},
      {Prim::kErf, "erf", "erff({0})", [](V a) { return std::erf(a[0]); }},
      {Prim::kSqrt, "sqrt", "sqrtf({0})", [](V a) { return std::sqrt(a[0]); }},
      {Prim::kRsqrt, "rsqrt", "rsqrtf({0})", [](V a) { return 1.0 / std::sqrt(a[0]); }},
      {Prim::kAbs, "abs", "fabsf({0})", [](V a) { return std::fabs(a[0]); }},
      {Prim::kSin, "sin", "sinf({0})", [](V a) { return std::sin(a[0]); }},
      {Prim::kCos, "cos", "cosf({0})", [](V a) { return std::cos(a[0]); }},
      {Prim::kSelectGt, "select_gt", "cg_expert::select_gt({0}, {1}, {2}, {3})",
       [](V a) { return a[0] > a[1] ? a[2] : a[3]; }},
  };
  return table;
}

const PrimInfo& info(Prim p) {
  for (auto& row : prim_table())
    if (row.prim == p) return row;
  static const PrimInfo none{Prim::kConst, "?", "?", nullptr};
  return none;
}

// The intrinsic spelling of a primitive for to_cuda(fast), or nullptr where it has none. expm1,
// log1p and tanh lose relative (not absolute) accuracy near 0 this way: fine under 16-bit rounding.
const char* fast_cuda(Prim p) {
  switch (p) {
    case Prim::kExp: return "__expf({0})";
    case Prim::kExpm1: return "(__expf({0}) - 1.0f)";
    case Prim::kLog: return "__logf({0})";
    case Prim::kLog1p: return "__logf(1.0f + {0})";
    case Prim::kTanh: return "(1.0f - __fdividef(2.0f, __expf(2.0f * {0}) + 1.0f))";  // +-1 at +-inf
    default: return nullptr;
  }
}

// Whether p is spelled as an accurate math-library call (a long instruction sequence); with `fast`,
// those that have an intrinsic spelling are not.
bool is_library_call(Prim p, bool fast) {
  switch (p) {
    case Prim::kExp:
    case Prim::kExpm1:
    case Prim::kLog:
    case Prim::kLog1p:
    case Prim::kTanh:
    case Prim::kErf:
    case Prim::kPow:
    case Prim::kSin:
    case Prim::kCos: return !(fast && fast_cuda(p));
    default: return false;
  }
}

std::string fill(std::string format, const std::vector<std::string>& kids) {
  // Appends instead of chaining operator+ (GCC 12 reports a false -Wrestrict on the chain).
  for (size_t i = 0; i < kids.size(); ++i) {
    std::string key = "{";
    key += static_cast<char>('0' + i);
    key += '}';
    format = replace_all(format, key, kids[i]);
  }
  return format;
}

}  // namespace

std::string float_literal(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".einn") == std::string::npos) s += ".0";
  return v < 0 ? "(" + s + "f)" : s + "f";
}

ExprPtr leaf(int index) { return std::make_shared<const Expr>(Expr{.prim = Prim::kLeaf, .leaf = index}); }
ExprPtr constant(double v) { return std::make_shared<const Expr>(Expr{.prim = Prim::kConst, .value = v}); }
ExprPtr scalar_arg(const std::string& c_name) {
  return std::make_shared<const Expr>(Expr{.prim = Prim::kScalarArg, .name = c_name});
}
ExprPtr call(Prim p, std::vector<ExprPtr> kids) {
  return std::make_shared<const Expr>(Expr{.prim = p, .kids = std::move(kids)});
}

std::string to_cuda(const ExprPtr& e, const std::vector<std::string>& leaf_names, Spelling spelling) {
  switch (e->prim) {
    case Prim::kLeaf: return leaf_names.at(e->leaf);
    case Prim::kConst: return float_literal(e->value);
    case Prim::kScalarArg: return "static_cast<float>(" + e->name + ")";
    default: break;
  }
  std::vector<std::string> kids;
  for (auto& k : e->kids)
    kids.push_back(to_cuda(k, leaf_names, spelling));
  // A branch where a side calls an accurate library function (its instructions are skipped where
  // not taken), else a select. On the H200: SELU 3.026 ms with the branch, 3.156 with the select;
  // ELU 3.021 / 3.190; Softplus (intrinsics only) 3.060 / 3.004; torch.compile 3.02 for each.
  auto library_call = [&](Prim p) { return is_library_call(p, spelling.fast); };
  if (e->prim == Prim::kSelectGt && (contains(e->kids[2], library_call) || contains(e->kids[3], library_call)))
    return fill("(({0}) > ({1}) ? ({2}) : ({3}))", kids);
  if (e->prim == Prim::kDiv && spelling.ieee_div) return fill("({0} / {1})", kids);
  // By a nonzero constant: times its reciprocal, as torch.compile divides by constants.
  if (e->prim == Prim::kDiv && e->kids[1]->prim == Prim::kConst && e->kids[1]->value != 0)
    return std::string("(").append(kids[0]).append(" * ").append(float_literal(1.0 / e->kids[1]->value)).append(")");
  const char* intrinsic = spelling.fast ? fast_cuda(e->prim) : nullptr;
  return fill(intrinsic ? intrinsic : info(e->prim).cuda, kids);
}

double eval_host(const ExprPtr& e, const std::vector<double>& leaves, const std::map<std::string, double>& scalars) {
  switch (e->prim) {
    case Prim::kLeaf: return leaves.at(e->leaf);
    case Prim::kConst: return e->value;
    case Prim::kScalarArg: return scalars.at(e->name);
    default: break;
  }
  std::vector<double> kids;
  for (auto& k : e->kids)
    kids.push_back(eval_host(k, leaves, scalars));
  return info(e->prim).host(kids);
}

std::string describe(const ExprPtr& e) {
  switch (e->prim) {
    case Prim::kLeaf: {
      char b[32];
      std::snprintf(b, sizeof b, "x%d", e->leaf);
      return b;
    }
    case Prim::kConst: {
      char b[32];
      std::snprintf(b, sizeof b, "%g", e->value);
      return b;
    }
    case Prim::kScalarArg: return e->name;
    default: break;
  }
  std::vector<std::string> kids;
  for (auto& k : e->kids)
    kids.push_back(describe(k));
  std::string text = info(e->prim).name;
  text.append("(").append(join(kids, ", ")).append(")");
  return text;
}

bool contains(const ExprPtr& e, const std::function<bool(Prim)>& pred) {
  if (pred(e->prim)) return true;
  for (auto& k : e->kids)
    if (contains(k, pred)) return true;
  return false;
}
bool contains(const ExprPtr& e, Prim p) {
  return contains(e, [p](Prim q) { return q == p; });
}

std::set<std::string> scalar_args(const ExprPtr& e) {
  std::set<std::string> out;
  std::function<void(const ExprPtr&)> walk = [&](const ExprPtr& n) {
    if (n->prim == Prim::kScalarArg) out.insert(n->name);
    for (auto& k : n->kids)
      walk(k);
  };
  walk(e);
  return out;
}

}  // namespace cutegen
