#include "expert/params.h"

#include <algorithm>
#include <charconv>

#include "core/strings.h"

namespace cutegen {
namespace {

int elem_bytes(const std::string& c_type) { return c_type == "float" ? 4 : c_type == "int64_t" ? 8 : 2; }

// Which parameters a template reads; the others stay at their defaults so points do not alias.
std::vector<std::string> used_params(const Recipe& r) {
  switch (r.kind) {
    case TemplateKind::kElementwise: return {"threads", "vec", "unroll", "blocks_per_sm"};
    case TemplateKind::kReduce: return r.rows.inner == 1 ? std::vector<std::string>{"threads", "vec", "unroll"}
                                                         : std::vector<std::string>{"threads", "unroll", "split"};
    case TemplateKind::kRowNorm:
      return r.rows.inner == 1 ? std::vector<std::string>{"threads", "vec", "unroll", "blocks_per_sm", "split", "passes", "cluster", "regs"}
                               : std::vector<std::string>{"threads"};
  }
  return {};
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

bool rows_in_registers(const Recipe& r, const Params& p) {
  return r.kind == TemplateKind::kRowNorm && r.rows.inner == 1 && p.split == 1 && p.cluster == 0 && p.unroll == 1 &&
         r.rows.extent <= std::min<int64_t>(kMaxRowElementsPerThread * p.threads, kMaxRegisterRowElements);
}

bool rows_held(const Params& p) { return p.cluster > 0 || (p.split > 1 && p.passes == 1 && p.blocks_per_sm > 0); }

bool rows_in_grid_registers(const Params& p) { return p.regs == 1; }

int64_t held_chunk_bytes(const Recipe& r, const Params& p) {
  int64_t tile = int64_t(p.threads) * p.vec * p.unroll;
  int64_t group = p.cluster > 0 ? p.cluster : p.split;
  int64_t chunk = ceil_div(ceil_div(r.rows.extent, std::max<int64_t>(group, 1)), tile) * tile;
  return (chunk + p.vec) * elem_bytes(r.in_type);
}

const std::vector<ParamDef>& param_defs() {
  static const std::vector<ParamDef> defs = {
      {"threads", &Params::threads, {32, 64, 128, 256, 512, 1024}},
      {"vec", &Params::vec, {1, 2, 4, 8}},
      {"unroll", &Params::unroll, {1, 2, 4, 8}},
      {"blocks_per_sm", &Params::blocks_per_sm, {0, 2, 4, 8, 16}},
      {"split", &Params::split, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}},
      {"passes", &Params::passes, {1, 2}},
      {"cluster", &Params::cluster, {0, 1, 2, 4, 8, 16}},
      {"regs", &Params::regs, {0, 1}},
  };
  return defs;
}

std::string to_string(const Params& p) {
  std::vector<std::string> parts;
  for (auto& d : param_defs()) parts.push_back(std::string(d.name) + "=" + std::to_string(p.*d.field));
  return join(parts, ",");
}

Result<Params> parse_params(const std::string& text, Params base) {
  for (auto& item : split(text, ',')) {
    if (trim(item).empty()) continue;
    auto kv = split(item, '=');
    if (kv.size() != 2) return error("params: `" + item + "` is not name=value");
    const ParamDef* def = nullptr;
    for (auto& d : param_defs())
      if (trim(kv[0]) == d.name) def = &d;
    if (!def) return error("params: unknown parameter `" + trim(kv[0]) + "`");
    std::string v = trim(kv[1]);
    int value = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    if (ec != std::errc() || ptr != v.data() + v.size()) return error("params: `" + v + "` is not an integer");
    base.*(def->field) = value;
  }
  return base;
}

std::string invalid_reason(const Recipe& r, const Params& p) {
  for (auto& d : param_defs())
    if (std::find(d.values.begin(), d.values.end(), p.*d.field) == d.values.end())
      return std::string(d.name) + "=" + std::to_string(p.*d.field) + " is not a candidate value";
  auto used = used_params(r);
  Params defaults;
  for (auto& d : param_defs())
    if (std::find(used.begin(), used.end(), d.name) == used.end() && p.*d.field != defaults.*d.field)
      return std::string(d.name) + " does not apply to this template";
  int bytes = elem_bytes(r.kind == TemplateKind::kElementwise ? r.out_type : r.in_type);
  if (r.kind == TemplateKind::kElementwise) {
    for (auto& o : r.operands) bytes = std::min(bytes, elem_bytes(o.c_type));
    int widest = 4;
    for (auto& o : r.operands) widest = std::max(widest, elem_bytes(o.c_type));
    if (p.vec < 4 || p.vec * std::max(widest, elem_bytes(r.out_type)) > 32) return "vec must be 4 or 8 and at most 32 bytes";
    if (p.threads > 1024 || p.threads < 128) return "threads must be 128..1024";
    return "";
  }
  if (p.vec * bytes > 16) return "vec=" + std::to_string(p.vec) + " exceeds 128 bits";
  // (The held-rows kernel peels a scalar head and tail off each row, so its rows need not divide.)
  if (r.rows.inner == 1 && r.rows.extent % p.vec != 0 && !(r.kind == TemplateKind::kRowNorm && rows_held(p)))
    return "the row length is not a multiple of vec";
  int min_threads = r.rows.inner == 1 ? 32 : 64;  // a warp may own a row
  if (p.threads < min_threads || p.threads > 1024) return "threads must be " + std::to_string(min_threads) + "..1024";
  if (rows_in_registers(r, p) && r.rows.outer >= (int64_t(1) << 31)) return "more rows than a grid has blocks";
  if (r.kind == TemplateKind::kReduce && r.rows.inner > 1 && p.threads / p.split < 32)
    return "fewer than 32 columns per block";
  if (r.kind == TemplateKind::kReduce && r.rows.inner > 1 && p.unroll > 1 && r.rows.extent < int64_t(p.split) * p.unroll)
    return "unroll exceeds each thread's share of the column";
  if (r.kind == TemplateKind::kRowNorm && rows_in_grid_registers(p)) {
    if (p.split == 1 || p.passes != 1 || p.blocks_per_sm != 0 || p.cluster != 0)
      return "a row held in a grid's registers (regs=1) takes split > 1, passes=1, blocks_per_sm=0, cluster=0";
    if (p.split > kMaxGridSplit) return "regs=1 holds a row in at most " + std::to_string(kMaxGridSplit) + " CTAs, one per SM";
    if (p.threads < 128) return "regs=1 takes blocks of 128 threads or more";
    if (p.vec * elem_bytes(r.in_type) != 16) return "regs=1 moves 16-byte vectors: vec must fill 16 bytes";
    const int64_t share = int64_t(p.threads) * p.vec * p.unroll;
    if (p.vec * p.unroll > kMaxGridElementsPerThread)
      return "regs=1 holds at most " + std::to_string(kMaxGridElementsPerThread) + " elements per thread";
    if (share * p.split < r.rows.extent) return "regs=1: split CTAs of threads x vec x unroll elements do not hold a row";
    return "";
  }
  if (r.kind == TemplateKind::kRowNorm && r.rows.inner == 1 && p.split > 1 &&
      r.rows.extent / p.split < int64_t(p.threads) * p.vec * p.unroll)
    return "split leaves chunks smaller than one tile";
  if (r.kind == TemplateKind::kRowNorm && p.passes == 1 && (p.split == 1 || p.cluster > 0))
    return "one launch (passes=1) applies to split rows only";
  if (r.kind == TemplateKind::kRowNorm && r.rows.inner == 1 && r.rows.outer * p.split * 2 >= (int64_t(1) << 31))
    return "rows x split exceeds the grid";
  if (r.kind == TemplateKind::kRowNorm && p.blocks_per_sm != 0 && !rows_held(p))
    return "blocks_per_sm applies to rows held in shared memory only (a cluster, or split rows with passes=1)";
  if (r.kind == TemplateKind::kRowNorm && rows_held(p)) {
    if (p.cluster > 0 && p.split > 1) return "a cluster holds whole rows: split must be 1";
    if (p.split > 1024) return "a held row's CTAs must all be resident at once: split at most 1024";
    if (p.vec * elem_bytes(r.in_type) != 16) return "held rows' bulk copies move 16-byte vectors: vec must fill 16 bytes";
    if (held_chunk_bytes(r, p) / elem_bytes(r.in_type) / (int64_t(p.threads) * p.vec * p.unroll) > 64)
      return "a held chunk spans more than 64 tiles";
    if (r.rows.outer * p.cluster >= (int64_t(1) << 31)) return "rows x cluster exceeds the grid";
    if (held_chunk_bytes(r, p) > kMaxHeldChunkBytes)
      return "a row's share per CTA exceeds " + std::to_string(kMaxHeldChunkBytes / 1024) + " KB of shared memory";
  }
  return "";
}

namespace {

// `p` with its rows cut into chunks of at most `max_bytes` over `passes` launches: split doubled
// while the chunks are larger and the point stays valid.
Params in_chunks(const Recipe& r, Params p, int64_t max_bytes, int passes) {
  for (Params q = p; r.rows.extent * elem_bytes(r.in_type) / p.split > max_bytes; p = q) {
    q.split = p.split * 2, q.passes = passes;
    if (!invalid_reason(r, q).empty()) break;
  }
  return p;
}

// `p` with each row held in the registers of the fewest CTAs of a cooperative grid, 1024 threads of
// kMaxGridElementsPerThread elements each (possibly invalid: rows too long); a strategy seed.
Params grid_registers_point(const Recipe& r, Params p) {
  p.regs = 1, p.passes = 1, p.blocks_per_sm = 0, p.cluster = 0, p.threads = 1024;
  p.vec = 16 / elem_bytes(r.in_type), p.unroll = kMaxGridElementsPerThread / p.vec;
  p.split = 2;
  while (int64_t(p.split) * p.threads * kMaxGridElementsPerThread < r.rows.extent && p.split < kMaxGridSplit) p.split *= 2;
  return p;
}

// The default point of a row norm over the last dim, `p` holding the widest valid vector: the
// strategy by the rows' length and count, as measured on the H200.
Params row_norm_default(const Recipe& r, Params p) {
  // Rows a warp can hold (up to 2048 elements) are held in registers: a warp each when rows are
  // many, more warps each while fewer than about 4096 warps would run (then a warp's serial work
  // sets the time). On the H200, LayerNorm over 65536 rows of 768 took 0.102 ms so, 1.38 ms in a
  // 1-CTA cluster.
  Params regs = p;
  regs.threads = 32, regs.unroll = 1;
  while (regs.threads < 256 && r.rows.outer * regs.threads / 32 < 4096 && 2 * regs.threads * regs.vec <= r.rows.extent)
    regs.threads *= 2;
  if (r.rows.extent <= 32 * kMaxRowElementsPerThread && invalid_reason(r, regs).empty()) return regs;
  // Longer rows of up to 8192 elements take a block each, at most 16 elements per thread. On the
  // H200, LayerNorm over 32768 rows of 8192 took 0.512 ms so (torch.compile 0.505), 0.529 with 32 per
  // thread, 0.537 with 8, and 1.15 in a 1-CTA cluster.
  regs.threads = 64;
  while (int64_t(regs.threads) * 16 < r.rows.extent) regs.threads *= 2;
  if (r.rows.extent <= 512 * 16 && invalid_reason(r, regs).empty()) return regs;
  // A row that fits in one CTA's shared memory (up to 100 KB, two or more CTAs per SM) is held there,
  // read from DRAM once. On the H200, softmax over 16384 rows of 64 KB took 0.553 ms so.
  auto cluster_holds = [&](const Params& q) { return invalid_reason(r, q).empty() && held_chunk_bytes(r, q) <= 100 * 1024; };
  const int vec16 = 16 / elem_bytes(r.in_type);  // held rows copy 16-byte vectors, whatever the rows' alignment
  Params one_cta = p;
  one_cta.cluster = 1, one_cta.threads = 512, one_cta.vec = vec16;
  if (cluster_holds(one_cta)) return one_cta;
  // Many longer rows are held by groups of CTAs of a persistent cooperative grid: the fewest CTAs per
  // row whose chunks (at most 64 KB) fit three or four to an SM. On the H200, for rows of 256 KB
  // (KernelBench's L1 norm, 32768 x 65535) that took 4.72 ms in 4 CTAs of 256 threads, 5.09 with 512
  // threads, 5.29 in 4-CTA clusters (9.3 torch.compile); L2 norm over 4096 rows of 65536, 0.569 ms
  // against 0.575 in clusters. Softmax over 4096 rows of 1.5 MB, 4.27 ms in 48 KB chunks, 4.65 ms in
  // 96 KB ones, 4.60 ms in 32 chunks read twice in one ticket-ordered launch (the second read missed
  // L2), 4.67 ms in persistent 16-CTA clusters; log-softmax over 1024 rows of 1 MB, 0.753 ms in 64 KB
  // chunks, 0.835 ms in 32 KB ones, 0.781 ms in chunks read twice.
  if (r.rows.outer >= 512) {
    Params held = p;
    held.split = 2, held.passes = 1, held.blocks_per_sm = 4, held.unroll = 2, held.vec = vec16;
    while (r.rows.extent * elem_bytes(r.in_type) / held.split > (64 << 10) && held.split < 1024) held.split *= 2;
    return invalid_reason(r, held).empty() ? held : in_chunks(r, p, 64 << 10, 1);
  }
  // Fewer rows are held in the smallest cluster of up to 8 CTAs whose shares fit in 100 KB each. Larger
  // shares, one CTA per SM, lost: softmax over rows of 1.5 MB in 8 CTAs of 192 KB, 4.74 ms against
  // 4.27 in a grid's groups.
  for (int c : {2, 4, 8}) {
    Params q = one_cta;
    q.cluster = c;
    if (cluster_holds(q)) return q;
  }
  // Rows that the whole grid (128 CTAs, one per SM, 32 elements per thread) holds exactly are read
  // from DRAM once, in its registers, the weight and bias in shared memory: on the H200, LayerNorm #40
  // (16 rows of 4194304) took 0.1986-0.2006 ms so, 0.2191 in two launches. Rows that leave CTAs idle
  // stay below: 8 rows of 3145732 took 0.1645-0.1687 ms held so, 0.0990 in two launches.
  const Params grid = grid_registers_point(r, p);
  const int64_t grid_holds = int64_t(grid.split) * grid.threads * grid.vec * grid.unroll;
  if (grid.split == kMaxGridSplit && grid_holds == r.rows.extent && invalid_reason(r, grid).empty()) return grid;
  // Otherwise rows stream twice. Few rows are split over enough blocks to fill the GPU (about 512)
  // in chunks of at most 2 MB, in two launches: on the H200, 16 rows of 16 MB in 32 chunks took
  // 0.234-0.255 ms, and in 512 chunks of 32 KB in one ticket-ordered launch (meant to re-read them
  // from L2) 0.334 ms, the per-chunk overhead outweighing the saved DRAM reads. Held one row at a
  // time by a cooperative grid, they took 0.42-0.57 ms: each row re-read LayerNorm's weight and bias.
  for (Params q = p; r.rows.outer * p.split < 512 || r.rows.extent * elem_bytes(r.in_type) / p.split > (2 << 20); p = q) {
    q.split = p.split * 2;
    if (!invalid_reason(r, q).empty()) break;
  }
  return p;
}

}  // namespace

Params default_params(const Recipe& r) {
  Params p;
  if (r.kind == TemplateKind::kElementwise) {
    // One 128-bit access per operand per thread and one block per tile: eager's own launch shape
    // family, which measured at the copy roofline on the H200 where persistent grids lost 6-10%.
    int widest = elem_bytes(r.out_type);
    for (auto& o : r.operands) widest = std::max(widest, elem_bytes(o.c_type));
    p.vec = std::max(4, 16 / widest);
    // Two vectors per thread where erf's long instruction sequence runs per element: on the H200,
    // GELU 3.125 ms with one against 3.036 with two (torch.compile 3.028); for tanh and NewGELU two
    // lost (3.115 against 3.008, 0.1359 against 0.1321).
    p.unroll = r.expr && contains(r.expr, Prim::kErf) ? 2 : 1;
    return p;
  }
  if (r.rows.inner > 1) {
    if (r.kind == TemplateKind::kReduce) p.split = 4;
    // An argmax/argmin partial carries its index too; on the H200 one partial per thread beat four
    // (argmin over [128, 4096, 4095]: 2.21 ms against 2.39).
    if (r.reduce == ReduceOp::kArgMax || r.reduce == ReduceOp::kArgMin) p.unroll = 1;
    if (invalid_reason(r, p).empty()) return p;
    p.unroll = 1;
    return p;
  }
  for (int v : {8, 4, 2, 1}) {
    p.vec = v;
    if (invalid_reason(r, p).empty()) break;
  }
  if (r.kind == TemplateKind::kReduce) {
    // Rows of up to 16 KB get a warp each: no block barrier, and 8 vectors per lane in flight. On the
    // H200, argmax over 131072 rows of 8 KB took 0.62 ms with a 256-thread block per row.
    if (r.rows.extent * elem_bytes(r.in_type) <= (16 << 10)) p.threads = 32, p.unroll = 8;
    // A tile no longer than the row, so that most loads are batched.
    while (int64_t(p.threads) * p.vec * p.unroll > r.rows.extent && p.unroll > 1) p.unroll /= 2;
    while (int64_t(p.threads) * p.vec > r.rows.extent && p.threads > 32) p.threads /= 2;
    return p;
  }
  return row_norm_default(r, p);
}

std::vector<Params> strategy_seeds(const Recipe& r) {
  std::vector<Params> seeds;
  if (r.kind != TemplateKind::kRowNorm || r.rows.inner != 1) return seeds;
  auto add = [&](const Params& q) {
    bool ok = invalid_reason(r, q).empty() && std::find(seeds.begin(), seeds.end(), q) == seeds.end();
    if (ok) seeds.push_back(q);
    return ok;
  };
  Params held = default_params(r);
  held.cluster = 0, held.split = 1, held.passes = 2, held.blocks_per_sm = 0, held.regs = 0, held.vec = 16 / elem_bytes(r.in_type);
  for (int c : {1, 2, 4, 8, 16}) {  // the smallest cluster that holds a row, then its persistent form
    Params q = held;
    q.cluster = c, q.threads = c > 8 ? 256 : 512;
    if (!add(q)) continue;
    q.blocks_per_sm = 2;
    add(q);
    break;
  }
  for (int split = 2; split <= 1024; split *= 2) {  // the fewest CTAs of a cooperative grid that hold one
    Params q = held;
    q.split = split, q.passes = 1, q.blocks_per_sm = 2;
    if (add(q)) break;
  }
  add(grid_registers_point(r, held));
  Params streamed = held;
  for (int v : {8, 4, 2, 1}) {  // whole rows, the widest vectors that divide them
    streamed.vec = v;
    if (add(streamed)) break;
  }
  for (int passes : {1, 2}) add(in_chunks(r, streamed, 64 << 10, passes));  // chunks of at most 64 KB
  return seeds;
}

std::vector<Params> search_space(const Recipe& r) {
  std::vector<Params> points = {default_params(r)};
  auto used = used_params(r);
  // Cartesian product over the used parameters, in table order.
  std::vector<Params> all = {Params{}};
  for (auto& d : param_defs()) {
    if (std::find(used.begin(), used.end(), d.name) == used.end()) continue;
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
    if (invalid_reason(r, q).empty() && !(q == points[0])) points.push_back(q);
  if (!invalid_reason(r, points[0]).empty()) points.erase(points.begin());
  return points;
}

}  // namespace cutegen
