#include "expert/pointwise_ops.h"

#include <cmath>
#include <map>

namespace cutegen {
namespace {

using E = ExprPtr;
E add(E a, E b) { return call(Prim::kAdd, {a, b}); }
E mul(E a, E b) { return call(Prim::kMul, {a, b}); }
E dvd(E a, E b) { return call(Prim::kDiv, {a, b}); }
E c(double v) { return constant(v); }
E clamp(E x, E lo, E hi) { return call(Prim::kMin, {call(Prim::kMax, {x, lo}), hi}); }
E relu6(E x) { return clamp(x, c(0), c(6)); }
E softplus(E x, double beta, double threshold) {
  E bx = beta == 1 ? x : mul(x, c(beta));
  // Intrinsics: with the accurate expf and log1pf the kernel was compute-bound on the H200 (0.90x
  // torch.compile). Below the threshold the absolute error stays under about 4e-7.
  E soft = call(Prim::kLogFast, {add(c(1), call(Prim::kExpFast, {bx}))});
  return call(Prim::kSelectGt, {bx, c(threshold), x, beta == 1 ? soft : dvd(soft, c(beta))});
}
// tanh(softplus(x)) at softplus's defaults (beta 1, threshold 20), Mish's factor, as one rational
// function of u = e^x: tanh(log(1 + u)) = ((1 + u)^2 - 1) / ((1 + u)^2 + 1) = n / (n + 2) with
// n = u (u + 2), all terms positive (no cancellation). One exponential and one division instead of
// an exponential, a logarithm and a tanh: Mish twice (level 2's 4) 73 -> 52 SASS instructions in a
// kernel of one element each, 8 -> 4 MUFU. It also keeps x e^x where 1 + u rounds to 1 in float
// (x < -17), which the log form flushed to 0. Above the threshold tanh(x) rounds to 1 in float (n
// overflows past 44 there, in the branch not taken).
E tanh_softplus(E x) {
  E u = call(Prim::kExpFast, {x}), n = mul(u, add(u, c(2)));
  return call(Prim::kSelectGt, {x, c(20), c(1), dvd(n, add(n, c(2)))});
}
// Whether e is softplus(x) at the defaults as softplus() above builds it; then *x is its argument.
bool default_softplus(const E& e, E* x) {
  auto is = [](const E& k, Prim p) { return k && k->prim == p; };
  if (!is(e, Prim::kSelectGt) || !is(e->kids[1], Prim::kConst) || e->kids[1]->value != 20 || e->kids[0] != e->kids[2])
    return false;
  const E& log = e->kids[3];
  if (!is(log, Prim::kLogFast) || !is(log->kids[0], Prim::kAdd)) return false;
  const E& one = log->kids[0]->kids[0];
  const E& exp = log->kids[0]->kids[1];
  if (!is(one, Prim::kConst) || one->value != 1 || !is(exp, Prim::kExpFast) || exp->kids[0] != e->kids[0]) return false;
  *x = e->kids[0];
  return true;
}

// Reads argument i (or keyword `name`) as a number, `fallback` when absent.
struct Args {
  const GraphNode& node;
  const OperandFn& operand;
  Result<E> tensor(size_t i, const std::string& name = "") const {
    auto* a = node.arg(i, name);
    if (!a) return error(node.op + ": argument " + std::to_string(i) + " is missing");
    return operand(*a);
  }
  Result<double> number(size_t i, const std::string& name, double fallback) const {
    auto* a = node.arg(i, name);
    if (!a || a->kind == GraphArg::kNone) return fallback;
    if (a->kind != GraphArg::kConst) return error(node.op + ": argument `" + name + "` is not a constant");
    return a->number;
  }
  Result<E> optional(size_t i, const std::string& name) const {  // nullptr when None/absent
    auto* a = node.arg(i, name);
    if (!a || a->kind == GraphArg::kNone) return E{};
    return operand(*a);
  }
};

using Builder = std::function<Result<E>(const Args&)>;

Builder unary(std::function<E(E)> f) {
  return [f](const Args& a) -> Result<E> { return f(CUTEGEN_TRY(a.tensor(0, "self"))); };
}
// self (op) alpha*other, the aten form of add/sub; rsub is other - alpha*self.
Builder with_alpha(Prim p, bool reversed) {
  return [p, reversed](const Args& a) -> Result<E> {
    E self = CUTEGEN_TRY(a.tensor(0, "self")), other = CUTEGEN_TRY(a.tensor(1, "other"));
    double alpha = CUTEGEN_TRY(a.number(2, "alpha", 1.0));
    if (reversed) std::swap(self, other);
    E scaled = alpha == 1 ? other : mul(other, c(alpha));
    return call(p, {self, scaled});
  };
}
Builder binary(Prim p) {
  return [p](const Args& a) -> Result<E> {
    return call(p, {CUTEGEN_TRY(a.tensor(0, "self")), CUTEGEN_TRY(a.tensor(1, "other"))});
  };
}
Result<E> division(const Args& a) {
  auto* mode = a.node.arg(2, "rounding_mode");
  if (mode && mode->kind != GraphArg::kNone) return error(a.node.op + " with rounding_mode is not supported");
  return dvd(CUTEGEN_TRY(a.tensor(0, "self")), CUTEGEN_TRY(a.tensor(1, "other")));
}
Result<E> power_scalar(const Args& a) {
  E x = CUTEGEN_TRY(a.tensor(0, "self"));
  double e = CUTEGEN_TRY(a.number(1, "exponent", 1.0));
  if (e == 1) return x;
  if (e == 2) return mul(x, x);
  if (e == 3) return mul(mul(x, x), x);
  if (e == 0.5) return call(Prim::kSqrt, {x});
  if (e == -1) return dvd(c(1), x);
  return call(Prim::kPow, {x, c(e)});
}
Result<E> gelu(const Args& a) {
  E x = CUTEGEN_TRY(a.tensor(0, "self"));
  auto* mode = a.node.arg(1, "approximate");
  std::string approximate = mode && mode->kind == GraphArg::kString ? mode->name : "none";
  if (approximate == "tanh") {
    E inner = mul(c(0.7978845608028654), add(x, mul(c(0.044715), mul(mul(x, x), x))));
    return mul(mul(c(0.5), x), add(c(1), call(Prim::kTanh, {inner})));
  }
  if (approximate != "none") return error("gelu: unknown approximate='" + approximate + "'");
  return mul(mul(c(0.5), x), add(c(1), call(Prim::kErf, {mul(x, c(M_SQRT1_2))})));
}
Result<E> elu(const Args& a) {  // also SELU: aten.elu(x, alpha, scale, input_scale)
  E x = CUTEGEN_TRY(a.tensor(0, "self"));
  double alpha = CUTEGEN_TRY(a.number(1, "alpha", 1.0)), scale = CUTEGEN_TRY(a.number(2, "scale", 1.0));
  double input_scale = CUTEGEN_TRY(a.number(3, "input_scale", 1.0));
  E neg = mul(call(Prim::kExpm1, {input_scale == 1 ? x : mul(x, c(input_scale))}), c(alpha * scale));
  return call(Prim::kSelectGt, {x, c(0), scale == 1 ? x : mul(x, c(scale)), neg});
}
Result<E> clamp_op(const Args& a) {
  E x = CUTEGEN_TRY(a.tensor(0, "self"));
  E lo = CUTEGEN_TRY(a.optional(1, "min")), hi = CUTEGEN_TRY(a.optional(2, "max"));
  if (lo) x = call(Prim::kMax, {x, lo});
  if (hi) x = call(Prim::kMin, {x, hi});
  return x;
}

const std::map<std::string, Builder>& table() {
  static const std::map<std::string, Builder> t = {
      {"aten.relu.default", unary([](E x) {
         return call(Prim::kMax, {x, c(0)});
       })},
      {"aten.sigmoid.default",
       unary([](E x) { return dvd(c(1), add(c(1), call(Prim::kExpFast, {call(Prim::kNeg, {x})}))); })},
      {"aten.silu.default",
       unary([](E x) { return dvd(x, add(c(1), call(Prim::kExpFast, {call(Prim::kNeg, {x})}))); })},
      {"aten.tanh.default", unary([](E x) {
         E arg;
         return default_softplus(x, &arg) ? tanh_softplus(arg) : call(Prim::kTanh, {x});
       })},
      {"aten.exp.default", unary([](E x) { return call(Prim::kExp, {x}); })},
      {"aten.log.default", unary([](E x) { return call(Prim::kLog, {x}); })},
      {"aten.abs.default", unary([](E x) { return call(Prim::kAbs, {x}); })},
      {"aten.neg.default", unary([](E x) { return call(Prim::kNeg, {x}); })},
      {"aten.sqrt.default", unary([](E x) { return call(Prim::kSqrt, {x}); })},
      {"aten.rsqrt.default", unary([](E x) { return call(Prim::kRsqrt, {x}); })},
      {"aten.erf.default", unary([](E x) { return call(Prim::kErf, {x}); })},
      {"aten.sin.default", unary([](E x) { return call(Prim::kSin, {x}); })},
      {"aten.cos.default", unary([](E x) { return call(Prim::kCos, {x}); })},
      {"aten.reciprocal.default", unary([](E x) { return dvd(c(1), x); })},
      {"aten.hardsigmoid.default", unary([](E x) { return dvd(relu6(add(x, c(3))), c(6)); })},
      {"aten.hardswish.default", unary([](E x) { return dvd(mul(x, relu6(add(x, c(3)))), c(6)); })},
      {"aten.mish.default", unary([](E x) { return mul(x, tanh_softplus(x)); })},
      {"aten.clone.default", unary([](E x) { return x; })},
      {"aten.alias.default", unary([](E x) { return x; })},
      {"aten.detach.default", unary([](E x) { return x; })},
      // torch.tensor(c) made in forward: the bridge records its argument as the constant c
      {"aten.lift_fresh.default", unary([](E x) { return x; })},
      {"aten.gelu.default", gelu},
      {"aten.elu.default", elu},
      {"aten.leaky_relu.default",
       [](const Args& a) -> Result<E> {
         E x = CUTEGEN_TRY(a.tensor(0, "self"));
         double slope = CUTEGEN_TRY(a.number(1, "negative_slope", 0.01));
         return call(Prim::kSelectGt, {x, c(0), x, mul(x, c(slope))});
       }},
      {"aten.celu.default",
       [](const Args& a) -> Result<E> {
         E x = CUTEGEN_TRY(a.tensor(0, "self"));
         double alpha = CUTEGEN_TRY(a.number(1, "alpha", 1.0));
         E neg = mul(c(alpha), call(Prim::kExpm1, {dvd(x, c(alpha))}));
         return add(call(Prim::kMax, {c(0), x}), call(Prim::kMin, {c(0), neg}));
       }},
      {"aten.softplus.default",
       [](const Args& a) -> Result<E> {
         E x = CUTEGEN_TRY(a.tensor(0, "self"));
         return softplus(x, CUTEGEN_TRY(a.number(1, "beta", 1.0)), CUTEGEN_TRY(a.number(2, "threshold", 20.0)));
       }},
      {"aten.hardtanh.default",
       [](const Args& a) -> Result<E> {
         E x = CUTEGEN_TRY(a.tensor(0, "self"));
         return clamp(x, c(CUTEGEN_TRY(a.number(1, "min_val", -1.0))), c(CUTEGEN_TRY(a.number(2, "max_val", 1.0))));
       }},
      {"aten.clamp.default", clamp_op},
      {"aten.clamp.Tensor", clamp_op},
      {"aten.clamp_min.default",
       [](const Args& a) -> Result<E> {
         return call(Prim::kMax, {CUTEGEN_TRY(a.tensor(0)), CUTEGEN_TRY(a.tensor(1))});
       }},
      {"aten.clamp_max.default",
       [](const Args& a) -> Result<E> {
         return call(Prim::kMin, {CUTEGEN_TRY(a.tensor(0)), CUTEGEN_TRY(a.tensor(1))});
       }},
      {"aten.add.Tensor", with_alpha(Prim::kAdd, false)},
      {"aten.add.Scalar", with_alpha(Prim::kAdd, false)},
      {"aten.sub.Tensor", with_alpha(Prim::kSub, false)},
      {"aten.sub.Scalar", with_alpha(Prim::kSub, false)},
      {"aten.rsub.Tensor", with_alpha(Prim::kSub, true)},
      {"aten.rsub.Scalar", with_alpha(Prim::kSub, true)},
      {"aten.mul.Tensor", binary(Prim::kMul)},
      {"aten.mul.Scalar", binary(Prim::kMul)},
      {"aten.div.Tensor", division},
      {"aten.div.Scalar", division},
      {"aten.div.Tensor_mode", division},
      {"aten.maximum.default", binary(Prim::kMax)},
      {"aten.minimum.default", binary(Prim::kMin)},
      {"aten.pow.Tensor_Scalar", power_scalar},
      {"aten.pow.Tensor_Tensor", binary(Prim::kPow)},
      {"aten.pow.Scalar", binary(Prim::kPow)},
  };
  return t;
}

}  // namespace

bool is_pointwise_op(const std::string& op) { return table().count(op) > 0; }

Result<ExprPtr> pointwise_expr(const GraphNode& node, const OperandFn& operand) {
  auto it = table().find(node.op);
  if (it == table().end()) return error(node.op + " is not a pointwise op the expert knows");
  return it->second(Args{node, operand});
}

}  // namespace cutegen
