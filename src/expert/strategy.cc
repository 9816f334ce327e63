#include "expert/strategy.h"

#include <algorithm>

#include "expert/chain_recipe.h"
#include "expert/conv_recipe.h"
#include "expert/params.h"

namespace cutegen {
namespace {

int elem_bytes(const std::string& c_type) { return c_type == "float" ? 4 : c_type == "int64_t" ? 8 : 2; }
int64_t tile_of(const Params& p) { return int64_t(p.threads) * p.vec * p.unroll; }
bool last_dim(const Recipe& r) { return r.rows.inner == 1; }

// Rules shared by the strategies over rows [outer, extent, inner].
std::string row_rules(const Recipe& r, const Params& p, bool reads_vec, bool whole_vectors) {
  if (reads_vec && p.vec * elem_bytes(r.in_type) > 16) return "vec=" + std::to_string(p.vec) + " exceeds 128 bits";
  if (whole_vectors && r.rows.extent % p.vec != 0) return "the row length is not a multiple of vec";
  int min_threads = last_dim(r) ? 32 : 64;  // a warp may own a row
  if (p.threads < min_threads || p.threads > 1024) return "threads must be " + std::to_string(min_threads) + "..1024";
  return "";
}

// Rules shared by the row norms over the last dim but those in registers.
std::string norm_rules(const Recipe& r, const Params& p, const char* group_what) {
  if (p.group > 1 && r.rows.extent / p.group < tile_of(p))
    return std::string(group_what) + " leaves chunks smaller than one tile";
  if (r.rows.outer * p.group * 2 >= (int64_t(1) << 31)) return "rows x group exceeds the grid";
  return "";
}

// Rows held in shared memory by a group of CTAs (a cluster, or CTAs of a cooperative grid).
std::string held_rules(const Recipe& r, const Params& p, const ArchLimits& hw, bool in_cluster) {
  if (auto why = row_rules(r, p, true, false); !why.empty())
    return why;  // a scalar head and tail: rows need not divide
  if (!in_cluster) {
    if (p.group < 2) return "a cooperative grid's group takes 2 CTAs or more (one CTA: a 1-CTA cluster)";
    if (auto why = norm_rules(r, p, "group"); !why.empty()) return why;
    if (p.blocks_per_sm == 0) return "a group larger than a cluster walks rows in a persistent grid: blocks_per_sm > 0";
    if (p.group > 1024) return "a held row's CTAs must all be resident at once: group at most 1024";
  } else {
    if (p.group > 16) return "a cluster holds at most 16 CTAs";
    if (r.rows.outer * 2 >= (int64_t(1) << 31)) return "rows exceed the grid";
  }
  if (p.vec * elem_bytes(r.in_type) != 16) return "held rows' bulk copies move 16-byte vectors: vec must fill 16 bytes";
  if (held_chunk_bytes(r, p) / elem_bytes(r.in_type) / tile_of(p) > 64) return "a held chunk spans more than 64 tiles";
  if (in_cluster && r.rows.outer * p.group >= (int64_t(1) << 31)) return "rows x cluster exceeds the grid";
  // 200 KB, the largest share measured, or less where the target's CTAs hold less.
  const int64_t budget = std::min<int64_t>(200 << 10, hw.smem_per_cta);
  if (held_chunk_bytes(r, p) > budget)
    return "a row's share per CTA exceeds " + std::to_string(budget / 1024) + " KB of shared memory";
  return "";
}

std::string elementwise_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  int widest = std::max(4, elem_bytes(r.out_type));
  for (auto& o : r.operands)
    widest = std::max(widest, elem_bytes(o.c_type));
  if (p.vec < 4 || p.vec * widest > 32) return "vec must be 4 or 8 and at most 32 bytes";
  if (p.threads > 1024 || p.threads < 128) return "threads must be 128..1024";
  return "";
}

std::string reduce_rows_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  return row_rules(r, p, true, true);
}

std::string reduce_columns_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  if (auto why = row_rules(r, p, false, false); !why.empty()) return why;
  if (p.threads / p.split < 32) return "fewer than 32 columns per block";
  if (p.unroll > 1 && r.rows.extent < int64_t(p.split) * p.unroll)
    return "unroll exceeds each thread's share of the column";
  return "";
}

std::string norm_registers_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  if (auto why = row_rules(r, p, true, true); !why.empty()) return why;
  // Half an SM's register file per row, at most kMaxRowElementsPerThread per thread.
  if (r.rows.extent > std::min<int64_t>(kMaxRowElementsPerThread * p.threads, hw.registers_per_sm / 2))
    return "the row does not fit the registers of one block";
  if (r.rows.outer > hw.max_grid_blocks) return "more rows than a grid has blocks";
  if (r.rows.outer * 2 >= (int64_t(1) << 31)) return "rows x group exceeds the grid";
  return "";
}

std::string norm_cluster_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  return held_rules(r, p, hw, true);
}
std::string norm_held_grid_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  return held_rules(r, p, hw, false);
}

std::string norm_grid_registers_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  if (auto why = row_rules(r, p, true, true); !why.empty()) return why;
  // One CTA per SM: the largest power of two of them the target's GPU holds at once.
  int max_group = 1;
  while (max_group * 2 <= hw.sm_count)
    max_group *= 2;
  if (p.group < 2) return "a grid's group takes 2 CTAs or more";
  if (p.group > max_group) return "a row is held in at most " + std::to_string(max_group) + " CTAs, one per SM";
  if (p.threads < 128) return "a grid's CTAs take 128 threads or more";
  if (p.vec * elem_bytes(r.in_type) != 16) return "a grid's CTAs move 16-byte vectors: vec must fill 16 bytes";
  if (p.vec * p.unroll > kMaxGridElementsPerThread)
    return "a grid holds at most " + std::to_string(kMaxGridElementsPerThread) + " elements per thread";
  if (tile_of(p) * p.group < r.rows.extent) return "group CTAs of threads x vec x unroll elements do not hold a row";
  return "";
}

std::string norm_streamed_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  if (auto why = row_rules(r, p, true, true); !why.empty()) return why;
  return norm_rules(r, p, "group");
}

std::string norm_split_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  if (p.group < 2) return "split rows take 2 chunks or more (one: norm_streamed)";
  return norm_streamed_invalid(r, p, hw);
}

std::string norm_columns_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  return row_rules(r, p, false, false);
}

}  // namespace

// EpilogueTmaStore's preconditions: C stored as computed (no operand swap), its rows (so its batches,
// m n elements apart) 16-byte aligned (the output's base is torch's allocation), whole 128-byte
// sub-tiles, no split-K.
std::string gemm_tma_store_unsupported(const Recipe& r, const Params& p) {
  const GemmRecipe& g = *r.gemm;
  const int64_t per16 = 16 / dtype_info(g.out_dtype).bytes;
  if (gemm_swaps_operands(g, p)) return "tma_store needs C stored as computed, not transposed";
  if (g.n % per16 != 0) return "tma_store needs C's rows 16-byte aligned";
  if (p.tile_n % (8 * per16) != 0) return "tma_store stores 128-byte sub-tiles: tile_n must be a multiple of them";
  if (p.split_k > 1) return "with split-K the reduce kernel stores C (tma_store=0)";
  return "";
}

namespace {

// A GEMM tile's limits: whole wgmma atoms per consumer warpgroup, at most 128 fp32 registers of
// accumulators per consumer thread (of the 232 it gets); for fp32, whose 3xTF32 holds a partial as
// large beside its accumulator, 96 split ahead (128 x 192 builds without spills) and 64 split in
// the mainloop (its hi/lo fragments spill at 128 x 192); the stages in the target's shared memory.
std::string gemm_tile_rules(const Recipe& r, const Params& p, const ArchLimits& hw, int mma_warpgroups) {
  const bool fp32 = r.gemm->math == GemmMath::k3xTF32;
  if (p.tile_m % (64 * mma_warpgroups) != 0) return "each consumer warpgroup takes whole 64-row wgmma atoms";
  const int most = !fp32 ? 128 : p.split_ahead ? 96 : 64;
  if (int64_t(p.tile_m) * p.tile_n / (128 * mma_warpgroups) > most)
    return "a consumer thread would hold more than " + std::to_string(most) + " accumulators" +
           (fp32 ? " and their 3xTF32 partial" : "");
  if (p.split_ahead && !fp32) return "split_ahead applies to fp32 operands only";
  if (p.split_parts == 1 && !(fp32 && p.register_split))
    return "split_parts=1 (one product, plain TF32) applies to the register split";
  if (p.split_parts == 2 && !p.split_ahead) return "split_parts applies to fp32 operands split ahead";
  if (p.fp16x3 && !(p.split_ahead && p.split_parts == 3))
    return "fp16x3 splits fp32 operands ahead into three parts (split_ahead > 0, split_parts=3)";
  if (p.split_ahead && fp32_split_ahead_bytes(*r.gemm) > kMaxGemmScratchBytes)
    return "the fp32 operands split ahead take over the " + std::to_string(kMaxGemmScratchBytes >> 20) + " MB scratch";
  if (p.register_split) {
    if (!fp32) return "register_split applies to fp32 operands only";
    if (p.split_ahead) return "register_split and split_ahead exclude each other";
    if (p.cluster_m * p.cluster_n > 1) return "the register split runs without clusters";
    if (p.register_split == 1 && fp32_register_split_bytes(*r.gemm) > kMaxGemmScratchBytes)
      return "the smaller fp32 operand's parts take over the " + std::to_string(kMaxGemmScratchBytes >> 20) +
             " MB scratch";
  }
  if (p.tma_store) {
    if (auto why = gemm_tma_store_unsupported(r, p); !why.empty()) return why;
  }
  // A stage holds a 128-byte K slice of the A and B tiles (fp32 split in the mainloop: two more for
  // the lo parts; the register split: B's lo and hi parts, and split in the kernel its staging too);
  // the pipeline's barriers fit in 1 KB; the TMA store's staging, tma_store 64 x 128-byte buffers per
  // consumer warpgroup.
  const bool lo_buffers = fp32 && !p.split_ahead && !p.register_split;
  const int64_t bytes =
      int64_t(p.stages + (lo_buffers ? 2 : 0)) * (p.tile_m + (1 + p.register_split) * p.tile_n) * 128 + 1024 +
      int64_t(p.tma_store) * 2 * 64 * 128;
  if (bytes > hw.smem_per_cta) return std::to_string(p.stages) + " stages exceed the target's shared memory per CTA";
  if (p.cluster_m * p.cluster_n > 4) return "TMA multicast here covers clusters of up to 4 CTAs";
  if (p.split_k > 1) {
    const int64_t k_tiles = (r.gemm->k + 31) / 32;  // at least 8 k-tiles of the widest (fp32) K tile per split
    if (k_tiles < 8 * p.split_k) return "split-K leaves slices of fewer than 8 k-tiles";
    if (output_tiles(r, p) * p.split_k > 4 * hw.sm_count) return "split-K beyond four waves of tiles";
    if (split_k_workspace_bytes(r, p) > (int64_t(1) << 30)) return "split-K's partial products exceed 1 GB";
  }
  return "";
}

std::string gemm_cooperative_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  return gemm_tile_rules(r, p, hw, 2);
}
std::string gemm_pingpong_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  return gemm_tile_rules(r, p, hw, 1);
}
std::string matvec_invalid(const Recipe&, const Params& p, const ArchLimits&) {
  if (p.threads < 64) return "a matrix-vector block takes 64 threads or more";
  return "";
}

bool is_elementwise(const Recipe& r) { return r.kind == TemplateKind::kElementwise; }
bool is_gemm(const Recipe& r) { return r.kind == TemplateKind::kGemm && r.gemm->kind == GemmClass::kGemm; }
bool is_matvec(const Recipe& r) { return r.kind == TemplateKind::kGemm && r.gemm->kind == GemmClass::kMatVec; }
bool reduce_last(const Recipe& r) { return r.kind == TemplateKind::kReduce && last_dim(r); }
bool reduce_middle(const Recipe& r) { return r.kind == TemplateKind::kReduce && !last_dim(r); }
bool norm_last(const Recipe& r) { return r.kind == TemplateKind::kRowNorm && last_dim(r); }
bool norm_middle(const Recipe& r) { return r.kind == TemplateKind::kRowNorm && !last_dim(r); }
bool conv_gemm(const Recipe& r) {
  return r.kind == TemplateKind::kConv && r.conv && r.conv->kind == ConvClass::kImplicitGemm;
}
bool conv_depthwise(const Recipe& r) {
  return r.kind == TemplateKind::kConv && r.conv && r.conv->kind == ConvClass::kDepthwise;
}
bool conv_direct(const Recipe& r) { return r.kind == TemplateKind::kConv && r.conv && conv_direct_serves(*r.conv); }
bool conv_gather(const Recipe& r) { return r.kind == TemplateKind::kConv && r.conv && conv_gather_serves(*r.conv); }
std::string conv_gather_invalid(const Recipe& r, const Params&, const ArchLimits&) {
  return conv_gather_unsupported(*r.conv);
}
std::string conv_invalid(const Recipe& r, const Params&, const ArchLimits&) { return conv_unsupported(*r.conv); }
// Plain TF32 (tf32x1) replaces a 3xTF32 recipe's three products, where eager's error admits it.
std::string tf32x1_invalid(const Recipe& r, const Params& p) {
  return p.tf32x1 && r.conv->math != GemmMath::k3xTF32 ? "tf32x1 applies where the recipe runs 3xTF32" : "";
}
std::string conv_direct_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  return conv_direct_unsupported(*r.conv, p.direct_cols);
}
bool conv_direct_mma(const Recipe& r) {
  return r.kind == TemplateKind::kConv && r.conv && conv_direct_mma_serves(*r.conv);
}
// The first stage a point's fuse_stage=1 fuses into the convolution's epilogue, or why there is none.
Result<FusedStage> fused_stage_of(const Recipe& r) {
  if (!r.chain) return error("fuse_stage applies to a level-2 chain's anchor");
  auto fused = fused_first_stage(*r.chain);
  if (!fused.ok()) return error("fuse_stage: " + fused.message());
  return fused;
}
std::string conv_direct_mma_invalid(const Recipe& r, const Params& p, const ArchLimits&) {
  if (auto why = tf32x1_invalid(r, p); !why.empty()) return why;
  if (p.fuse_stage) {
    auto fused = fused_stage_of(r);
    if (!fused.ok()) return fused.message();
    if (fused->over != FusedStage::Over::kPixels && fused->over != FusedStage::Over::kStats)
      return "fuse_stage: conv_direct_mma fuses sums over the pixels and norms' statistics only";
  }
  return conv_direct_mma_unsupported(*r.conv, p.mma_pixels);
}
std::string conv_gemm_invalid(const Recipe& r, const Params& p, const ArchLimits& hw) {
  if (p.tf32x3 && r.conv->math != GemmMath::kTF32) return "tf32x3 applies where the recipe runs TF32";
  if (auto why = tf32x1_invalid(r, p); !why.empty()) return why;
  if (p.split_ahead > 1) return "a convolution's 3xTF32 splits in the kernel (split_ahead=0) or in its copies (1)";
  if (p.split_ahead == 0 && !conv_runs_3xtf32(*r.conv, p))
    return "split_ahead=0 applies where the convolution runs 3xTF32";
  if (p.gather_input && conv_runs_3xtf32(*r.conv, p)) return "gather_input applies where the convolution runs TF32";
  if (p.split_parts == 1) return "split_parts=1 (one product) applies to GEMMs with the register split";
  if (p.split_parts != 3 && !(conv_runs_3xtf32(*r.conv, p) && p.split_ahead == 1))
    return "split_parts applies to a 3xTF32 convolution split in its copies (split_ahead=1)";
  if (p.gather_input && conv_packs_w(*r.conv)) return "gather_input excludes the row packing (a copy of its own)";
  if (p.input_boxes) {
    if (auto why = conv_boxes_unsupported(*r.conv, conv_runs_3xtf32(*r.conv, p)); !why.empty()) return why;
    if (p.gather_input) return "input_boxes and gather_input are two ways to read the input: one at a time";
  }
  if (p.cluster_m > 1 && conv_tiles(*r.conv).tile_n / p.cluster_m % 8 != 0)
    return "cluster_m: each CTA's share of the N tile must be whole 8-row swizzle atoms";
  if (p.cluster_m > 1 && p.split_ahead == 0)
    return "cluster_m applies to convolutions whose k-tiles are not split in shared memory";
  if (p.pingpong && p.fuse_stage) return "pingpong: a fused stage's epilogue reduces a tile over both warpgroups";
  // One warpgroup holds a 128 x N tile's accumulators and, in 3xTF32, their partial: past 64
  // channels (level 1's 50 at 96) ptxas spills them.
  if (p.pingpong && conv_runs_3xtf32(*r.conv, p) && conv_tiles(*r.conv).tile_n > 64)
    return "pingpong: a 3xTF32 tile over more than 64 channels holds more than one warpgroup's registers";
  if (p.tma_store) {
    if (p.tma_store != 2) return "a convolution's TMA store takes two staging buffers a warpgroup (tma_store=2)";
    if (p.fuse_stage) return "tma_store: a fused stage's epilogue writes reduced values";
    if (auto why =
            conv_tma_store_unsupported(*r.conv, conv_tiles(*r.conv, false, nullptr, p.input_boxes, true, p.pixel_fit));
        !why.empty())
      return why;
  }
  if (p.fuse_stage) {
    auto fused = fused_stage_of(r);
    if (!fused.ok()) return fused.message();
    if (p.input_boxes && fused->over == FusedStage::Over::kPool)
      return "input_boxes takes 32-column pixel tiles, a fused pool narrower ones";
    if (p.pixel_fit && fused->over == FusedStage::Over::kPool) return "pixel_fit: a fused pool sets the pixel tile";
    if (p.row_box && fused->over == FusedStage::Over::kPool)
      return "row_box takes pixel tiles of one output row, a fused pool narrower ones";
  }
  if (p.row_box) {
    if (auto why = conv_row_box_unsupported(*r.conv, conv_runs_3xtf32(*r.conv, p), p.pixel_fit == 2); !why.empty())
      return why;
    if (p.input_boxes || p.gather_input) return "row_box reads the input's copy";
    if (p.pixel_fit == 1) return "row_box takes pixel tiles of one output row, pixel_fit=1 narrower ones";
    if (conv_tiles(*r.conv, false, nullptr, false, p.tma_store, false, true).stages < 2)
      return "row_box: two stages of a row's box and its taps' weights exceed shared memory";
  }
  if (p.pixel_fit == 2) {
    if (auto why = conv_flat_unsupported(*r.conv); !why.empty()) return why;
    if (p.input_boxes || p.gather_input) return "pixel_fit=2 reads the input's padded copy";
    if (p.tma_store) return "pixel_fit=2: the TMA store writes whole output rows, flat tiles span rows";
  } else if (p.pixel_fit) {
    if (p.input_boxes) return "pixel_fit: input_boxes takes whole 32-column runs";
    // ptxas spilled the consumer of level 1's 77 (24-28 bytes; cooperative, or without clusters, none).
    if (p.pingpong && p.cluster_m > 1 && conv_merge_w(*r.conv) > 1)
      return "pixel_fit: a ping-pong tile over merged W phases in clusters of two spills its registers";
    if (conv_tiles(*r.conv, false, nullptr, false, false, true).tile_q == conv_tiles(*r.conv).tile_q)
      return "pixel_fit: the power of two past the output's row pads little here";
  }
  return conv_invalid(r, p, hw);
}

}  // namespace

const std::vector<StrategyDef>& strategy_table() {
  static const std::vector<StrategyDef> table = {
      {Strategy::kElementwise,
       "elementwise",
       "elementwise/tiles.cuh",
       {"threads", "vec", "unroll", "blocks_per_sm"},
       is_elementwise,
       elementwise_invalid,
       "elementwise-tiles"},
      {Strategy::kReduceRows,
       "reduce_rows",
       "reduce/rows.cuh",
       {"threads", "vec", "unroll"},
       reduce_last,
       reduce_rows_invalid,
       "reduce-rows-warp"},
      {Strategy::kReduceColumns,
       "reduce_columns",
       "reduce/columns.cuh",
       {"threads", "unroll", "split"},
       reduce_middle,
       reduce_columns_invalid,
       "reduce-columns-split"},
      {Strategy::kNormRegisters,
       "norm_registers",
       "rownorm/registers.cuh",
       {"threads", "vec"},
       norm_last,
       norm_registers_invalid,
       "norm-registers"},
      {Strategy::kNormCluster,
       "norm_cluster",
       "rownorm/held.cuh",
       {"threads", "vec", "unroll", "group", "blocks_per_sm"},
       norm_last,
       norm_cluster_invalid,
       "norm-held"},
      {Strategy::kNormHeldGrid,
       "norm_held_grid",
       "rownorm/held.cuh",
       {"threads", "vec", "unroll", "group", "blocks_per_sm"},
       norm_last,
       norm_held_grid_invalid,
       "norm-held"},
      {Strategy::kNormGridRegisters,
       "norm_grid_registers",
       "rownorm/grid.cuh",
       {"threads", "vec", "unroll", "group"},
       norm_last,
       norm_grid_registers_invalid,
       "norm-grid-registers"},
      {Strategy::kNormStreamed,
       "norm_streamed",
       "rownorm/streamed.cuh",
       {"threads", "vec", "unroll"},
       norm_last,
       norm_streamed_invalid,
       "norm-streamed"},
      {Strategy::kNormSplit,
       "norm_split",
       "rownorm/streamed.cuh",
       {"threads", "vec", "unroll", "group"},
       norm_last,
       norm_split_invalid,
       "norm-streamed"},
      {Strategy::kNormSplitTicket,
       "norm_split_ticket",
       "rownorm/streamed.cuh",
       {"threads", "vec", "unroll", "group"},
       norm_last,
       norm_split_invalid,
       "norm-streamed"},
      {Strategy::kNormColumns,
       "norm_columns",
       "rownorm/columns.cuh",
       {"threads"},
       norm_middle,
       norm_columns_invalid,
       "norm-columns"},
      {Strategy::kGemmWarpSpecialized,
       "gemm_warp_specialized",
       "gemm/kernel_warp_specialized.cuh",
       {"tile_m", "tile_n", "stages", "cluster_m", "cluster_n", "swizzle", "split_k", "split_ahead", "split_parts",
        "register_split", "tma_store", "fp16x3"},
       is_gemm,
       gemm_cooperative_invalid,
       "gemm-warp-specialized"},
      {Strategy::kGemmPingpong,
       "gemm_pingpong",
       "gemm/kernel_warp_specialized.cuh",
       {"tile_m", "tile_n", "stages", "cluster_m", "cluster_n", "swizzle", "split_k", "split_ahead", "split_parts",
        "register_split", "tma_store", "fp16x3"},
       is_gemm,
       gemm_pingpong_invalid,
       "gemm-warp-specialized"},
      {Strategy::kGemmPipelined,
       "gemm_pipelined",
       "gemm/kernel_pipelined.cuh",
       {"tile_m", "tile_n", "stages", "swizzle", "split_k", "split_ahead"},
       is_gemm,
       gemm_cooperative_invalid,
       "gemm-warp-specialized"},
      {Strategy::kMatVec, "matvec", "gemm/matvec.cuh", {"threads"}, is_matvec, matvec_invalid, "matvec"},
      {Strategy::kConvImplicitGemm,
       "conv_implicit_gemm",
       "conv/conv_forward.cuh",
       {"tf32x3", "tf32x1", "split_ahead", "split_parts", "gather_input", "input_boxes", "cluster_m", "fuse_stage",
        "pingpong", "tma_store", "pixel_fit", "row_box"},
       conv_gemm,
       conv_gemm_invalid,
       "conv-implicit-gemm"},
      {Strategy::kConvDepthwise,
       "conv_depthwise",
       "conv/depthwise.cuh",
       {},
       conv_depthwise,
       conv_invalid,
       "conv-depthwise"},
      {Strategy::kConvDirect,
       "conv_direct",
       "conv/direct.cuh",
       {"direct_cols"},
       conv_direct,
       conv_direct_invalid,
       "conv-direct"},
      {Strategy::kConvDirectMma,
       "conv_direct_mma",
       "conv/direct_mma.cuh",
       {"mma_pixels", "mma_promote", "fuse_stage", "tf32x1"},
       conv_direct_mma,
       conv_direct_mma_invalid,
       "conv-direct-mma"},
      {Strategy::kConvTransposedGather,
       "conv_transposed_gather",
       "conv/transposed_gather.cuh",
       {},
       conv_gather,
       conv_gather_invalid,
       "conv-transposed-gather"},
  };
  return table;
}

const StrategyDef& strategy_def(Strategy s) {
  for (auto& d : strategy_table())
    if (d.strategy == s) return d;
  return strategy_table().front();
}

// The register split takes the larger operand as the kernel's A (split ahead, the smaller one costs
// less); split in the kernel, the one stored K-major as the kernel's B (no transposition in the split)
// where the other, stored N-contiguous, can be the kernel's A as stored (M-major: loaded element by element).
bool gemm_swaps_operands(const GemmRecipe& g, const Params& p) {
  if (p.register_split == 2) return g.a.layout == MatrixLayout::kRowMajor && g.b.layout == MatrixLayout::kRowMajor;
  return p.register_split == 1 && g.n > g.m;
}

int64_t output_tiles(const Recipe& r, const Params& p) {
  const GemmRecipe& g = *r.gemm;
  const bool swap = gemm_swaps_operands(g, p);
  const int64_t m = swap ? g.n : g.m, n = swap ? g.m : g.n;
  return (m + p.tile_m - 1) / p.tile_m * ((n + p.tile_n - 1) / p.tile_n) * g.batch_count();
}

int64_t split_k_workspace_bytes(const Recipe& r, const Params& p) {
  if (p.split_k <= 1) return 0;
  const GemmRecipe& g = *r.gemm;
  const bool swap = gemm_swaps_operands(g, p);
  const int64_t m = swap ? g.n : g.m, n = swap ? g.m : g.n;
  const int cm = p.strategy == Strategy::kGemmPipelined ? 1 : p.cluster_m;
  const int cn = p.strategy == Strategy::kGemmPipelined ? 1 : p.cluster_n;
  const int64_t tiles_m = (m + p.tile_m * cm - 1) / (p.tile_m * cm) * cm;
  const int64_t tiles_n = (n + p.tile_n * cn - 1) / (p.tile_n * cn) * cn;
  return g.batch_count() * tiles_m * tiles_n * p.split_k * p.tile_m * p.tile_n * 4;
}

int64_t fp32_split_ahead_row_bytes(int64_t k, int parts, bool half) {
  return half ? parts * ((k + 63) / 64 * 64) * 2 : parts * ((k + 31) / 32 * 32) * 4;
}

int64_t fp32_split_ahead_bytes(const GemmRecipe& g) {
  return g.batch_count() * (g.m + g.n) * fp32_split_ahead_row_bytes(g.k);
}

int64_t fp32_register_split_bytes(const GemmRecipe& g) {
  return g.batch_count() * std::min(g.m, g.n) * fp32_split_ahead_row_bytes(g.k, 2);
}

bool is_gemm_strategy(Strategy s) {
  return s == Strategy::kGemmWarpSpecialized || s == Strategy::kGemmPingpong || s == Strategy::kGemmPipelined ||
         s == Strategy::kMatVec;
}

std::optional<Strategy> strategy_named(const std::string& name) {
  for (auto& d : strategy_table())
    if (name == d.name) return d.strategy;
  return std::nullopt;
}

}  // namespace cutegen
