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
    out.push_back({p, !fails, fails ? 0 : ms,
                   ms > 3 ? BoundVerdict{Bound::kLatency, 20} : BoundVerdict{Bound::kMemory, 100 / ms}});
  }
  return out;
}

// Hill-climbs as the expert proposer does: up to `rounds` batches of `per_round` proposals.
std::vector<Trial> climb(const std::vector<Params>& space, int* calls, int rounds, int per_round) {
  std::vector<Trial> history;
  for (int round = 0; round < rounds; ++round) {
    auto batch = next_candidates(history, space, per_round);
    if (batch.empty()) break;
    auto trials = evaluate(batch, calls);
    history.insert(history.end(), trials.begin(), trials.end());
  }
  return history;
}

TEST(Search, FindsTheOptimumOfTheTableDeterministically) {
  auto space = search_space(float_elementwise());
  ASSERT_FALSE(space.empty());
  int calls = 0;
  auto history = climb(space, &calls, 12, 4);
  auto best = best_trial(history);
  ASSERT_TRUE(best);
  EXPECT_EQ(to_string(best->params), "threads=256,vec=8,unroll=4,blocks_per_sm=8,split=1,group=1,strategy=elementwise");
  EXPECT_LT(history.size(), space.size());  // far fewer evaluations than the whole space
  int calls2 = 0;
  auto again = climb(space, &calls2, 12, 4);
  ASSERT_EQ(again.size(), history.size());
  for (size_t i = 0; i < history.size(); ++i)
    EXPECT_EQ(again[i].params, history[i].params);
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
    for (auto& d : param_defs())
      changed += p.*d.field != space[0].*d.field;
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

// LayerNorm's 16 rows of 4M floats: too long for a cluster or a block's registers, so its other
// strategies are a cooperative grid holding a row, whole rows streamed, and chunks over one launch or
// two (the default holds rows in the grid's registers).
Recipe long_rows() {
  return Recipe{.kind = TemplateKind::kRowNorm,
                .out_type = "float",
                .in_name = "x",
                .in_type = "float",
                .rows = {16, 4194304, 1},
                .norm = NormKind::kLayerNorm};
}

TEST(Search, StrategySeedsAreValidAndOneMoveAway) {
  auto seeds = strategy_seeds(long_rows());
  std::vector<Strategy> strategies;
  for (auto& p : seeds) {
    EXPECT_EQ(invalid_reason(long_rows(), p), "") << to_string(p);
    strategies.push_back(p.strategy);
  }
  EXPECT_EQ(strategies, (std::vector<Strategy>{Strategy::kNormHeldGrid, Strategy::kNormStreamed,
                                               Strategy::kNormSplitTicket, Strategy::kNormSplit}));
  EXPECT_EQ(default_params(long_rows()).strategy, Strategy::kNormGridRegisters);
  EXPECT_TRUE(strategy_seeds(float_elementwise()).empty());  // one strategy only

  // Once every neighbour of the best is tried, the untried seeds follow, in order.
  auto space = search_space(long_rows());
  std::vector<Trial> history = {{space[0], true, 1.0, {}}};
  for (auto& p : next_candidates(history, space, 1000))
    history.push_back({p, true, 2.0, {}});
  auto next = next_candidates(history, space, 1000, seeds);
  std::vector<Params> untried;
  for (auto& p : seeds)
    if (std::none_of(history.begin(), history.end(), [&](const Trial& t) { return t.params == p; }))
      untried.push_back(p);
  ASSERT_FALSE(untried.empty());
  EXPECT_EQ(next, untried);
}

TEST(Search, ShortRowReductionsStartFromATileWithinTheRow) {
  // A tile longer than the row left every load to the scalar tail.
  for (int64_t extent : {2048, 1000, 96}) {
    Recipe r{.kind = TemplateKind::kReduce,
             .out_type = "int64_t",
             .in_name = "x",
             .in_type = "float",
             .rows = {4096, extent, 1},
             .reduce = ReduceOp::kArgMax};
    Params p = default_params(r);
    EXPECT_EQ(invalid_reason(r, p), "") << to_string(p);
    EXPECT_LE(int64_t(p.threads) * p.vec * p.unroll, std::max<int64_t>(extent, 32 * p.vec))
        << extent << ": " << to_string(p);
    EXPECT_EQ(p.vec, 4) << extent;
    EXPECT_EQ(p.threads, 32) << extent;  // a warp per short row
    EXPECT_EQ(p.strategy, Strategy::kReduceRows);
  }
}

TEST(Search, ShortRowNormsAreHeldInRegisters) {
  Recipe r{.kind = TemplateKind::kRowNorm,
           .out_type = "float",
           .in_name = "x",
           .in_type = "float",
           .rows = {37, 1001, 1},
           .norm = NormKind::kSoftmax};
  Params p = default_params(r);
  EXPECT_EQ(p.strategy, Strategy::kNormRegisters) << to_string(p);
  EXPECT_EQ(p.vec, 1);        // 1001 is not a multiple of 4
  EXPECT_EQ(p.threads, 256);  // few rows: more warps each
  r.rows.outer = 65536;       // many rows: a warp each
  EXPECT_EQ(to_string(default_params(r)),
            "threads=32,vec=1,unroll=4,blocks_per_sm=0,split=1,group=1,strategy=norm_registers");
  r.rows.extent = 4096;  // 128 registers per lane: too many for a warp
  Params regs{.strategy = Strategy::kNormRegisters, .threads = 32, .vec = 4};
  EXPECT_EQ(invalid_reason(r, regs), "the row does not fit the registers of one block");
  regs.threads = 64;
  EXPECT_EQ(invalid_reason(r, regs), "");
  for (int64_t extent : {4096, 8192}) {  // up to 8192, a block each, 16 elements per thread
    r.rows.extent = extent;
    Params q = default_params(r);
    EXPECT_EQ(q.strategy, Strategy::kNormRegisters) << to_string(q);
    EXPECT_EQ(int64_t(q.threads) * 16, extent) << to_string(q);
  }
  r.rows.extent = 16384;  // longer rows leave registers
  EXPECT_NE(default_params(r).strategy, Strategy::kNormRegisters) << to_string(default_params(r));
  r.rows.extent = 65536;  // beyond half a register file, whatever the block
  regs.threads = 1024;
  EXPECT_EQ(invalid_reason(r, regs), "the row does not fit the registers of one block");
  // An SM of half the registers holds rows half as long.
  ArchLimits small;
  small.registers_per_sm = 32 << 10;
  r.rows.extent = 32768;
  EXPECT_EQ(invalid_reason(r, regs), "");
  EXPECT_EQ(invalid_reason(r, regs, small), "the row does not fit the registers of one block");
}

TEST(Search, ErfTakesTwoVectorsPerThreadByDefault) {
  Recipe r = float_elementwise();
  r.expr = call(Prim::kMul, {leaf(0), call(Prim::kErf, {leaf(0)})});
  EXPECT_EQ(default_params(r).unroll, 2);
  r.expr = call(Prim::kTanh, {leaf(0)});
  EXPECT_EQ(default_params(r).unroll, 1);
}

TEST(Search, HeldChunksFitInSharedMemory) {
  Params grid{.strategy = Strategy::kNormHeldGrid, .blocks_per_sm = 2, .group = 128};  // 128 KB per CTA
  EXPECT_EQ(invalid_reason(long_rows(), grid), "") << to_string(grid);
  ArchLimits small;  // a GPU whose CTAs take less shared memory
  small.smem_per_cta = 100 << 10;
  EXPECT_EQ(invalid_reason(long_rows(), grid, small), "a row's share per CTA exceeds 100 KB of shared memory");
  grid.group = 64;  // 256 KB per CTA
  EXPECT_EQ(invalid_reason(long_rows(), grid), "a row's share per CTA exceeds 200 KB of shared memory");
}

TEST(Search, RowsBeyondOneCtaAreHeldByAGridWhenManyAndByAClusterWhenFew) {
  // KernelBench's L1 norm: 32768 rows of 65535 floats (256 KB), odd so not a multiple of a vector.
  Recipe r{.kind = TemplateKind::kRowNorm,
           .out_type = "float",
           .in_name = "x",
           .in_type = "float",
           .rows = {32768, 65535, 1},
           .norm = NormKind::kScale};
  EXPECT_EQ(to_string(default_params(r)),
            "threads=256,vec=4,unroll=2,blocks_per_sm=4,split=1,group=4,strategy=norm_held_grid");
  r.rows.outer = 64;  // too few rows to fill a persistent grid's groups: a 4-CTA cluster of 64 KB each
  EXPECT_EQ(to_string(default_params(r)),
            "threads=512,vec=4,unroll=4,blocks_per_sm=0,split=1,group=4,strategy=norm_cluster");
  r.rows = {32768, 16384, 1};  // 64 KB rows fit one CTA's shared memory, however many
  EXPECT_EQ(to_string(default_params(r)),
            "threads=512,vec=4,unroll=4,blocks_per_sm=0,split=1,group=1,strategy=norm_cluster");
}

TEST(Search, GridRegistersHoldARowInOneCtaPerSm) {
  // LayerNorm #40's rows of 4M floats: 128 CTAs of 1024 threads x 8 vectors of 4.
  Params grid{.strategy = Strategy::kNormGridRegisters, .threads = 1024, .vec = 4, .unroll = 8, .group = 128};
  EXPECT_EQ(invalid_reason(long_rows(), grid), "") << to_string(grid);
  EXPECT_EQ(default_params(long_rows()), grid) << to_string(default_params(long_rows()));
  ArchLimits fewer;  // an H100 PCIe's 114 SMs hold 64 CTAs of a power-of-two group at once
  fewer.sm_count = 114;
  EXPECT_EQ(invalid_reason(long_rows(), grid, fewer), "a row is held in at most 64 CTAs, one per SM");
  EXPECT_NE(default_params(long_rows(), fewer).strategy, Strategy::kNormGridRegisters);
  auto why = [&](auto edit) {
    Params q = grid;
    edit(q);
    return invalid_reason(long_rows(), q);
  };
  EXPECT_EQ(why([](Params& q) { q.unroll = 4; }), "group CTAs of threads x vec x unroll elements do not hold a row");
  EXPECT_EQ(why([](Params& q) { q.group = 256, q.unroll = 4; }), "a row is held in at most 128 CTAs, one per SM");
  EXPECT_EQ(why([](Params& q) { q.threads = 512, q.vec = 4, q.unroll = 16; }), "unroll=16 is not a candidate value");
  EXPECT_EQ(why([](Params& q) { q.vec = 2, q.unroll = 8, q.threads = 1024; }),
            "a grid's CTAs move 16-byte vectors: vec must fill 16 bytes");
  EXPECT_EQ(why([](Params& q) { q.blocks_per_sm = 2; }), "blocks_per_sm does not apply to norm_grid_registers");
  // Rows that no power of two of CTAs divides leave the last CTAs part of a share, or none.
  Recipe ragged = long_rows();
  ragged.rows.extent = 3145732;
  EXPECT_EQ(invalid_reason(ragged, grid), "") << to_string(grid);
  EXPECT_EQ(default_params(ragged).strategy, Strategy::kNormSplit) << "measured slower than two launches";
  // Reductions have no such strategy.
  Recipe sum{
      .kind = TemplateKind::kReduce, .out_type = "float", .in_name = "x", .in_type = "float", .rows = {16, 4194304, 1}};
  EXPECT_EQ(invalid_reason(sum, grid), "strategy norm_grid_registers does not compute this recipe");
}

TEST(Search, PointsReadBackAsWrittenAndStrategiesAreNamed) {
  Params p{.strategy = Strategy::kNormCluster, .threads = 512, .unroll = 2, .group = 8, .split = 4};
  auto back = parse_params(to_string(p));
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->split, 1);  // norm_cluster does not read split: back to its default
  EXPECT_EQ(to_string(*back), "threads=512,vec=4,unroll=2,blocks_per_sm=0,split=1,group=8,strategy=norm_cluster");
  EXPECT_EQ(parse_params("strategy=rows_in_magic").message(), "params: unknown strategy `rows_in_magic`");
  EXPECT_EQ(parse_params("cluster=1").message(), "params: unknown parameter `cluster`");
  // A template's own parameter that the strategy does not read is refused, not dropped.
  EXPECT_EQ(parse_params("strategy=conv_direct_mma,pingpong=1").message(),
            "params: pingpong=1 does not apply to conv_direct_mma");
  EXPECT_TRUE(parse_params("strategy=conv_direct_mma,tf32x1=1").ok());
  for (auto& s : strategy_table())
    EXPECT_EQ(strategy_named(s.name), s.strategy) << s.name;
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
