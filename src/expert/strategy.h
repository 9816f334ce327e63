// The expert's kernel designs as data: one named strategy per kernel of the library (kernels/), each a
// row of one table with its header, the parameters it reads, the recipes it serves, its validity rule
// and the decision (docs/decisions.md, "Expert strategies") behind the rule that makes it a default.
// The search changes strategy by taking another row's point (strategy_seeds in params.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "build/target.h"
#include "expert/recipe.h"

namespace cutegen {

enum class Strategy {
  kElementwise,           // out = expr(operands...): 128-bit tiles, a block per tile or a persistent grid
  kReduceRows,            // a reduction over the last dim: a block (or a warp) per row
  kReduceColumns,         // a reduction over a middle dim: threads own columns, `split` share one
  kNormRegisters,         // a short row held in the registers of one block (a warp or more)
  kNormCluster,           // a row held in the shared memory of a thread-block cluster of `group` CTAs
  kNormHeldGrid,          // a row held in the shared memory of `group` CTAs of a persistent cooperative grid
  kNormGridRegisters,     // a long row held in the registers of `group` CTAs of a cooperative grid, one per SM
  kNormStreamed,          // a row streamed twice by one block
  kNormSplit,             // a row cut into `group` chunks whose statistics meet in a workspace: two launches
  kNormSplitTicket,       // the same in one launch, work items ordered by a ticket taken at run time
  kNormColumns,           // a normalization over a middle dim: a thread per column
  kGemmWarpSpecialized,   // TMA + wgmma, persistent: a producer warpgroup, two consumers sharing each tile
  kGemmPingpong,          // the same kernel, the two consumers alternating tiles (one's epilogue under the other's MMA)
  kGemmPipelined,         // TMA + wgmma, a CTA per tile, no warp specialization or clusters
  kMatVec,                // N == 1 or M == 1: memory-bound, a block per output or a thread per output
  kConvImplicitGemm,      // a forward convolution as an implicit GEMM on the Hopper GEMM's kernel (kernels/conv)
  kConvDepthwise,         // a depthwise convolution: an output tile per CTA from an input patch in shared memory
  kConvDirect,            // few input channels per group: fp32 multiply-adds over a patch in shared memory
  kConvDirectMma,         // the same on the tensor cores: 3xTF32 over every (channel, tap) pair at once
  kConvTransposedGather,  // a transposed convolution of at most one tap per dim an output: gathered per output pixel
};

struct Params;

struct StrategyDef {
  Strategy strategy;
  const char* name;                 // as --params spells it: "norm_cluster"
  const char* header;               // its kernel under kernels/
  std::vector<const char*> params;  // the parameters it reads; the others stay at their defaults
  bool (*serves)(const Recipe&);    // which recipes (template and shape) it can compute
  std::string (*invalid)(const Recipe&, const Params&, const ArchLimits&);  // why not ("" when it can)
  const char* decision;  // docs/decisions.md entry behind its default rule
};

// Every strategy, elementwise first, then reductions, row normalizations, GEMMs.
const std::vector<StrategyDef>& strategy_table();
const StrategyDef& strategy_def(Strategy s);
std::optional<Strategy> strategy_named(const std::string& name);
// The strategies of TemplateKind::kGemm recipes (GEMMs and matrix-vector products).
bool is_gemm_strategy(Strategy s);
// A GEMM point's CTA tiles over the output, all batches.
int64_t output_tiles(const Recipe& r, const Params& p);
// Bytes of split-K partials a GEMM point writes (kernels/gemm/split_k.cuh: a tile of floats per
// split of every tile of the cluster-padded grid, per batch of a launch); 0 without split-K.
int64_t split_k_workspace_bytes(const Recipe& r, const Params& p);
// Why a GEMM's C cannot take the TMA store (Params::tma_store) at this point, or "".
std::string gemm_tma_store_unsupported(const Recipe& r, const Params& p);
// The most scratch a GEMM instance asks of the device workspace (gemm.cu.in) for its fp32 operands.
inline constexpr int64_t kMaxGemmScratchBytes = int64_t(4) << 30;
// Bytes of one row of an fp32 operand split ahead into tf32 parts (three; two, lo and hi, for the
// register split's B), K padded to whole 32-wide k-tiles, or into fp16 parts (`half`: fp16x3), K
// padded to 64 (kernels/gemm/split_tf32_kernel.cuh). The fp16 row is never the longer.
int64_t fp32_split_ahead_row_bytes(int64_t k, int parts = 3, bool half = false);
// Those of both operands of an fp32 GEMM, every batch counted.
int64_t fp32_split_ahead_bytes(const GemmRecipe& g);
// Those of the smaller operand split ahead into two parts for the register split (Params::register_split).
int64_t fp32_register_split_bytes(const GemmRecipe& g);
// Whether a point computes C^T = B^T A^T: the register split with B split ahead keeps the larger
// operand as its A (split in the kernel, neither is passed over, so none is swapped).
bool gemm_swaps_operands(const GemmRecipe& g, const Params& p);

}  // namespace cutegen
