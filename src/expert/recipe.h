// What the recognizer found a task to be: which template, and that template's semantic arguments
// (the pointwise expression; the reduction and its dimension; the normalization and its eps; the
// GEMM and its epilogue).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "expert/expr.h"
#include "expert/gemm_recipe.h"

namespace cutegen {

enum class TemplateKind { kElementwise, kReduce, kRowNorm, kGemm, kConv };
enum class ReduceOp { kSum, kMean, kMax, kMin, kArgMax, kArgMin };
// kScale: out = final(x, stat) with stat = reduce(pre(x)) over the row (RMSNorm, L1/L2/Frobenius).
enum class NormKind { kSoftmax, kLogSoftmax, kLayerNorm, kScale };

const char* to_string(TemplateKind k);  // "elementwise", "reduce", "rownorm", "gemm", "conv"
const char* to_string(ReduceOp op);     // "sum", ..., "argmin"
const char* to_string(NormKind k);      // "softmax", "log_softmax", "layer_norm", "scale"

// A tensor an elementwise kernel reads.
struct Operand {
  std::string c_name;            // ABI parameter
  std::string c_type;            // "float", "__half", "__nv_bfloat16"
  std::vector<int64_t> strides;  // one per output dim, in elements; 0 where broadcast
  bool dense = false;            // the output's shape, contiguous: read with 128-bit tiled copies
};

// A reduction's view of its input: [outer, extent, inner], reducing `extent`.
struct RowShape {
  int64_t outer = 1, extent = 1, inner = 1;
};

struct ConvRecipe;
struct ChainRecipe;

struct Recipe {
  TemplateKind kind = TemplateKind::kElementwise;
  std::string summary;  // one line for logs: "elementwise: max(x0, 0)"
  std::string out_name, out_type;
  int64_t out_numel = 0;
  std::vector<int64_t> out_shape;

  // Elementwise: out = expr(operands...), leaf k reading operands[k].
  ExprPtr expr;
  std::vector<Operand> operands;

  // Reduce and RowNorm: the input they read, viewed as [outer, extent, inner].
  std::string in_name, in_type;
  RowShape rows;
  ReduceOp reduce = ReduceOp::kSum;  // kReduce, and kScale's statistic (sum/max/min)

  NormKind norm = NormKind::kSoftmax;
  double eps = 0;                      // LayerNorm
  std::string weight_name, bias_name;  // LayerNorm affine parameters ("" when absent)
  ExprPtr pre;                         // kScale: value reduced per element (leaf 0 = x)
  ExprPtr post;                        // kScale: output (leaf 0 = x, leaf 1 = the statistic)

  std::shared_ptr<const GemmRecipe> gemm;  // kGemm: the product, its operands and epilogue
  std::shared_ptr<const ConvRecipe> conv;  // kConv: the convolution and its epilogue
  // A level-2 chain with stages after its anchor: gemm or conv is then the anchor, writing its value
  // to the chain's buffer ("chain_out"), and the parameters are the anchor's.
  std::shared_ptr<const ChainRecipe> chain;
};

}  // namespace cutegen
