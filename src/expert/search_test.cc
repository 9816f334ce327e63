// The search against an evaluator double: a deterministic table of fake timings over the real
// elementwise space, with failures and profile verdicts.
#include "expert/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace cutegen {
namespace {

Recipe float_elementwise() {
  Recipe r{.kind = TemplateKind::kElementwise, .out_type = "float", .out_numel = 1 << 20};
  r.operands.push_back({"x", "float", {1}, true});
  return r;
}

// A smooth bowl with its optimum at threads=256, vec=8, unroll=4, blocks_per_sm=8; unroll=8 with
// 1024 threads "fails to build" (as a register-hungry point might).
double fake_ms(const Params& p) {
  auto d = [](int v, int best) { return std::fabs(std::log2(double(v)) - std::log2(double(best))); };
  return 1.0 + d(p.threads, 256) + d(p.vec, 8) + d(p.unroll, 4) + (p.blocks_per_sm == 0 ? 2.5 : d(p.blocks_per_sm, 8));
}

std::vector<Trial> evaluate(const std::vector<Params>& batch, int* calls) {
  ++*calls;
  std::vector<Trial> out;
  for (auto& p : batch) {
    bool fails = p.unroll == 8 && p.threads == 1024;
    double ms = fake_ms(p);
    out.push_back({p, !fails, fails ? 0 : ms, ms > 3 ? BoundVerdict{Bound::kLatency, 20} : BoundVerdict{Bound::kMemory, 100 / ms}});
  }
  return out;
}

TEST(Search, FindsTheOptimumOfTheTableDeterministically) {
  auto space = search_space(float_elementwise());
  ASSERT_FALSE(space.empty());
  int calls = 0;
  auto history = run_search(space, [&](auto& b) { return evaluate(b, &calls); }, 12, 4);
  auto best = best_trial(history);
  ASSERT_TRUE(best);
  EXPECT_EQ(to_string(best->params), "threads=256,vec=8,unroll=4,blocks_per_sm=8,split=1,passes=2,cluster=0,regs=0");
  EXPECT_LT(history.size(), space.size());  // far fewer evaluations than the whole space
  int calls2 = 0;
  auto again = run_search(space, [&](auto& b) { return evaluate(b, &calls2); }, 12, 4);
  ASSERT_EQ(again.size(), history.size());
  for (size_t i = 0; i < history.size(); ++i) EXPECT_EQ(again[i].params, history[i].params);
}

TEST(Search, NeverProposesATriedPointAndStartsFromTheSpace) {
  auto space = search_space(float_elementwise());
  auto first = next_candidates({}, space, 3);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0], space[0]);  // the heuristic favourite
  std::vector<Trial> history = {{space[0], true, 2.0, {}}, {space[1], false, 0, {}}};
  for (auto& p : next_candidates(history, space, 50)) {
    EXPECT_FALSE(p == space[0]);
    EXPECT_FALSE(p == space[1]);
    int changed = 0;  // neighbours differ from the best in exactly one parameter
    for (auto& d : param_defs()) changed += p.*d.field != space[0].*d.field;
    EXPECT_EQ(changed, 1) << to_string(p);
  }
}

TEST(Search, AStarvedVerdictTriesMoreBytesInFlightFirst) {
  auto space = search_space(float_elementwise());
  Params best{.threads = 256, .vec = 4, .unroll = 2, .blocks_per_sm = 4};
  auto memory_low = next_candidates({{best, true, 1.0, BoundVerdict{Bound::kMemory, 55}}}, space, 1);
  ASSERT_EQ(memory_low.size(), 1u);
  EXPECT_EQ(memory_low[0].vec, 8);  // in-flight parameters first (vec leads them in table order), upwards
  auto plain = next_candidates({{best, true, 1.0, {}}}, space, 1);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].threads, 128);  // no verdict: table order, smaller step first
  auto memory_busy = next_candidates({{best, true, 1.0, BoundVerdict{Bound::kMemory, 80}}}, space, 1);
  ASSERT_EQ(memory_busy.size(), 1u);
  EXPECT_EQ(memory_busy[0].threads, 512);  // at 80% of peak not starved: table order, upwards
  auto latency = next_candidates({{best, true, 1.0, BoundVerdict{Bound::kLatency, 30}}}, space, 1);
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].vec, 8);  // latency-bound is starved whatever its percent
}

// LayerNorm's 16 rows of 4M floats: too long for a cluster, so its strategies are a cooperative
// grid holding a row, whole rows streamed, and chunks over one launch or two.
Recipe long_rows() {
  return Recipe{.kind = TemplateKind::kRowNorm, .out_type = "float", .in_name = "x", .in_type = "float",
                .rows = {16, 4194304, 1}, .norm = NormKind::kLayerNorm};
}

TEST(Search, StrategySeedsAreValidAndOneMoveAway) {
  auto seeds = strategy_seeds(long_rows());
  ASSERT_EQ(seeds.size(), 5u);
  for (auto& p : seeds) EXPECT_EQ(invalid_reason(long_rows(), p), "") << to_string(p);
  EXPECT_TRUE(rows_held(seeds[0]) && seeds[0].cluster == 0) << to_string(seeds[0]);  // the cooperative grid
  EXPECT_TRUE(rows_in_grid_registers(seeds[1])) << to_string(seeds[1]);               // its registers
  EXPECT_EQ(seeds[2].split, 1);                                                        // streamed whole
  EXPECT_EQ(seeds[3].passes, 1);                                                       // chunks, one launch
  EXPECT_EQ(seeds[4].passes, 2);                                                       // chunks, two launches
  EXPECT_TRUE(strategy_seeds(float_elementwise()).empty());                            // one strategy only

  // Once every neighbour of the best is tried, the untried seeds follow, in order.
  auto space = search_space(long_rows());
  std::vector<Trial> history = {{space[0], true, 1.0, {}}};
  for (auto& p : next_candidates(history, space, 1000)) history.push_back({p, true, 2.0, {}});
  auto next = next_candidates(history, space, 1000, seeds);
  std::vector<Params> untried;
  for (auto& p : seeds)
    if (std::none_of(history.begin(), history.end(), [&](const Trial& t) { return t.params == p; })) untried.push_back(p);
  ASSERT_FALSE(untried.empty());
  EXPECT_EQ(next, untried);
}

TEST(Search, ShortRowReductionsStartFromATileWithinTheRow) {
  // A tile longer than the row left every load to the scalar tail.
  for (int64_t extent : {2048, 1000, 96}) {
    Recipe r{.kind = TemplateKind::kReduce, .out_type = "int64_t", .in_name = "x", .in_type = "float",
             .rows = {4096, extent, 1}, .reduce = ReduceOp::kArgMax};
    Params p = default_params(r);
    EXPECT_EQ(invalid_reason(r, p), "") << to_string(p);
    EXPECT_LE(int64_t(p.threads) * p.vec * p.unroll, std::max<int64_t>(extent, 32 * p.vec)) << extent << ": " << to_string(p);
    EXPECT_EQ(p.vec, 4) << extent;
    EXPECT_EQ(p.threads, 32) << extent;  // a warp per short row
  }
}

TEST(Search, ShortRowNormsAreHeldInRegisters) {
  Recipe r{.kind = TemplateKind::kRowNorm, .out_type = "float", .in_name = "x", .in_type = "float",
           .rows = {37, 1001, 1}, .norm = NormKind::kSoftmax};
  Params p = default_params(r);
  EXPECT_TRUE(rows_in_registers(r, p)) << to_string(p);
  EXPECT_EQ(p.vec, 1);        // 1001 is not a multiple of 4
  EXPECT_EQ(p.threads, 256);  // few rows: more warps each
  Params split = p;
  split.split = 2;
  EXPECT_FALSE(rows_in_registers(r, split));
  r.rows.outer = 65536;  // many rows: a warp each
  EXPECT_EQ(default_params(r).threads, 32) << to_string(default_params(r));
  EXPECT_TRUE(rows_in_registers(r, default_params(r)));
  r.rows.extent = 4096;  // 128 registers per lane: too many for a warp
  EXPECT_FALSE(rows_in_registers(r, Params{.threads = 32, .vec = 4, .unroll = 1}));
  EXPECT_TRUE(rows_in_registers(r, Params{.threads = 64, .vec = 4, .unroll = 1}));
  for (int64_t extent : {4096, 8192}) {  // up to 8192, a block each, 16 elements per thread
    r.rows.extent = extent;
    Params q = default_params(r);
    EXPECT_TRUE(rows_in_registers(r, q)) << to_string(q);
    EXPECT_EQ(int64_t(q.threads) * 16, extent) << to_string(q);
  }
  r.rows.extent = 16384;  // longer rows leave registers
  EXPECT_FALSE(rows_in_registers(r, default_params(r))) << to_string(default_params(r));
  r.rows.extent = 65536;  // beyond half a register file, whatever the block
  EXPECT_FALSE(rows_in_registers(r, Params{.threads = 1024, .vec = 4, .unroll = 1}));
}

TEST(Search, ErfTakesTwoVectorsPerThreadByDefault) {
  Recipe r = float_elementwise();
  r.expr = call(Prim::kMul, {leaf(0), call(Prim::kErf, {leaf(0)})});
  EXPECT_EQ(default_params(r).unroll, 2);
  r.expr = call(Prim::kTanh, {leaf(0)});
  EXPECT_EQ(default_params(r).unroll, 1);
}

TEST(Search, HeldChunksFitInSharedMemory) {
  Params grid{.blocks_per_sm = 2, .split = 128, .passes = 1};  // 128 KB per CTA
  EXPECT_EQ(invalid_reason(long_rows(), grid), "") << to_string(grid);
  grid.split = 64;  // 256 KB per CTA
  EXPECT_EQ(invalid_reason(long_rows(), grid), "a row's share per CTA exceeds 200 KB of shared memory");
}

TEST(Search, RowsBeyondOneCtaAreHeldByAGridWhenManyAndByAClusterWhenFew) {
  // KernelBench's L1 norm: 32768 rows of 65535 floats (256 KB), odd so not a multiple of a vector.
  Recipe r{.kind = TemplateKind::kRowNorm, .out_type = "float", .in_name = "x", .in_type = "float",
           .rows = {32768, 65535, 1}, .norm = NormKind::kScale};
  Params many = default_params(r);
  EXPECT_EQ(to_string(many), "threads=256,vec=4,unroll=2,blocks_per_sm=4,split=4,passes=1,cluster=0,regs=0");
  EXPECT_TRUE(rows_held(many));
  r.rows.outer = 64;  // too few rows to fill a persistent grid's groups: a 4-CTA cluster of 64 KB each
  EXPECT_EQ(default_params(r).cluster, 4) << to_string(default_params(r));
  r.rows = {32768, 16384, 1};  // 64 KB rows fit one CTA's shared memory, however many
  EXPECT_EQ(default_params(r).cluster, 1) << to_string(default_params(r));
}

TEST(Search, GridRegistersHoldARowInOneCtaPerSm) {
  // LayerNorm #40's rows of 4M floats: 128 CTAs of 1024 threads x 8 vectors of 4.
  Params grid{.threads = 1024, .vec = 4, .unroll = 8, .split = 128, .passes = 1, .regs = 1};
  EXPECT_EQ(invalid_reason(long_rows(), grid), "") << to_string(grid);
  EXPECT_TRUE(rows_in_grid_registers(grid));
  EXPECT_FALSE(rows_held(grid));
  EXPECT_EQ(default_params(long_rows()), grid) << to_string(default_params(long_rows()));
  auto why = [&](auto edit) {
    Params q = grid;
    edit(q);
    return invalid_reason(long_rows(), q);
  };
  EXPECT_EQ(why([](Params& q) { q.unroll = 4; }), "regs=1: split CTAs of threads x vec x unroll elements do not hold a row");
  EXPECT_EQ(why([](Params& q) { q.split = 256, q.unroll = 4; }), "regs=1 holds a row in at most 128 CTAs, one per SM");
  EXPECT_EQ(why([](Params& q) { q.threads = 512, q.vec = 4, q.unroll = 16; }), "unroll=16 is not a candidate value");
  EXPECT_EQ(why([](Params& q) { q.vec = 2, q.unroll = 8, q.threads = 1024; }), "regs=1 moves 16-byte vectors: vec must fill 16 bytes");
  EXPECT_EQ(why([](Params& q) { q.passes = 2; }),
            "a row held in a grid's registers (regs=1) takes split > 1, passes=1, blocks_per_sm=0, cluster=0");
  EXPECT_EQ(why([](Params& q) { q.blocks_per_sm = 2; }),
            "a row held in a grid's registers (regs=1) takes split > 1, passes=1, blocks_per_sm=0, cluster=0");
  // Rows that no power of two of CTAs divides leave the last CTAs part of a share, or none.
  Recipe ragged = long_rows();
  ragged.rows.extent = 3145732;
  EXPECT_EQ(invalid_reason(ragged, grid), "") << to_string(grid);
  EXPECT_FALSE(rows_in_grid_registers(default_params(ragged))) << "measured slower than two launches";
  // Reductions have no such strategy.
  Recipe sum{.kind = TemplateKind::kReduce, .out_type = "float", .in_name = "x", .in_type = "float", .rows = {16, 4194304, 1}};
  EXPECT_EQ(invalid_reason(sum, Params{.threads = 1024, .vec = 4, .unroll = 8, .regs = 1}), "regs does not apply to this template");
}

TEST(Search, AllFailuresFallBackToUntriedSpacePoints) {
  auto space = search_space(float_elementwise());
  std::vector<Trial> history = {{space[0], false, 0, {}}};
  auto next = next_candidates(history, space, 2);
  ASSERT_EQ(next.size(), 2u);
  EXPECT_EQ(next[0], space[1]);
}

}  // namespace
}  // namespace cutegen
