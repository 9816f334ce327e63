// The aten pointwise ops the expert understands, each as a formula over primitives that matches
// PyTorch's definition (GELU's erf and tanh forms, SELU's constants via elu's scale arguments,
// Softplus's beta/threshold, ...). Adding an op is adding a row.
#pragma once

#include <functional>
#include <string>

#include "core/result.h"
#include "expert/expr.h"
#include "expert/graph.h"

namespace cutegen {

// Turns a tensor reference or a constant argument into an operand expression.
using OperandFn = std::function<Result<ExprPtr>(const GraphArg&)>;

bool is_pointwise_op(const std::string& op);
// The node's formula with its operands filled in; errors name the op and the unsupported argument.
Result<ExprPtr> pointwise_expr(const GraphNode& node, const OperandFn& operand);

}  // namespace cutegen
