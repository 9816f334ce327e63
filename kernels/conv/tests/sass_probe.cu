// A representative forward convolution (fp32 in TF32, 128 x 128 tiles of 8 x 16 pixels, a fused
// per-channel bias and ReLU) with its weight and input copies and a transposed convolution's
// phases, the same reading one box of the copy a kernel row (over 2-D or flat tiles), gathering its input without the
// copy (and so in clusters of two sharing the weight's tile by multicast) or loading it pixel-major by TMA, a
// transposed one with its W phases merged, its 3xTF32 form (128 x 64 tiles; three stages per k-tile, or two crossed)
// and the form that splits in the kernel (128 x 16), the depthwise template and the direct one for few input channels
// (fp32 multiply-adds, or 3xTF32 on the tensor cores), and level-2 chains' first reductions fused into the implicit
// GEMM's epilogue (a mean over the pixels; a min over the channels; a logsumexp over them, its W phases merged; 2 x 2
// and 4 x 4 pools), and a transposed one gathered per output pixel, compiled for sm_90a by the CI test (check_sass.py
// beside it), which reads their SASS and ptxas's resource report. Nothing here runs.
#include "conv/conv_forward.cuh"
#include "conv/depthwise.cuh"
#include "conv/direct.cuh"
#include "conv/direct_mma.cuh"
#include "conv/transposed_gather.cuh"

namespace cutegen::conv::probe {

struct BiasRelu {
  float const* bias;
  CUTE_DEVICE float apply(float acc, int, int k, int, int, int) const {
    float v = acc + bias[k];
    return v > 0.f ? v : 0.f;
  }
};

using Tf32 = gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 128, 5>;
using Conv = ConvForward<Tf32, 8, 16, BiasRelu>;

cudaError_t run(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Conv::run(x, w, out, s, f, workspace, nullptr);
}

// Flat tiles: 128 consecutive pixels of a padded copy's rows (FlatRows), a row of taps a pitch along.
using Flat = ConvForward<Tf32, 1, 128, BiasRelu, false, 1, InputRead::kCopyFlat>;

cudaError_t run_flat(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Flat::run(x, w, out, s, f, workspace, nullptr);
}

// The same gathering the input as it is (no channels-last copy of it): the producer warpgroup's cp.async.
using Gathered = ConvForward<Tf32, 8, 16, BiasRelu, false, 1, InputRead::kGather>;

cudaError_t run_gathered(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Gathered::run(x, w, out, s, f, workspace, nullptr);
}

// Clusters of two CTAs along M, each loading half of the weight tile and multicasting it, over the input
// read as pixel-major boxes (level 1's default for few taps since 2026-12-06).
using Clustered = ConvForward<
    gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 128, 5, 2, 1>, 4,
    32, BiasRelu, false, 1, InputRead::kBoxes>;

cudaError_t run_clustered(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Clustered::run(x, w, out, s, f, workspace, nullptr);
}

// One box a kernel row (3 taps, 128 + 8 columns), each tap's wgmmas reading it from its own column on;
// ping-pong in clusters of two.
using RowTaps = ConvForward<
    gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 128, 3, 2, 1, 1>,
    1, 128, BiasRelu, false, 1, InputRead::kCopy, false, 3, 136>;

cudaError_t run_row_taps(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return RowTaps::run(x, w, out, s, f, workspace, nullptr);
}

// The same over flat tiles (a padded copy's rows, a row of taps a pitch along them): level 1's 57 and
// 71 (transposed, stride 1; 32-wide N tiles, seven stages).
using FlatRowTaps = ConvForward<
    gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 32, 7, 2, 1, 1>, 1,
    128, BiasRelu, false, 1, InputRead::kCopyFlat, false, 3, 136>;

cudaError_t run_flat_row_taps(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f,
                              char* workspace) {
  return FlatRowTaps::run(x, w, out, s, f, workspace, nullptr);
}

// Ping-pong: each consumer warpgroup a 128 x 128 tile of its own, in clusters of two, over the input's
// channels-last copy (level 1's default where the input is copied, since 2026-12-06); 2 x 64 pixel
// tiles, whose tap walk and k-span spilled the producer's 40 registers.
using PingPong = ConvForward<
    gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 128, 6, 2, 1, 1>,
    2, 64, BiasRelu>;

cudaError_t run_pingpong(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return PingPong::run(x, w, out, s, f, workspace, nullptr);
}

// The same storing its output from shared memory by TMA, whole rows of pixels.
using TmaStored = ConvForward<
    gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 128, 5, 2, 1, 1>,
    1, 128, BiasRelu, false, 1, InputRead::kCopy, true>;

cudaError_t run_tma_stored(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f,
                           char* workspace) {
  return TmaStored::run(x, w, out, s, f, workspace, nullptr);
}

// The same loading the input as it is by TMA, pixel-major, and transposing it into registers (wgmma RS):
// 4 x 32 pixel tiles, one box each.
using Boxes = ConvForward<Tf32, 4, 32, BiasRelu, false, 1, InputRead::kBoxes>;

cudaError_t run_boxes(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Boxes::run(x, w, out, s, f, workspace, nullptr);
}

// The same with two taps a k-tile (groups of 16 channels), on 1 x 128 pixel tiles: eight boxes a k-tile.
using BoxPairs = ConvForward<Tf32, 1, 128, BiasRelu, false, 1, InputRead::kBoxPairs>;

cudaError_t run_box_pairs(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return BoxPairs::run(x, w, out, s, f, workspace, nullptr);
}

// A transposed convolution of strides past its taps' reach, gathered per output pixel (16 channels a thread).
cudaError_t run_transposed_gather(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f) {
  return TransposedGatherConv<128, 16, BiasRelu>::run(x, w, out, s, f, nullptr, nullptr);
}

// A transposed convolution of W stride 2 with its W phases merged (128 x 64 tiles: 32 channels x 2 phases).
using Merged =
    ConvForward<gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 64, 8>,
                8, 16, BiasRelu, false, 2>;

cudaError_t run_merged(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Merged::run(x, w, out, s, f, workspace, nullptr);
}

// 3xTF32 (split copies, three products per k-tile, promoted partials).
using Split =
    ConvForward<gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 64, 6>,
                4, 32, BiasRelu, true>;

cudaError_t run_split(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Split::run(x, w, out, s, f, workspace, nullptr);
}

// The same with two stages per k-tile (hi*lo, lo*hi) whose pair the consumers cross for hi*hi.
using SplitPaired = ConvForward<gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor,
                                                 gemm::ColMajor, 128, 64, 6, 1, 1, 2, 1, false, 2>,
                                4, 32, BiasRelu, true>;

cudaError_t run_split_paired(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f,
                             char* workspace) {
  return SplitPaired::run(x, w, out, s, f, workspace, nullptr);
}

// Its ping-pong form in clusters of two (level 1's 60 by default): one warpgroup holds a whole 128 x 64
// tile's accumulators and their partial (over more channels they spill: the expert refuses that).
using SplitPairedPingPong = ConvForward<gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor,
                                                         gemm::ColMajor, 128, 64, 6, 2, 1, 1, 1, false, 2>,
                                        8, 16, BiasRelu, true>;

cudaError_t run_split_paired_pingpong(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f,
                                      char* workspace) {
  return SplitPairedPingPong::run(x, w, out, s, f, workspace, nullptr);
}

// 3xTF32 split in the kernel (fp32 copies, each stage split in shared memory), on a 16-wide N tile.
using SplitInKernel = ConvForward<gemm::GemmConfig<float, float, float, gemm::RowMajor, gemm::ColMajor, 128, 16, 8>, 2,
                                  64, BiasRelu, true>;

cudaError_t run_split_in_kernel(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f,
                                char* workspace) {
  return SplitInKernel::run(x, w, out, s, f, workspace, nullptr);
}

// The depthwise template: 32 x 64 output tiles of 3 x 3 taps, eight rows per thread.
cudaError_t run_depthwise(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f) {
  return DepthwiseConv<64, 4, 8, 3, 3, BiasRelu>::run(x, w, out, s, f, nullptr, nullptr);
}

// The direct template: 32 x 32 output tiles, four rows x 16 channels per thread (forward, or a
// transposed convolution's phases).
cudaError_t run_direct(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return DirectConv<32, 32, 4, 16, BiasRelu>::run(x, w, out, s, f, workspace, nullptr);
}

// The same for a forward convolution with 3 x 3 taps per row plane known at compile time: the tap
// loops unroll.
cudaError_t run_direct_3x3(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f) {
  return DirectConv<32, 32, 4, 16, BiasRelu, 3, 3>::run(x, w, out, s, f, nullptr, nullptr);
}

// Two columns per thread, 32 apart: 16 x 64 output tiles on 128 threads, each tap read once for
// 4 x 2 pixels.
cudaError_t run_direct_3x3_two_columns(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f) {
  return DirectConv<16, 64, 4, 16, BiasRelu, 3, 3, 2>::run(x, w, out, s, f, nullptr, nullptr);
}

// The direct template on the tensor cores: 4 x 32 output pixels a CTA, 64 output channels, K of 11
// k-blocks (three channels x 3 x 3 x 3 taps: 81 of 88), partial sums promoted every 4 k-blocks.
cudaError_t run_direct_mma(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f) {
  return DirectMmaConv<4, 32, 64, 11, BiasRelu, 4>::run(x, w, out, s, f, nullptr, nullptr);
}

// The same over 8 channels x 27 taps (level 2's 8), 16 output channels, in plain TF32: hi x hi alone.
cudaError_t run_direct_mma_tf32(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f) {
  return DirectMmaConv<4, 32, 16, 27, BiasRelu, 0, 1>::run(x, w, out, s, f, nullptr, nullptr);
}

// Level-2 chains' first stage fused into the epilogue (fused_reduction.cuh): the mean over each
// channel's pixels (atomics into (N, K)), ...
struct BiasMeanOverPixels : BiasRelu {
  using Reduction = FusedReduction<ReduceDims::kPixels, ReduceOp::kSum, 64516>;
};
cudaError_t run_mean_over_pixels(float const* x, float const* w, float* out, ConvShape const& s, BiasMeanOverPixels f,
                                 char* workspace) {
  return ConvForward<Tf32, 8, 16, BiasMeanOverPixels>::run(x, w, out, s, f, workspace, nullptr);
}

// ... the min over each pixel's 64 channels (one N tile holds them), ...
struct BiasMinOverChannels : BiasRelu {
  using Reduction = FusedReduction<ReduceDims::kChannels, ReduceOp::kMin>;
};
using Narrow = gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 64, 8>;
cudaError_t run_min_over_channels(float const* x, float const* w, float* out, ConvShape const& s, BiasMinOverChannels f,
                                  char* workspace) {
  return ConvForward<Narrow, 1, 128, BiasMinOverChannels>::run(x, w, out, s, f, workspace, nullptr);
}

// ... the logsumexp over them of a transposed convolution with its W phases merged, ...
struct BiasLogSumExpOverChannels : BiasRelu {
  using Reduction = FusedReduction<ReduceDims::kChannels, ReduceOp::kLogSumExp>;
};
cudaError_t run_log_sum_exp_merged(float const* x, float const* w, float* out, ConvShape const& s,
                                   BiasLogSumExpOverChannels f, char* workspace) {
  return ConvForward<Narrow, 8, 16, BiasLogSumExpOverChannels, false, 2>::run(x, w, out, s, f, workspace, nullptr);
}

// ... a 2 x 2 max pool (tiles of 16 x 8 pixels), and a 4 x 4 average pool of a 3xTF32 one (32 x 4).
struct BiasMaxPool2 : BiasRelu {
  using Reduction = FusedReduction<ReduceDims::kPool, ReduceOp::kMax, 1, 2>;
};
cudaError_t run_max_pool(float const* x, float const* w, float* out, ConvShape const& s, BiasMaxPool2 f,
                         char* workspace) {
  return ConvForward<Tf32, 16, 8, BiasMaxPool2>::run(x, w, out, s, f, workspace, nullptr);
}
struct BiasAvgPool4 : BiasRelu {
  using Reduction = FusedReduction<ReduceDims::kPool, ReduceOp::kSum, 16, 4>;
};
cudaError_t run_avg_pool_3xtf32(float const* x, float const* w, float* out, ConvShape const& s, BiasAvgPool4 f,
                                char* workspace) {
  return ConvForward<
      gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 64, 6>, 32, 4,
      BiasAvgPool4, true>::run(x, w, out, s, f, workspace, nullptr);
}

// A norm's statistics beside the whole output: each (image, channel)'s sum and sum of squares added
// in double (the functor's `stats`).
struct BiasNormStatistics : BiasRelu {
  using Reduction = FusedReduction<ReduceDims::kStats, ReduceOp::kSum>;
  double* stats;
};
cudaError_t run_norm_statistics(float const* x, float const* w, float* out, ConvShape const& s, BiasNormStatistics f,
                                char* workspace) {
  return ConvForward<Narrow, 8, 16, BiasNormStatistics>::run(x, w, out, s, f, workspace, nullptr);
}

// The tensor-core direct template with the same two fused: 24 output channels (level 2's 23 and 27,
// group norms after a 3-D convolution over three channels), and a mean over the pixels (both summing
// the whole K in the tensor cores, no promotion).
cudaError_t run_direct_mma_statistics(float const* x, float const* w, float* out, ConvShape const& s,
                                      BiasNormStatistics f) {
  return DirectMmaConv<4, 32, 24, 11, BiasNormStatistics>::run(x, w, out, s, f, nullptr, nullptr);
}
cudaError_t run_direct_mma_mean(float const* x, float const* w, float* out, ConvShape const& s, BiasMeanOverPixels f) {
  return DirectMmaConv<4, 32, 64, 11, BiasMeanOverPixels>::run(x, w, out, s, f, nullptr, nullptr);
}

}  // namespace cutegen::conv::probe
