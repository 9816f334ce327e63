// Every template, instantiated at several parameter points for our tasks, compiles with the real
// Builder (nvcc, sm_90a, the task's ABI header force-included). The cache directory is shared
// across test processes under the system temp dir, so reruns cost nothing.
#include "expert/templates.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "build/builder.h"
#include "expert/recognize.h"
#include "expert/test_support.h"
#include "task/abi.h"

namespace cutegen {
namespace {

struct Point {
  const char* task;
  const char* params;  // over default_params(recipe)
};

// ~45 compiles: each strategy and code path (dense/broadcast/bf16 elementwise; row and
// column reductions incl. argmax; row norms held in a cluster's shared memory (1, 8 and 16 CTAs,
// odd rows, persistent clusters), in a cooperative grid's shared memory or registers (equal and
// unequal shares), or in a block's registers (a warp or 8),
// fused and split streamed row norms (one launch and two, tiles or chunks) incl. LayerNorm affine;
// columns).
const std::vector<Point>& points() {
  static const std::vector<Point> p = {
      {"relu", ""},
      {"relu", "threads=128,vec=8,unroll=1,blocks_per_sm=0"},
      {"relu", "threads=512,vec=4,unroll=8,blocks_per_sm=16"},
      {"scale_bias_leaky", ""},                             // bias read with the tiled copy
      {"scale_bias_leaky", "threads=1024,vec=8,unroll=2"},  // tile > bias row: gathered reads
      {"new_gelu", "unroll=2"},
      {"selu", ""},
      {"selu", "vec=4,threads=256,unroll=2"},
      {"sum_dim", ""},
      {"sum_dim", "threads=128,split=1"},
      {"sum_dim", "threads=1024,split=8,unroll=1"},
      {"argmax_dim", ""},  // a warp per row
      {"argmax_dim", "threads=128,vec=1"},
      {"argmax_dim", "threads=1024,vec=2"},
      {"softmax", ""},
      {"softmax", "strategy=norm_registers,threads=256,vec=4"},
      {"log_softmax", ""},  // held by a cooperative grid, up to four CTAs per SM
      {"log_softmax", "strategy=norm_split,group=8,vec=4,threads=512,unroll=2"},
      {"log_softmax", "strategy=norm_cluster,group=8,threads=1024,unroll=2,blocks_per_sm=0"},
      {"log_softmax", "strategy=norm_cluster,group=8,threads=1024,unroll=2,blocks_per_sm=2"},
      {"softmax", "group=16,threads=256,blocks_per_sm=2"},  // non-portable size, named at launch
      {"layernorm", ""},
      {"l1norm_odd_rows", ""},  // held by a cooperative grid, 4 CTAs per row
      {"l1norm_odd_rows",
       "strategy=norm_cluster,group=4,threads=512,unroll=4,blocks_per_sm=4"},  // rows off 16 bytes: the next row loads
                                                                               // after the chunk
      {"softmax_small_odd", ""},            // 8 warps per row in registers, scalar loads
      {"softmax_small_odd", "threads=32"},  // a warp per row
      {"softmax_small_odd", "strategy=norm_cluster,threads=512,vec=4,unroll=4,group=1"},
      {"layernorm_rows_768", ""},             // a warp per row, vectors, weight and bias
      {"layernorm_rows_768", "threads=256"},  // 8 warps per row, two reductions through shared memory
      {"log_softmax_classes", ""},            // rows in registers: max, then the sum of exponentials
      {"l2norm_embeddings", ""},              // rows in registers: the generic online statistic
      {"layernorm_long", ""},                 // in the registers of 128 CTAs of a cooperative grid
      {"layernorm_long", "strategy=norm_split,threads=256,vec=4,unroll=4,group=32"},  // two launches, pass 2 by columns
      {"layernorm_long", "strategy=norm_split_ticket,threads=1024,vec=2,group=16,unroll=1"},
      {"layernorm_long", "strategy=norm_streamed,threads=128,vec=4,unroll=4"},
      {"layernorm_long",
       "strategy=norm_held_grid,group=128,blocks_per_sm=2,threads=256,vec=4,unroll=4"},  // held in their shared memory
      {"log_softmax",
       "strategy=norm_grid_registers,threads=1024,vec=4,unroll=8,group=8"},  // a statistic without a count
      {"l2norm", "strategy=norm_grid_registers,threads=1024,vec=4,unroll=8,group=2"},
      {"layernorm_long_ragged",
       "strategy=norm_grid_registers,threads=1024,vec=4,unroll=8,group=128"},  // unequal shares
      {"layernorm_long_ragged", ""},                                           // two launches
      {"rmsnorm", ""},
      {"l2norm", ""},
      {"l2norm", "strategy=norm_cluster,group=4,threads=512,unroll=4,blocks_per_sm=0"},  // a 4-CTA cluster per row
      {"l2norm", "strategy=norm_split,group=4,threads=256,unroll=2"},  // streamed in chunks, two launches
      {"frobenius_norm", ""},                                          // two launches, pass 2 a tile per block
  };
  return p;
}

TEST(TemplatesCompile, EveryTemplateAtSeveralPoints) {
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  auto cache = std::filesystem::temp_directory_path() / "cutegen-expert-compile-cache";
  Builder builder(*tc, BuilderOptions{.cache_dir = cache.string()});
  std::vector<BuildRequest> requests;
  std::vector<std::string> names;
  static const std::regex launch(R"(<<<([^<>]*)>>>)");
  for (auto& pt : points()) {
    auto spec = testing_support::task_spec(pt.task);
    ASSERT_TRUE(spec.ok()) << pt.task << ": " << spec.message();
    auto recipe = recognize(*spec);
    ASSERT_TRUE(recipe.ok()) << pt.task << ": " << recipe.message();
    auto params = parse_params(pt.params, default_params(*recipe));
    ASSERT_TRUE(params.ok()) << params.message();
    auto source = generate_kernel(*recipe, *spec, *params);
    ASSERT_TRUE(source.ok()) << pt.task << " " << pt.params << ": " << source.message();
    // The evaluator's launch rule: four launch arguments, the last one `stream`.
    for (auto it = std::sregex_iterator(source->begin(), source->end(), launch); it != std::sregex_iterator(); ++it)
      EXPECT_TRUE(std::regex_search((*it)[1].str(), std::regex(R"(,[^,]*,[^,]*,\s*stream\s*$)"))) << it->str();
    EXPECT_NE(source->find("make_tiled_copy"), std::string::npos);
    names.push_back(std::string(pt.task) + " [" + to_string(*params) + "]");
    requests.push_back({.source = *source,
                        .display_name = std::string(pt.task) + ".cu",
                        .target = Target{9, 0, true},
                        .force_include = abi_header(*spec)});
  }
  auto results = builder.build_all(requests);
  for (size_t i = 0; i < results.size(); ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].message();
    EXPECT_TRUE(results[i]->ok()) << names[i] << ": " << results[i]->message << "\n"
                                  << render_diagnostics(results[i]->diagnostics, requests[i].display_name);
  }
}

TEST(TemplatesCompile, InvalidPointsAreRefusedWithAReason) {
  auto spec = testing_support::task_spec("sum_dim");
  ASSERT_TRUE(spec.ok()) << spec.message();
  auto recipe = recognize(*spec);
  ASSERT_TRUE(recipe.ok()) << recipe.message();
  // Middle-dim reductions read columns: vec does not apply.
  auto r = generate_kernel(*recipe, *spec, Params{.strategy = Strategy::kReduceColumns, .vec = 2});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("does not apply to reduce_columns"), std::string::npos) << r.message();
  auto argmax = recognize(*testing_support::task_spec("argmax_dim"));
  ASSERT_TRUE(argmax.ok());
  EXPECT_FALSE(generate_kernel(*argmax, *testing_support::task_spec("argmax_dim"),
                               Params{.strategy = Strategy::kReduceRows, .vec = 8})
                   .ok());  // 256 bits
  for (auto& p : search_space(*recipe))
    EXPECT_EQ(invalid_reason(*recipe, p), "");
}

// The spellings the H200 measured best, in the default kernels (BENCHMARKS.md: division, selects,
// inputs loaded evict_last).
TEST(TemplatesCompile, DefaultsSpellDivisionStatisticsAndLoadsAsMeasured) {
  auto default_kernel = [](const char* task) {
    auto spec = testing_support::task_spec(task);
    auto recipe = recognize(*spec);
    EXPECT_TRUE(recipe.ok()) << task << ": " << recipe.message();
    auto source = generate_kernel(*recipe, *spec, default_params(*recipe));
    EXPECT_TRUE(source.ok()) << task << ": " << source.message();
    return source.ok() ? *source : std::string();
  };
  EXPECT_NE(default_kernel("sigmoid").find("cg_expert::div_full(1.0f, "), std::string::npos);
  std::string frobenius = default_kernel("frobenius_norm");
  EXPECT_NE(frobenius.find("return cg_expert::div_full(x, sqrtf(st.a));"), std::string::npos);
  EXPECT_NE(frobenius.find("cg_norm::load_nc(&row_stats[row])"), std::string::npos);  // pass 2, through L1
  // The columns kernel keeps IEEE division, a constant's included.
  EXPECT_NE(default_kernel("rmsnorm").find("return (x / sqrtf(((st.a / 64.0f) + 1e-05f)));"), std::string::npos);
  // bf16 SELU: fast intrinsics on both sides, so a select.
  EXPECT_NE(default_kernel("selu").find("cg_expert::select_gt("), std::string::npos);
  // LayerNorm rows in registers: the mean, then squared deviations; weight and bias as vectors.
  std::string layernorm = default_kernel("layernorm_rows_768");
  EXPECT_NE(layernorm.find("const float mean = reduce(s, [](float p, float q) { return p + q; }) * Norm::kInvExtent;"),
            std::string::npos);
  EXPECT_NE(layernorm.find("kInvExtent = (1.0f / 768.0f);"), std::string::npos);
  EXPECT_NE(layernorm.find("cg_norm::param_tiles<Norm>(copy_param, weight, bias, extent,"), std::string::npos);
  EXPECT_NE(layernorm.find("constexpr bool kWeight = true, kBias = true;"), std::string::npos);
  // Split rows' pass 2 loads them as vectors too.
  EXPECT_NE(
      default_kernel("layernorm_long_ragged").find("cg_norm::param_tiles<Norm>(copy_param, weight, bias, size(mRow),"),
      std::string::npos);
  // Inputs read once are loaded evict_last: rows in registers, elementwise operands.
  EXPECT_NE(layernorm.find("auto copy_in = cg_expert::evict_last_tiled_copy<TIn, kThreads, kVec>();"),
            std::string::npos);
  std::string bias = default_kernel("scale_bias_leaky");
  EXPECT_NE(bias.find("cg_elementwise::tiled(make_tensor(make_gmem_ptr(in1),"),
            std::string::npos);  // the broadcast bias too
  EXPECT_NE(
      bias.find("auto copy_in = cg_expert::evict_last_tiled_copy<typename TensorT::value_type, kThreads, kVec>();"),
      std::string::npos);
  // Rows in a grid's registers publish (mean, squared deviations) in 8 bytes, the count left out.
  std::string grid = default_kernel("layernorm_long");
  EXPECT_NE(grid.find("float2 to_slot(Stat st) { return make_float2(st.b, st.c); }"), std::string::npos);
  EXPECT_NE(grid.find("ws.partials[row * kGroup + rank] = Norm::to_slot(part);"), std::string::npos);
}

}  // namespace
}  // namespace cutegen
