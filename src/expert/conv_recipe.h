// What the recognizer found a convolution-shaped task to be: one aten.convolution (conv1d/2d/3d,
// forward or transposed) over channels-first tensors (NCL, NCHW, NCDHW), read straight from the
// task's input and parameters, and the pointwise ops after it as one epilogue expression, as
// GemmRecipe holds a GEMM's. As an implicit GEMM (forward): M = batch * output pixels, N = output
// channels per group, K = input channels per group * kernel volume.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "expert/expr.h"
#include "expert/gemm_recipe.h"
#include "expert/graph.h"
#include "expert/params.h"
#include "expert/segment.h"
#include "task/dtype.h"
#include "task/task_spec.h"

namespace cutegen {

// kImplicitGemm: tensor-core work. kDepthwise: one input channel per group (groups == in
// channels), too thin for an MMA: memory-bound, its own template. kDirect: a 2-D or 3-D
// convolution (forward, or transposed phase by phase) whose group channels times kernel row
// (C/G x S) fill at most half a 32-wide k-tile: exact fp32 multiply-adds from shared memory
// (kernels/conv/direct.cuh).
enum class ConvClass { kImplicitGemm, kDepthwise, kDirect };
const char* to_string(ConvClass c);  // "implicit-gemm", "depthwise", "direct"

// A tensor the conv reads, contiguous in the task's layout.
struct ConvTensor {
  std::string name, c_name;  // "x", "conv.weight"; its ABI parameter
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
};

struct ConvRecipe {
  ConvClass kind = ConvClass::kImplicitGemm;
  int dims = 2;  // spatial dims: 1, 2 or 3
  bool transposed = false;
  int64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
  // One per spatial dim, outermost first (D, H, W).
  std::vector<int64_t> in_size, out_size, kernel, stride, padding, dilation, output_padding;
  // Nonzero: the task's last spatial dim, this size, was folded into the one before (a kernel 1
  // wide there: the sizes above are the flattened convolution's, one dim fewer).
  int64_t folded_w = 0;
  ConvTensor input, weight;
  std::string bias_name, bias_c_name;  // "" without a bias
  // fp32 inputs: TF32 is what eager (cuDNN) computes by default; 3xTF32 where the accuracy rule
  // needs more, which the caller that knows the tolerance decides. bf16/fp16, and depthwise (fp32
  // multiply-adds, no MMA): kNative.
  GemmMath math = GemmMath::kNative;

  // The output, contiguous: out = epilogue(conv + bias, operands...), leaf 0 the convolution with
  // its bias added (read in element order), leaf k > 0 reading epilogue_operands[k - 1] over
  // out_shape (the conv's (N, C_out, spatial...) unless a view after it reshapes).
  std::string out_name, out_c_name;
  DType out_dtype = DType::kFloat32;
  std::vector<int64_t> out_shape;
  ExprPtr epilogue;
  std::vector<SegmentOperand> epilogue_operands;

  int64_t out_pixels() const;                   // product of out_size
  std::vector<int64_t> conv_out_shape() const;  // the convolution's own output: (N, C_out, out_size...)
  int64_t kernel_volume() const;                // product of kernel
  // The implicit GEMM (per group): forward M = batch * out_pixels, N = out_channels / groups,
  // K = in_channels / groups * kernel_volume; transposed, its gradient-of-input form.
  int64_t gemm_m() const, gemm_n() const, gemm_k() const;
  // One line: "conv2d fp32 (TF32) implicit-gemm: N=16 C=3->64 in 256x256 k 3x3 s 1x1 p 0x0 ...".
  std::string summary() const;
};

// The forward kernel's tiles for a recipe (kernels/conv): M = TileP x TileQ = 128 output pixels,
// TileQ the smallest power of two covering a row (at most 128, and TileQ x stride within a TMA
// box), TileN the smallest of 8, 16, 32, 64, 96 covering the group's output channels, else 128, as
// many stages as fit 192 KB (with two stages' worth of lo parts where 3xTF32 splits in the kernel).
struct ConvTiles {
  int tile_p = 1, tile_q = 1, tile_n = 128, stages = 4;
};
// A level-2 chain's first stage reduced in the implicit GEMM's epilogue (kernels/conv/fused_reduction.cuh;
// which stages: fused_first_stage in expert/chain_recipe.h).
// kStats: a norm's per (image, channel) sums beside the whole output, at `stats` (an expression of
// the anchor's output pointer: past its elements).
struct FusedStage {
  enum class Over { kPixels, kChannels, kPool, kStats } over = Over::kPixels;
  std::string op;                   // the kernel's ReduceOp: "kSum", "kMax", "kMin", "kLogSumExp"
  int64_t divisor = 1;              // a mean's count, an average pool's window size
  int window = 1;                   // a pool's window (2 or 4 a side)
  int64_t stats_offset = 0;         // kStats: floats from the output's start to its statistics
  std::string declaration() const;  // "using Reduction = cutegen::conv::FusedReduction<...>;"
};
// A fused pool's windows must lie in one warp's rows: tiles of 128 / TileQ x TileQ pixels, TileQ 8
// for windows of 2 and 4 for windows of 4 (kernels/conv/epilogue_nchw_reduce.cuh). The input read as
// pixel-major boxes (`boxes`, Params::input_boxes) takes TileQ of 32 or more (whole 32-column boxes),
// whatever the stride, and stages of 40-float box rows (kernels/conv/nchw_boxes.cuh).
// With tma_store the output's staging (32 KB) comes off the stages' 192 KB. `fit` (Params::pixel_fit)
// 1 takes 16 x 8 or 8 x 16 pixels where a row just past a power of two would pad a tenth more; 2 takes
// 1 x 128 pixels of the padded copy's rows (conv_flat_unsupported).
// `row_box` (Params::row_box): stages of a kernel row's box and its S taps' weight tiles, in 216 KB.
ConvTiles conv_tiles(const ConvRecipe& c, bool split_in_kernel = false, const FusedStage* fused = nullptr,
                     bool boxes = false, bool tma_store = false, int fit = 0, bool row_box = false);
// Why the implicit GEMM cannot number its pixels along the rows of an input copy that holds the
// padding (Params::pixel_fit 2, InputRead::kCopyFlat: tiles of 128 consecutive pixels of a slice,
// only the padding's columns past each output row wasted), "" when it can.
std::string conv_flat_unsupported(const ConvRecipe& c);
// The input columns of a row's box (Params::row_box): 128 pixels and the row's further taps' reach,
// in whole 8-row swizzle atoms.
int conv_row_box_rows(const ConvRecipe& c);
// Why the implicit GEMM cannot share one box of its input's copy among a kernel row's taps
// (Params::row_box, kernels/conv/mainloop_conv_row_taps.cuh), "" when it can; x3: it runs 3xTF32;
// flat: over flat tiles (Params::pixel_fit 2), whose rows of taps lie a pitch apart along one row.
std::string conv_row_box_unsupported(const ConvRecipe& c, bool x3, bool flat = false);
// Why the implicit GEMM cannot store its output by TMA from shared memory in whole rows of pixels
// (Params::tma_store, kernels/conv/epilogue_nchw_tma_store.cuh), "" when it can.
std::string conv_tma_store_unsupported(const ConvRecipe& c, const ConvTiles& t);
// Why the implicit GEMM cannot read the recipe's input as it is, in pixel-major TMA boxes
// (Params::input_boxes, kernels/conv/mainloop_conv_nchw.cuh), "" when it can; x3: it runs 3xTF32.
std::string conv_boxes_unsupported(const ConvRecipe& c, bool x3);
// A transposed implicit GEMM's W stride where its W phases run merged (2 or 4, dividing by the
// dilation: kernels/conv/transposed_phases.cuh MergedW), else 1.
int conv_merge_w(const ConvRecipe& c);
// Whether the copy in front packs the kernel's S taps into the channels (few input channels per
// group: ConvShape::pack_w), so that a k-tile is not mostly zero padding.
bool conv_packs_w(const ConvRecipe& c);
// Whether the implicit GEMM runs 3xTF32 at point p: the recipe's precision (few input channels), or
// the search's tf32x3 fallback over a TF32 recipe.
bool conv_runs_3xtf32(const ConvRecipe& c, const Params& p);
// Why the forward kernel cannot compute the recipe ("" when it can).
std::string conv_unsupported(const ConvRecipe& c);
// The direct template serves the recipes classified direct, and as a search point those the implicit
// GEMM runs in 3xTF32 whose group channels times kernel row fill at most one 32-wide k-tile (level 2's
// 3-D convolutions over 8 channels: exact fp32 beside three tf32 products of a mostly padded tile).
bool conv_direct_serves(const ConvRecipe& c);
// Whether the default point takes the direct template for a 3xTF32 recipe it serves: at most 16
// output channels a group, where the implicit GEMM's tile is a narrow one (level 2's 8: 5.66 -> 2.99
// ms; 7's 32 channels: 6.62 -> 7.52, slower).
bool conv_direct_prevails(const ConvRecipe& c);
// The gathering transposed template (kernels/conv/transposed_gather.cuh) serves transposed convolutions
// whose strides keep every output pixel to at most one tap per dim (each dim's taps x dilation fall
// in distinct residues of its stride: level 1's 81), where phase by phase is stride^dims one-tap
// GEMMs each storing every stride-th pixel.
bool conv_gather_serves(const ConvRecipe& c);
// Why it has no kernel for a recipe it serves ("" when it has); its output channels a thread (16, 8 or 4).
std::string conv_gather_unsupported(const ConvRecipe& c);
int conv_gather_channels(const ConvRecipe& c);
// The direct template on the tensor cores (kernels/conv/direct_mma.cuh) serves the forward ones the
// direct template serves: K is every (channel, tap) pair of a group, padded to 8.
bool conv_direct_mma_serves(const ConvRecipe& c);
// Whether the default point takes it: 33 to 192 (channel, tap) pairs a group, where it has a kernel.
bool conv_direct_mma_prevails(const ConvRecipe& c);
// Why it has no kernel for one it serves at `pixels` output pixels a CTA (Params::mma_pixels), "" when
// it has.
std::string conv_direct_mma_unsupported(const ConvRecipe& c, int pixels);
// Why a direct convolution with `cols` output columns a thread (Params::direct_cols) has no kernel
// (conv_unsupported asks it for a recipe classified direct, at one column).
std::string conv_direct_unsupported(const ConvRecipe& c, int cols);
// Its instance (kernels/instances/conv.cu.in) for a kConv recipe, before inlining.
Result<std::string> conv_instance(const Recipe& r, const TaskSpec& spec, const Params& p);
// A chain's anchor or prologue: the instance with `signature` in place of the entry point's, its
// epilogue reducing the chain's first stage where `fused` is given, its types and function in
// namespace `ns` where one is given (a second instance in the same file).
Result<std::string> conv_instance(const Recipe& r, const Params& p, const std::string& signature,
                                  const FusedStage* fused = nullptr, const std::string& ns = "");

// The convolution a task computes, or why it is not one (errors name the op or argument in the way).
Result<ConvRecipe> recognize_conv(const TaskSpec& spec);
Result<ConvRecipe> recognize_conv(const TaskSpec& spec, const OpGraph& g);

}  // namespace cutegen
