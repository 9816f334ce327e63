#include "expert/params.h"

#include <algorithm>
#include <charconv>

#include "core/strings.h"
#include "expert/chain_recipe.h"
#include "expert/conv_recipe.h"
#include "expert/strided.h"

namespace cutegen {
namespace {

int elem_bytes(const std::string& c_type) { return c_type == "float" ? 4 : c_type == "int64_t" ? 8 : 2; }
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool reads(const StrategyDef& s, const char* name) {
  return std::any_of(s.params.begin(), s.params.end(), [&](const char* n) { return std::string(n) == name; });
}

// `p` with the parameters its strategy does not read at their defaults, so that points do not alias.
Params canonical(Params p) {
  const Params defaults;
  for (auto& d : param_defs())
    if (!reads(strategy_def(p.strategy), d.name)) p.*d.field = defaults.*d.field;
  return p;
}

Params with(Strategy s, Params p) {
  p.strategy = s;
  return canonical(p);
}

// A convolution's implicit-GEMM default with one more parameter set, where that point is valid.
void set_where_valid(const Recipe& r, const ArchLimits& hw, Params& p, int Params::*field, int value) {
  Params q = with(Strategy::kConvImplicitGemm, p);
  q.*field = value;
  if (invalid_reason(r, q, hw).empty()) p.*field = value;
}

// `p` cut into chunks of at most `max_bytes` (norm_split, or norm_split_ticket for one launch): the
// group doubled while the chunks are larger and the point stays valid; `p` itself when none is.
Params in_chunks(const Recipe& r, Params p, int64_t max_bytes, Strategy chunks, const ArchLimits& hw) {
  for (Params q = p; r.rows.extent * elem_bytes(r.in_type) / p.group > max_bytes; p = q) {
    q.group = p.group * 2, q.strategy = chunks;
    if (!invalid_reason(r, q, hw).empty()) break;
  }
  return p;
}

// Each row in the registers of the fewest CTAs of a cooperative grid, 1024 threads of
// kMaxGridElementsPerThread elements each (possibly invalid: rows too long).
Params grid_registers_point(const Recipe& r, Params p, const ArchLimits& hw) {
  p.strategy = Strategy::kNormGridRegisters, p.blocks_per_sm = 0, p.threads = 1024;
  p.vec = 16 / elem_bytes(r.in_type), p.unroll = kMaxGridElementsPerThread / p.vec;
  int max_group = 1;
  while (max_group * 2 <= hw.sm_count)
    max_group *= 2;
  p.group = 2;
  while (int64_t(p.group) * p.threads * kMaxGridElementsPerThread < r.rows.extent && p.group < max_group)
    p.group *= 2;
  return canonical(p);
}

// The default point of a row norm over the last dim, `p` holding the widest valid vector: the
// strategy by the rows' length and count (docs/decisions.md, "Expert strategies").
Params row_norm_default(const Recipe& r, Params p, const ArchLimits& hw) {
  auto valid = [&](const Params& q) { return invalid_reason(r, q, hw).empty(); };
  // norm_registers: rows a warp can hold (up to 2048 elements), a warp each when rows are many, more
  // warps each while fewer than about 4096 warps would run (norm-registers).
  Params regs = with(Strategy::kNormRegisters, p);
  regs.threads = 32;
  while (regs.threads < 256 && r.rows.outer * regs.threads / 32 < 4096 && 2 * regs.threads * regs.vec <= r.rows.extent)
    regs.threads *= 2;
  if (r.rows.extent <= 32 * kMaxRowElementsPerThread && valid(regs)) return regs;
  // Rows of up to 8192 elements a block each, at most 16 elements per thread (norm-registers).
  regs.threads = 64;
  while (int64_t(regs.threads) * 16 < r.rows.extent)
    regs.threads *= 2;
  if (r.rows.extent <= 512 * 16 && valid(regs)) return regs;
  // norm_cluster: a row that fits in one CTA's shared memory (up to 100 KB, two or more CTAs per SM),
  // read from DRAM once (norm-held).
  auto cluster_holds = [&](const Params& q) { return valid(q) && held_chunk_bytes(r, q) <= 100 * 1024; };
  const int vec16 = 16 / elem_bytes(r.in_type);  // held rows copy 16-byte vectors, whatever the rows' alignment
  Params one_cta = with(Strategy::kNormCluster, p);
  one_cta.group = 1, one_cta.threads = 512, one_cta.vec = vec16;
  if (cluster_holds(one_cta)) return one_cta;
  // norm_held_grid: many longer rows held by the fewest CTAs of a persistent cooperative grid whose
  // chunks (at most 64 KB) fit three or four to an SM; else chunks in one launch (norm-held).
  if (r.rows.outer >= 512) {
    Params held = with(Strategy::kNormHeldGrid, p);
    held.group = 2, held.blocks_per_sm = 4, held.unroll = 2, held.vec = vec16;
    while (r.rows.extent * elem_bytes(r.in_type) / held.group > (64 << 10) && held.group < 1024)
      held.group *= 2;
    return valid(held) ? held : in_chunks(r, p, 64 << 10, Strategy::kNormSplitTicket, hw);
  }
  // Fewer rows: the smallest cluster of up to 8 CTAs whose shares fit in 100 KB each (norm-held).
  for (int c : {2, 4, 8}) {
    Params q = one_cta;
    q.group = c;
    if (cluster_holds(q)) return q;
  }
  // norm_grid_registers: rows that the whole grid (one CTA per SM, 32 elements per thread) holds
  // exactly (norm-grid-registers).
  const Params grid = grid_registers_point(r, p, hw);
  const int64_t grid_holds = int64_t(grid.group) * grid.threads * grid.vec * grid.unroll;
  if (grid.group * 2 > hw.sm_count && grid_holds == r.rows.extent && valid(grid)) return grid;
  // norm_streamed, or norm_split where few rows are cut over enough blocks to fill the GPU (about
  // 512) in chunks of at most 2 MB, in two launches (norm-streamed).
  for (Params q = p; r.rows.outer * p.group < 512 || r.rows.extent * elem_bytes(r.in_type) / p.group > (2 << 20);
       p = q) {
    q.group = p.group * 2, q.strategy = Strategy::kNormSplit;
    if (!valid(q)) break;
  }
  return p;
}

// The most stages of `p`'s tile that the target's shared memory holds (at least 2).
Params deepest_pipeline(const Recipe& r, Params p, const ArchLimits& hw) {
  for (int stages : {8, 6, 5, 4, 3, 2}) {
    p.stages = stages;
    if (invalid_reason(r, p, hw).empty()) break;
  }
  return p;
}

// A GEMM's default: the warp-specialized persistent kernel (cooperative), a 128 x 256 tile (narrower
// where N is), as many stages as fit, a 2 x 1 cluster sharing B tiles where M spans 4 tiles or more,
// strips of 8; K cut into slices while the tiles fill less than half the SMs (gemm-warp-specialized).
// fp32 runs as 3xTF32 split ahead, promoting every 2 k-tiles, where that pays and its scratch holds
// the parts, in 128 x 192 tiles unless N pads them more than 128 x 128's are slower; elsewhere (a
// small operand beside a large one) the larger split in registers, 128 x 128 tiles, no cluster
// (gemm-fp32-3xtf32). C stored by TMA from shared memory wherever it admits that (gemm-tma-store).
// A matrix-vector product: 256 threads (matvec).
Params gemm_default(const Recipe& r, const ArchLimits& hw) {
  Params p = with(r.gemm->kind == GemmClass::kMatVec ? Strategy::kMatVec : Strategy::kGemmWarpSpecialized, Params{});
  if (p.strategy == Strategy::kMatVec) return p;
  const int64_t n = r.gemm->n;
  if (r.gemm->math != GemmMath::k3xTF32) {
    p.tile_n = n <= 64 ? 64 : n <= 128 ? 128 : 256;
  } else {
    // The pass reads the operands and writes 3x them: 16 (m + n) k bytes at ~4 TB/s, against 2 m n k
    // flops at ~100 TFLOP/s ahead and ~40 in the mainloop, so ahead pays where m n / (m + n) > ~133
    // (256 x 256 x 524288 ran 27.7 TFLOP/s ahead, 35.0 in the mainloop).
    const int64_t m = r.gemm->m;
    // Promoting every k-tile: as fast as every 2 and nearer eager's error (on an H100, 2026-12-06d:
    // level 1's 1, 7, 11 within 1%, error against float64 4.0e-7 -> 1.3-1.9e-7, eager's 1.2-8.4e-7;
    // within a partial of two k-tiles the tensor cores' truncating sums grow the error).
    p.split_ahead = m * n > 160 * (m + n) && fp32_split_ahead_bytes(*r.gemm) <= kMaxGemmScratchBytes ? 1 : 0;
    // Split ahead, 128 x 192 ran 1.1x 128 x 128's TFLOP/s at 4096^3: the columns each computes,
    // padding included.
    const bool wide = p.split_ahead && ceil_div(n, 192) * 192 * 10 < ceil_div(n, 128) * 128 * 11;
    p.register_split = !p.split_ahead && fp32_register_split_bytes(*r.gemm) <= kMaxGemmScratchBytes;
    const int64_t kernel_n = gemm_swaps_operands(*r.gemm, p) ? m : n;
    p.tile_n = kernel_n <= 64 ? 64 : wide ? 192 : 128;
  }
  p.cluster_m = !p.register_split && r.gemm->m >= 4 * p.tile_m ? 2 : 1;
  p = deepest_pipeline(r, p, hw);
  for (Params q = p; output_tiles(r, q) * q.split_k < hw.sm_count / 2; p = q) {
    q.split_k = p.split_k * 2;
    if (!invalid_reason(r, q, hw).empty()) break;
  }
  // Last, as it excludes split-K; its staging may cost a stage.
  p.tma_store = gemm_tma_store_unsupported(r, p).empty() ? 2 : 0;
  return p.tma_store ? deepest_pipeline(r, p, hw) : p;
}

}  // namespace

int64_t held_chunk_bytes(const Recipe& r, const Params& p) {
  int64_t tile = int64_t(p.threads) * p.vec * p.unroll;
  int64_t chunk = ceil_div(ceil_div(r.rows.extent, std::max(p.group, 1)), tile) * tile;
  return (chunk + p.vec) * elem_bytes(r.in_type);
}

const std::vector<ParamDef>& param_defs() {
  static const std::vector<ParamDef> defs = {
      {"threads", &Params::threads, {32, 64, 128, 256, 512, 1024}},
      {"vec", &Params::vec, {1, 2, 4, 8}},
      {"unroll", &Params::unroll, {1, 2, 4, 8}},
      {"blocks_per_sm", &Params::blocks_per_sm, {0, 2, 4, 8, 16}},
      {"split", &Params::split, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}},
      {"group", &Params::group, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}},
      {"tile_m", &Params::tile_m, {64, 128, 256}, true},
      {"tile_n", &Params::tile_n, {64, 128, 192, 256}, true},
      {"stages", &Params::stages, {2, 3, 4, 5, 6, 8}, true},
      {"cluster_m", &Params::cluster_m, {1, 2}, true},
      {"cluster_n", &Params::cluster_n, {1, 2}, true},
      {"swizzle", &Params::swizzle, {1, 4, 8, 16}, true},
      {"split_k", &Params::split_k, {1, 2, 4, 8, 16, 32, 64}, true},
      {"split_ahead", &Params::split_ahead, {0, 1, 2, 4}, true},
      {"split_parts", &Params::split_parts, {1, 2, 3}, true},
      {"register_split", &Params::register_split, {0, 1, 2}, true},
      {"tf32x3", &Params::tf32x3, {0, 1}, true},
      {"tf32x1", &Params::tf32x1, {0, 1}, true},
      {"fp16x3", &Params::fp16x3, {0, 1}, true},
      {"tma_store", &Params::tma_store, {0, 2, 3, 4}, true},
      {"gather_input", &Params::gather_input, {0, 1}, true},
      {"input_boxes", &Params::input_boxes, {0, 1}, true},
      {"direct_cols", &Params::direct_cols, {1, 2}, true},
      {"mma_pixels", &Params::mma_pixels, {128, 256}, true},
      {"mma_promote", &Params::mma_promote, {0, 4}, true},
      {"fuse_stage", &Params::fuse_stage, {0, 1}, true},
      {"pingpong", &Params::pingpong, {0, 1}, true},
      {"pixel_fit", &Params::pixel_fit, {0, 1, 2}, true},
      {"row_box", &Params::row_box, {0, 1}, true},
  };
  return defs;
}

std::string to_string(const Params& p) {
  std::vector<std::string> parts;
  const StrategyDef& s = strategy_def(p.strategy);
  for (auto& d : param_defs())
    if (is_gemm_strategy(p.strategy) ? reads(s, d.name) : !d.only_where_read || reads(s, d.name))
      parts.push_back(std::string(d.name) + "=" + std::to_string(p.*d.field));
  parts.push_back(std::string("strategy=") + strategy_def(p.strategy).name);
  return join(parts, ",");
}

Result<Params> parse_params(const std::string& text, Params base) {
  std::vector<const ParamDef*> given;
  for (auto& item : split(text, ',')) {
    if (trim(item).empty()) continue;
    auto kv = split(item, '=');
    if (kv.size() != 2) return error("params: `" + item + "` is not name=value");
    const std::string name = trim(kv[0]), v = trim(kv[1]);
    if (name == "strategy") {
      auto s = strategy_named(v);
      if (!s) return error("params: unknown strategy `" + v + "`");
      base.strategy = *s;
      continue;
    }
    const ParamDef* def = nullptr;
    for (auto& d : param_defs())
      if (name == d.name) def = &d;
    if (!def) return error("params: unknown parameter `" + name + "`");
    int value = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    if (ec != std::errc() || ptr != v.data() + v.size()) return error("params: `" + v + "` is not an integer");
    base.*(def->field) = value;
    given.push_back(def);
  }
  // A template's own parameter (a GEMM tile's, a convolution's) that the strategy would not read is an
  // error, not a point that silently drops it; the shared launch parameters fall back to their defaults.
  Params const p = canonical(base);
  for (const ParamDef* d : given)
    if (d->only_where_read && p.*(d->field) != base.*(d->field))
      return error(std::string("params: ") + d->name + "=" + std::to_string(base.*(d->field)) + " does not apply to " +
                   strategy_def(p.strategy).name);
  return p;
}

std::string invalid_reason(const Recipe& r, const Params& p, const ArchLimits& hw) {
  const StrategyDef& s = strategy_def(p.strategy);
  if (!s.serves(r)) return std::string("strategy ") + s.name + " does not compute this recipe";
  for (auto& d : param_defs())
    if (std::find(d.values.begin(), d.values.end(), p.*d.field) == d.values.end())
      return std::string(d.name) + "=" + std::to_string(p.*d.field) + " is not a candidate value";
  const Params defaults;
  for (auto& d : param_defs())
    if (!reads(s, d.name) && p.*d.field != defaults.*d.field)
      return std::string(d.name) + " does not apply to " + s.name;
  return s.invalid(r, p, hw);
}

Params default_params(const Recipe& r, const ArchLimits& hw) {
  if (r.kind == TemplateKind::kGemm) return gemm_default(r, hw);
  Params p;
  if (r.kind == TemplateKind::kConv) {  // tiles from the shape (conv_instance.cc)
    // A transposed convolution with at most one tap per output pixel gathers each pixel's tap (level
    // 1's 81 on an H100: 1.61x eager against its phase-by-phase GEMMs' 0.49x; conv-transposed-gather).
    if (r.conv && conv_gather_serves(*r.conv) && conv_gather_unsupported(*r.conv).empty())
      return with(Strategy::kConvTransposedGather, Params{});
    // The tensor-core direct template over 33 to 192 (channel, tap) pairs a group, its chain's first stage
    // fused where it takes it (conv-direct-mma; on an H100, 2026-12-06e: level 1's 54 0.71 -> 1.24x
    // eager, level 2's 24 0.88 -> 1.23x, 23 0.73 -> 1.01x; 216 pairs (7, 8, 90) and 27 (59) slower).
    if (r.conv && conv_direct_mma_prevails(*r.conv)) {
      Params m = with(Strategy::kConvDirectMma, Params{});
      // Over more than 128 pairs, promoted every 4 k-blocks: level 2's 27 (192) 8.6x eager's error
      // unpromoted, 1.6x promoted, 2% slower; over 72-81 pairs promoting cost 4-43% (level 1's 54 1.24
      // -> 1.06x eager, level 2's 67 2.30 -> 1.61x), their errors 2-9x eager's unpromoted.
      if (r.conv->gemm_k() > 128) m.mma_promote = 4;
      Params fused = m;
      fused.fuse_stage = 1;
      if (invalid_reason(r, fused, hw).empty()) return fused;
      // Not where the implicit GEMM would fuse a first stage this template does not (a pool, a
      // reduction over the channels: level 2's 65, 82).
      if (!r.chain || r.conv->kind != ConvClass::kImplicitGemm || !fused_stage_pays(*r.chain)) return m;
    }
    ConvClass kind = r.conv ? r.conv->kind : ConvClass::kImplicitGemm;
    if (kind == ConvClass::kImplicitGemm && r.conv && conv_direct_prevails(*r.conv)) kind = ConvClass::kDirect;
    if (kind == ConvClass::kImplicitGemm) p.split_ahead = 1;  // 3xTF32 split in the copies, as measured
    if (kind == ConvClass::kImplicitGemm && r.chain && fused_stage_pays(*r.chain)) p.fuse_stage = 1;
    // Few taps (three or fewer) or 16-channel groups (two taps a k-tile) are brief beside the input's
    // copy: the input read as it is, in pixel-major boxes where TMA takes them, else, for one tap,
    // gathered in the kernel (conv-gather-input). On an H100 (2026-12-06b) boxes won on level 1's 87
    // (1 tap), 67 (3) and 63 (9 of 16 channels), tied on 79 (3), and lost over more taps of 32 or more
    // channels (74's 5 by 24%, 55's 9 by 14%) and under every level-2 chain measured.
    // No stage after the convolution (a depthwise prologue before it at most): it writes the output.
    bool const writes_output = !r.chain || r.chain->stages.empty();
    if (kind == ConvClass::kImplicitGemm && r.conv && r.conv->math == GemmMath::kTF32 && !conv_packs_w(*r.conv)) {
      bool const brief = product(r.conv->kernel) <= 3 || r.conv->in_channels / r.conv->groups <= 16;
      if (brief && writes_output && conv_boxes_unsupported(*r.conv, false).empty())
        p.input_boxes = 1;
      else if (product(r.conv->kernel) == 1)
        p.gather_input = 1;
    }
    // Pixel tiles of 16 x 8 or 8 x 16 where rows just past a power of two pad much (conv-pixel-tiles):
    // on an H100 (2026-12-06g) level 1's 65 0.91 -> 1.07x eager, 69 0.89 -> 1.20x, 68 2.33 -> 3.49x,
    // level 2's 77 1.23 -> 1.43x, 11 0.90 -> 0.92x, 5 even. Set ahead of ping-pong,
    // which some of its tiles exclude (their registers).
    if (kind == ConvClass::kImplicitGemm && r.conv) set_where_valid(r, hw, p, &Params::pixel_fit, 1);
    // Flat tiles over a padded copy's rows (conv-pixel-tiles) where valid: on an H100 (2026-12-07f)
    // level 2's 11 (2-D) 0.92 -> 1.17x eager, 77 (3-D) 1.43 -> 1.97x, 61 1.46 -> 2.16x, level 1's
    // 58 4.08 -> 4.27x, 61 2.00 -> 2.57x, 68 3.48 -> 4.02x, against 16 x 8 tiles.
    if (kind == ConvClass::kImplicitGemm && r.conv) set_where_valid(r, hw, p, &Params::pixel_fit, 2);
    // Clusters of two along M sharing the weight tile by multicast (conv-clusters): on an H100 level
    // 1's 55 3.45 -> 3.39 ms, 67 2.19 -> 1.97, 87 5.54 -> 4.95; under pointwise ops level 2's 1
    // even, 4 2% slower. So only where the output is the convolution's own.
    bool const bare = r.conv && r.conv->epilogue && r.conv->epilogue->prim == Prim::kLeaf;
    if (kind == ConvClass::kImplicitGemm && writes_output && bare) {
      set_where_valid(r, hw, p, &Params::cluster_m, 2);
      // Ping-pong over the input's copy (conv-pingpong): on an H100 level 1's 2-D and 3-D convolutions
      // up to 13% faster (73; 57, 62, 69, 71, 78, 80 3-5%), none more than 0.5% slower; the 1-D 74 9%
      // and 76 1% slower; over pixel-major boxes 63 8% slower, 87 even.
      if (!p.input_boxes && !p.gather_input && r.conv->dims > 1) set_where_valid(r, hw, p, &Params::pingpong, 1);
    }
    // One box a kernel row shared by its taps (conv-row-taps): on an H200 (2026-12-07) level 1's 55, 62
    // and 80 1.16-1.64x faster, level 2's 25 and 54 (64-wide N tiles) 1.44x and 1.09x, 32 (a min over
    // the channels fused) 1.13x; under chains storing a 128-channel output whole (1, 4, 31, 52, 17)
    // from 3.5% slower to 2% faster: its three stages, against six, leave those stores less cover.
    if (kind == ConvClass::kImplicitGemm && r.conv) {
      bool reduced = false;
      if (p.fuse_stage && r.chain) {
        auto fused = fused_first_stage(*r.chain);
        reduced = fused.ok() && fused->over != FusedStage::Over::kStats;
      }
      if (!r.conv->transposed && ((writes_output && bare) || reduced || conv_tiles(*r.conv).tile_n <= 64))
        set_where_valid(r, hw, p, &Params::row_box, 1);  // transposed ones (W stride 1): not yet measured
    }
    // Direct 3-D convolutions: two columns a thread where they fit (measured on level 1's 54 and level
    // 2's 23, 24, 2-4% faster; a 2-D one, level 1's 59, 4% slower).
    if (kind == ConvClass::kDirect && r.conv && r.conv->dims == 3 && conv_direct_unsupported(*r.conv, 2).empty())
      p.direct_cols = 2;
    // A 3xTF32 convolution split in its copies: in two parts, crossed, where the kernel takes them (on
    // an H100, 2026-12-06d: level 1's 50 0.65 -> 0.84x eager, 60 1.65 -> 2.25x).
    if (kind == ConvClass::kImplicitGemm && r.conv && conv_runs_3xtf32(*r.conv, p))
      set_where_valid(r, hw, p, &Params::split_parts, 2);
    return with(kind == ConvClass::kDepthwise ? Strategy::kConvDepthwise
                : kind == ConvClass::kDirect  ? Strategy::kConvDirect
                                              : Strategy::kConvImplicitGemm,
                p);
  }
  if (r.kind == TemplateKind::kElementwise) {
    // One 128-bit access per operand per thread and one block per tile (elementwise-tiles).
    int widest = elem_bytes(r.out_type);
    for (auto& o : r.operands)
      widest = std::max(widest, elem_bytes(o.c_type));
    p.vec = std::max(4, 16 / widest);
    // Two vectors per thread where erf's long instruction sequence runs per element (elementwise-tiles).
    p.unroll = r.expr && contains(r.expr, Prim::kErf) ? 2 : 1;
    return p;
  }
  if (r.rows.inner > 1) {
    if (r.kind == TemplateKind::kRowNorm) return with(Strategy::kNormColumns, p);
    p = with(Strategy::kReduceColumns, p);
    p.split = 4;
    // An argmax/argmin partial carries its index too: one per thread (reduce-columns-split).
    if (r.reduce == ReduceOp::kArgMax || r.reduce == ReduceOp::kArgMin) p.unroll = 1;
    if (invalid_reason(r, p, hw).empty()) return p;
    p.unroll = 1;
    return p;
  }
  p.strategy = r.kind == TemplateKind::kReduce ? Strategy::kReduceRows : Strategy::kNormStreamed;
  for (int v : {8, 4, 2, 1}) {
    p.vec = v;
    if (invalid_reason(r, p, hw).empty()) break;
  }
  if (r.kind == TemplateKind::kReduce) {
    // Rows of up to 16 KB get a warp each (reduce-rows-warp).
    if (r.rows.extent * elem_bytes(r.in_type) <= (16 << 10)) p.threads = 32, p.unroll = 8;
    // A tile no longer than the row, so that most loads are batched.
    while (int64_t(p.threads) * p.vec * p.unroll > r.rows.extent && p.unroll > 1)
      p.unroll /= 2;
    while (int64_t(p.threads) * p.vec > r.rows.extent && p.threads > 32)
      p.threads /= 2;
    return p;
  }
  return row_norm_default(r, p, hw);
}

std::vector<Params> strategy_seeds(const Recipe& r, const ArchLimits& hw) {
  std::vector<Params> seeds;
  const Params first = default_params(r, hw);
  if (first.strategy == Strategy::kGemmWarpSpecialized) {
    // Ping-pong on a tile one warpgroup holds; the pipelined kernel on the default's tile.
    Params pingpong = with(Strategy::kGemmPingpong, first);
    pingpong.tile_m = r.gemm->math == GemmMath::k3xTF32 ? 64 : 128, pingpong.tile_n = std::min(first.tile_n, 128);
    Params pipelined = with(Strategy::kGemmPipelined, first);
    for (const Params& q : {deepest_pipeline(r, pingpong, hw), deepest_pipeline(r, pipelined, hw)})
      if (invalid_reason(r, q, hw).empty()) seeds.push_back(q);
    return seeds;
  }
  if (r.kind != TemplateKind::kRowNorm || r.rows.inner != 1) return seeds;
  auto add = [&](const Params& q) {
    bool ok =
        invalid_reason(r, q, hw).empty() && !(q == first) && std::find(seeds.begin(), seeds.end(), q) == seeds.end();
    if (ok) seeds.push_back(q);
    return ok;
  };
  Params base = first;
  base.vec = 16 / elem_bytes(r.in_type);
  for (int c : {1, 2, 4, 8, 16}) {  // the smallest cluster that holds a row, then its persistent form
    Params q = with(Strategy::kNormCluster, base);
    q.group = c, q.threads = c > 8 ? 256 : 512;
    if (!add(q)) continue;
    q.blocks_per_sm = 2;
    add(q);
    break;
  }
  for (int group = 2; group <= 1024; group *= 2) {  // the fewest CTAs of a cooperative grid that hold one
    Params q = with(Strategy::kNormHeldGrid, base);
    q.group = group, q.blocks_per_sm = 2;
    if (add(q)) break;
  }
  add(grid_registers_point(r, base, hw));
  Params streamed = with(Strategy::kNormStreamed, base);
  for (int v : {8, 4, 2, 1}) {  // whole rows, the widest vectors that divide them
    streamed.vec = v;
    if (add(streamed)) break;
  }
  for (Strategy chunks : {Strategy::kNormSplitTicket, Strategy::kNormSplit})
    add(in_chunks(r, streamed, 64 << 10, chunks, hw));
  Params regs = with(Strategy::kNormRegisters, first);
  for (int t : {32, 64, 128, 256, 512, 1024}) {  // the fewest threads whose registers hold a row
    regs.threads = t;
    if (add(regs)) break;
  }
  return seeds;
}

std::vector<Params> search_space(const Recipe& r, const ArchLimits& hw) {
  const Params first = default_params(r, hw);
  std::vector<Params> points;
  if (invalid_reason(r, first, hw).empty()) points.push_back(first);
  for (auto& s : strategy_table()) {
    if (!s.serves(r)) continue;
    // Cartesian product over the strategy's parameters, in table order.
    std::vector<Params> all = {with(s.strategy, Params{})};
    for (auto& d : param_defs()) {
      if (!reads(s, d.name)) continue;
      std::vector<Params> next;
      for (auto& base : all)
        for (int v : d.values) {
          Params q = base;
          q.*d.field = v;
          next.push_back(q);
        }
      all = std::move(next);
    }
    for (auto& q : all)
      if (!(q == first) && invalid_reason(r, q, hw).empty()) points.push_back(q);
  }
  return points;
}

}  // namespace cutegen
