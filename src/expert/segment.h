// A pointwise segment of an op graph: the value at `top` as an expression of one computed value
// (its source: a convolution, or a chain stage such as a group norm) and of tensors the task
// passes in, built backward from top. A convolution's epilogue and the ops after each stage of a
// level-2 chain are segments.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "expert/expr.h"
#include "expert/graph.h"
#include "task/task_spec.h"

namespace cutegen {

// A tensor the segment reads: element i of the segment's shape at sum(i_d * strides[d]) of the
// ABI parameter (0 strides broadcast: a per-channel bias [C, 1, 1] over [N, C, H, W] is {0, 1, 0, 0}).
struct SegmentOperand {
  std::string name, c_name;  // "conv.bias" and its ABI parameter
  DType dtype = DType::kFloat32;
  std::vector<int64_t> strides;
};

struct PointwiseSegment {
  ExprPtr expr;  // leaf 0: the source value; leaf k > 0: operands[k - 1]
  std::vector<SegmentOperand> operands;
  int source = -1;                      // the source's op node (-1: the segment reads only tensors the task passes)
  std::vector<int64_t> shape;           // top's shape, the index space of the strides
  std::vector<int64_t> source_strides;  // how leaf 0 (the source's dense result) is read in it
};

// The segment ending at `top`; `is_source(op)` says which computed values may start it (one per
// segment). Views of computed values pass through where they keep the element order. Errors
// name the op that is neither pointwise nor a source: "<op> stops recognition: ...".
Result<PointwiseSegment> pointwise_segment(const TaskSpec& spec, const OpGraph& g, const GraphArg& top,
                                           const std::function<bool(int)>& is_source);

}  // namespace cutegen
