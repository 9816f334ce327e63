// A kernel's point: its strategy (expert/strategy.h) and that strategy's tuning parameters, and the
// space of points the search walks. The space is data: a table of (name, field, candidate values),
// each strategy reading some of them, filtered by what a recipe's shapes and the target allow.
#pragma once

#include <string>
#include <vector>

#include "build/target.h"
#include "core/result.h"
#include "expert/recipe.h"
#include "expert/strategy.h"

namespace cutegen {

struct Params {
  Strategy strategy = Strategy::kElementwise;
  int threads = 256;      // threads per block; last-dim reductions and row norms: 32 = a warp per row
  int vec = 4;            // elements per vector access (128-bit for 4 floats or 8 halves)
  int unroll = 4;         // vectors (or, for columns, elements) in flight per thread per step
  int blocks_per_sm = 0;  // elementwise: a persistent grid of k blocks per SM (0: a block per tile);
                          // rows held in shared memory: persistent groups of up to k CTAs per SM,
                          // each prefetching its next row (0: a group per row)
  int group = 1;          // row norms: the CTAs that share one row (cluster size, CTAs of a grid, chunks)
  int split = 1;          // reduce_columns: the threads that share one column's extent
  // GEMMs: the CTA tile, pipeline stages, cluster shape, the rasterization strip's width in tiles,
  // and split-K's slices of K (summed by a second pass).
  int tile_m = 128, tile_n = 256, stages = 4, cluster_m = 1, cluster_n = 1, swizzle = 8, split_k = 1;
  // fp32 GEMMs' 3xTF32: 0 splits each k-tile in shared memory in the mainloop, promoting every
  // k-tile; n > 0 splits the operands ahead (a pre-pass writing three tf32 k-tiles per k-tile) and
  // promotes every n k-tiles (kernels/gemm/mainloop_promoting.cuh). A 3xTF32 convolution: 1 (its
  // default) splits in its channels-last copies, 0 in the kernel (kernels/conv/mainloop_conv_tma.cuh).
  int split_ahead = 0;
  // fp32 split ahead (split_ahead > 0) for the warp-specialized kernels: 3 parts per k-tile (hi, lo,
  // hi against lo, hi, hi: a plain tf32 GEMM over them), or 2 (hi, lo and lo, hi: a third less to
  // write and load, the products crossing each pair of stages; kernels/gemm/mainloop_paired_parts.cuh).
  // A 3xTF32 convolution split in its copies: 3 stages per (tap, channel tile), or 2 crossed. With
  // the register split, 1 is plain TF32: one product of operands rounded to tf32, for long sums of K
  // where the evaluator's accuracy rule admits it (kernels/gemm/gemm_config.cuh OneProduct).
  int split_parts = 3;
  // 1: 3xTF32 with the larger operand split in the consumers' registers and the other split ahead
  // into two parts (kernels/gemm/mainloop_register_split.cuh), the kernel's operands swapped
  // (C^T = B^T A^T) where B is the larger; for a small operand beside a large one. 2: the other split
  // in shared memory by the producer warpgroup instead, no pass over either operand.
  int register_split = 0;
  // Implicit-GEMM convolutions the recipe runs in TF32 (eager's cuDNN default): 1 runs them in
  // 3xTF32, for the shapes where cuDNN ran full fp32 and TF32 misses the accuracy rule (level 2's 78),
  // which no rule predicts from the shape: the measured search falls back to it.
  int tf32x3 = 0;
  // Implicit-GEMM convolutions the recipe runs in 3xTF32 (few input channels): 1 runs them in plain
  // TF32, for the shapes where cuDNN ran eager in TF32 too (level 1's 50, level 2's 7 and 8: eager's
  // error 9e-6 to 3e-4), where TF32's error stays inside the accuracy rule (expert/conv_precision.h).
  int tf32x1 = 0;
  // GEMMs over fp32 operands split ahead into three parts: 1 writes the parts in fp16 instead of
  // tf32, the same three products (hi*hi + hi*lo + lo*hi) at twice the tensor cores' tf32 rate, each
  // operand first scaled by a power of two into fp16's range (its largest magnitude measured by a
  // pass of its own; kernels/gemm/fp16_split.cuh). A search point until measured with the scale.
  int fp16x3 = 0;
  // GEMMs: n > 0 stages C in shared memory, in n buffers per consumer warpgroup, and stores it with
  // TMA (kernels/gemm/epilogue_tma_store.cuh), so the stores overlap the next tile's mainloop; 0
  // stores from registers.
  int tma_store = 0;
  // TF32 implicit-GEMM convolutions without row packing: 1 reads the channels-first input as it is,
  // the producer warpgroup gathering its K-major tiles by cp.async (kernels/conv/mainloop_conv_tma.cuh),
  // instead of a channels-last copy of it read by TMA.
  int gather_input = 0;
  // The same without the gather: 1 has TMA load the channels-first input's pixel-major tiles and the
  // consumers transpose them into registers for the wgmma RS form (kernels/conv/mainloop_conv_nchw.cuh);
  // a W stride of at most 6, the input's W a multiple of 4, 32-column pixel tiles.
  int input_boxes = 0;
  // Direct convolutions: output columns a thread computes (kernels/conv/direct.cuh), each tap read from
  // shared memory once for Rows x direct_cols pixels; 2 doubles the accumulators on half the threads.
  int direct_cols = 1;
  // Direct convolutions on the tensor cores (kernels/conv/direct_mma.cuh): output pixels a CTA (one
  // warpgroup), 128 or 256 (twice the accumulators, half the patch's halo).
  int mma_pixels = 128;
  // Their k-blocks (of 8) a partial sum spans before FADDs add it to the fp32 accumulators: 0 for the
  // whole K summed by the tensor cores (faster; their truncating sums longer), or 4.
  int mma_promote = 0;
  // Level-2 chains on an implicit-GEMM convolution: 1 reduces the first stage (a sum or mean over each
  // channel's pixels; a sum, mean, max, min or logsumexp over each pixel's channels; a 2-D pool) in the
  // convolution's epilogue (kernels/conv/epilogue_nchw_reduce.cuh), so the anchor writes the reduced
  // value instead of its whole output and the stage's kernel only applies the ops after it; or a first
  // norm's statistics summed there beside the output, so the norm reads it once. The default point
  // takes 1 where it pays (fused_stage_pays in expert/chain_recipe.h).
  int fuse_stage = 0;
  // Implicit-GEMM convolutions: 1 gives each consumer warpgroup whole 128-row tiles of its own, the two
  // taking turns on the tensor cores (ping-pong, kernels/gemm/kernel_warp_specialized.cuh), so that
  // one's output stores run under the other's mainloop; 0 has both share every tile (cooperative).
  int pingpong = 0;
  // Implicit-GEMM convolutions: 1 takes pixel tiles of 16 x 8 or 8 x 16 where the output's row, just
  // past a power of two, pads a tenth more of the plane in tiles as wide as that power (level 2's 11:
  // 34 x 34 outputs fill 53% of 64 x 2 tiles, 60% of 16 x 8); 0 the power of two past the row; 2
  // numbers the pixels along the rows of an input copy that holds the padding, tiles of 128 of them
  // (InputRead::kCopyFlat: 11 82%, the padding's 4 columns of 38 and the slice's last tile wasted).
  int pixel_fit = 0;
  // TF32 implicit-GEMM convolutions over the input's copy, W stride 1, one output row a tile: 1 loads
  // one box a kernel row, TileQ + (S - 1) x dilation columns, and runs its S taps' wgmmas from it on
  // shifted descriptors (kernels/conv/mainloop_conv_row_taps.cuh), A read once a row instead of a tap.
  int row_box = 0;
  bool operator==(const Params&) const = default;
};

struct ParamDef {
  const char* name;
  int Params::*field;
  std::vector<int> values;       // every value any strategy may take, ascending
  bool only_where_read = false;  // a GEMM tile's or a convolution's: spelled only in the points of
                                 // strategies that read it
};
const std::vector<ParamDef>& param_defs();

// "threads=512,vec=4,unroll=4,blocks_per_sm=0,split=1,group=1,strategy=norm_cluster": every parameter
// but the GEMM tile's (those the strategy does not read at their defaults), so that a point reads
// back exactly, then the strategy; a GEMM strategy's point spells only the parameters it reads
// ("tile_m=128,tile_n=256,stages=4,cluster_m=2,cluster_n=1,swizzle=8,split_k=1,strategy=gemm_warp_specialized").
std::string to_string(const Params& p);
// Reads "name=value,..." over `base` (strategy=NAME picks the strategy); unknown names and
// non-numbers are errors. Parameters the strategy does not read go back to their defaults.
Result<Params> parse_params(const std::string& text, Params base = {});

// Why `p` cannot instantiate a kernel for the recipe ("" when it can): its strategy does not serve the
// recipe, a value is not a candidate, or the strategy's own rule refuses it.
std::string invalid_reason(const Recipe& r, const Params& p, const ArchLimits& hw = Target{}.limits());
// Every valid point, the default first; deterministic order.
std::vector<Params> search_space(const Recipe& r, const ArchLimits& hw = Target{}.limits());
// One valid point per other strategy that serves the recipe, near the default's shape, so that a
// search moving one parameter at a time can also change strategy: one action each.
std::vector<Params> strategy_seeds(const Recipe& r, const ArchLimits& hw = Target{}.limits());
// The measured default (docs/decisions.md, "Expert strategies").
Params default_params(const Recipe& r, const ArchLimits& hw = Target{}.limits());

// Elements a thread holds at most where rows sit in registers: of 64 registers a block of 1024
// threads leaves each, and in a grid's registers, of 32 (the rest hold the next row's loads).
constexpr int64_t kMaxRowElementsPerThread = 64;
constexpr int kMaxGridElementsPerThread = 32;
// Shared memory one CTA of a group holding a row takes (its share, tile-aligned, plus one vector of
// slack for rows that start off a 16-byte boundary).
int64_t held_chunk_bytes(const Recipe& r, const Params& p);

}  // namespace cutegen
