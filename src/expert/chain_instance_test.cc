// Level-2 chains with stages after their anchor: recognized from the bridge's recorded op graphs and
// emitted as the anchor's instance plus one stage kernel each (compiled in
// kernels/gemm/tests/check_expert_sass.py; run on the GPU by scripts/gpu's kb stage).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/strings.h"
#include "cutegen_paths.h"
#include "expert/chain_recipe.h"
#include "expert/recognize.h"
#include "expert/templates.h"
#include "expert/test_support.h"

namespace cutegen {
namespace {

TaskSpec fixture(const std::string& name) { return testing_support::recorded_spec("kernelbench/level2/" + name); }

std::string emit(const std::string& name) {
  auto spec = fixture(name);
  auto r = recognize(spec);
  EXPECT_TRUE(r.ok() && r->chain) << name << ": " << (r.ok() ? r->summary : r.message());
  if (!r.ok() || !r->chain) return "";
  auto src = generate_kernel(*r, spec, default_params(*r));
  EXPECT_TRUE(src.ok()) << name << ": " << src.message();
  return src.ok() ? *src : "";
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

TEST(ChainInstance, EveryLevel2ChainWithStagesEmitsOneKernelPerStageAfterItsAnchor) {
  int emitted = 0;
  for (auto& entry :
       std::filesystem::directory_iterator(std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/kernelbench/level2")) {
    std::string name = entry.path().stem().string();
    auto spec = fixture(name);
    auto r = recognize(spec);
    if (!r.ok() || !r->chain) continue;
    auto src = generate_kernel(*r, spec, default_params(*r));
    ASSERT_TRUE(src.ok()) << name << ": " << src.message();
    EXPECT_EQ(count(*src, "cutegen_anchor("), 2u) << name << ": defined and called once";
    // A first stage fused into the anchor's epilogue leaves a pointwise pass in its place.
    EXPECT_EQ(count(*src, "cutegen::chain::row_stage<") + count(*src, "cutegen::chain::pool_stage<"),
              r->chain->stages.size() - default_params(*r).fuse_stage)
        << name;
    EXPECT_FALSE(contains(*src, "#include \"")) << name << ": every library header inlined";
    ++emitted;
  }
  EXPECT_EQ(emitted, 57) << "level-2 chains with stages (the rest: pointwise chains, or declined with the reason)";
}

// A last stage whose ops broadcast its value over more elements: the stage bare, then its ops in a
// broadcast stage reading the value through stride-0 dims (51: logsumexp [2048, 1] then GELU and the
// residual add of x [2048, 8192]; 75: min [1024, 1] plus a bias of [1, 8192, 1, 1]).
TEST(ChainInstance, ALastStageBroadcastOverMoreElementsAppliesItsOpsInABroadcastStage) {
  std::string residual = emit("51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd");
  EXPECT_TRUE(contains(residual,
                       "using Source1 = cute::Layout<cute::Shape<cute::Int<8192>, cute::Int<2048>>, "
                       "cute::Stride<cute::Int<0>, cute::Int<1>>>;"))
      << residual.substr(residual.size() - 3000);
  EXPECT_TRUE(contains(residual,
                       "cutegen::chain::row_stage<cutegen::chain::RowOp::kLogSumExp, Rows1, Elems1>(buffer[1], "
                       "buffer[0], Stage1{}"));
  EXPECT_TRUE(contains(residual, "cutegen::chain::broadcast_stage<Source1>(buffer[0], out, 16777216, Broadcast1{x}"));
  std::string bias = emit("75_Gemm_GroupNorm_Min_BiasAdd");
  EXPECT_TRUE(contains(bias,
                       "using Source1 = cute::Layout<cute::Shape<cute::Int<1024>, cute::Int<8192>>, "
                       "cute::Stride<cute::Int<1>, cute::Int<0>>>;"))
      << bias.substr(bias.size() - 3000);
  EXPECT_EQ(count(bias, "cutegen::chain::broadcast_stage<"), 1u);
}

// Level 1's 86: the depthwise convolution's instance in a namespace of its own, writing chain_in,
// which the pointwise convolution after it reads.
TEST(ChainInstance, ADepthwisePrologueWritesTheAnchorsInput) {
  auto spec = testing_support::recorded_spec("kernelbench/level1/86_conv_depthwise_separable_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok() && r->chain) << r.message();
  auto src = generate_kernel(*r, spec, default_params(*r));
  ASSERT_TRUE(src.ok()) << src.message();
  EXPECT_TRUE(contains(*src, "namespace cg_prologue {"));
  EXPECT_TRUE(contains(*src, "using Conv = cutegen::conv::DepthwiseConv<"));
  EXPECT_TRUE(contains(*src, "Conv::run(x, depthwise_weight, chain_in, shape"));
  EXPECT_TRUE(contains(*src, "Conv::run(chain_in, pointwise_weight, out, shape"));
  size_t prologue =
      src->find("  cg_prologue::cutegen_prologue(x, depthwise_weight, pointwise_weight, out, chain_in, stream);");
  size_t anchor =
      src->find("  cutegen_anchor(x, depthwise_weight, pointwise_weight, out, chain_in, buffer[0], stream);");
  ASSERT_NE(prologue, std::string::npos);
  EXPECT_LT(prologue, anchor) << "the prologue runs first, on the same stream";
  EXPECT_TRUE(contains(*src, "constexpr size_t kChainIn = 1073741824, kBuffer = 0;")) << "16 x 64 x 512 x 512 floats";
}

TEST(ChainInstance, GroupNormRowsAreOneSamplesGroups) {
  // [1024, 8192] in 16 groups: rows (group, sample) of 512 contiguous values.
  std::string k = emit("30_Gemm_GroupNorm_Hardtanh");
  EXPECT_TRUE(contains(k,
                       "using Rows0 = cute::Layout<cute::Shape<cute::Int<16>, cute::Int<1024>>, "
                       "cute::Stride<cute::Int<512>, cute::Int<8192>>>;"))
      << k.substr(k.find("struct Stage0"));
  EXPECT_TRUE(contains(k, "using Elems0 = cute::Layout<cute::Shape<cute::Int<512>>, cute::Stride<cute::Int<1>>>;"));
  EXPECT_TRUE(contains(k,
                       "row_stage<cutegen::chain::RowOp::kNorm, Rows0, Elems0>(buffer[0], out, "
                       "Stage0{group_norm_weight, group_norm_bias}, 1e-05f, stream)"));
  // The affine parameters per channel (dim 1), then the hardtanh after the norm.
  EXPECT_TRUE(contains(k,
                       "v *= weight[cute::Layout<cute::Shape<cute::Int<8192>, cute::Int<1024>>, "
                       "cute::Stride<cute::Int<1>, cute::Int<0>>>{}(i)];"));
  EXPECT_TRUE(contains(k, "args.c = reinterpret_cast<Config::ElementC*>(chain_out)")) << "the GEMM writes the buffer";
}

TEST(ChainInstance, BatchStatisticsNormRowsAreChannelsOverTheBatch) {
  // F.batch_norm(training=True): each of the 1024 features normalized over the 256 samples.
  auto spec = testing_support::recorded_spec("gemm_specs/linear_batchnorm_batch_stats");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok() && r->chain) << (r.ok() ? r->summary : r.message());
  auto src = generate_kernel(*r, spec, default_params(*r));
  ASSERT_TRUE(src.ok()) << src.message();
  EXPECT_TRUE(contains(*src, "using Rows0 = cute::Layout<cute::Shape<cute::Int<1024>>, cute::Stride<cute::Int<1>>>;"));
  EXPECT_TRUE(
      contains(*src, "using Elems0 = cute::Layout<cute::Shape<cute::Int<256>>, cute::Stride<cute::Int<1024>>>;"));
  EXPECT_TRUE(contains(*src,
                       "row_stage<cutegen::chain::RowOp::kNorm, Rows0, Elems0>(buffer[0], out, "
                       "Stage0{weight, bias}, 1e-05f, stream)"));
}

TEST(ChainInstance, InferenceBatchNormIsPerChannelInTheAnchorsEpilogue) {
  // The evaluator runs tasks in eval mode: batch norm from running statistics, one affine map per
  // channel, so GEMM + scale + batch norm is one GEMM with its epilogue, no stage.
  auto spec = fixture("33_Gemm_Scale_BatchNorm");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->kind, TemplateKind::kGemm);
  EXPECT_FALSE(r->chain);
  EXPECT_TRUE(contains(r->summary, "rsqrt(add(x6, 1e-05))")) << r->summary;
  EXPECT_TRUE(contains(r->summary, "x6 = bn.running_var strides [0, 1]")) << r->summary;
  // After a convolution the channel is dim 1 of NCHW: read at k.
  auto conv = recognize(fixture("73_Conv2d_BatchNorm_Scaling"));
  ASSERT_TRUE(conv.ok()) << conv.message();
  EXPECT_EQ(conv->kind, TemplateKind::kConv);
  EXPECT_TRUE(contains(conv->summary, "bn.running_var strides [0, 1, 0, 0]")) << conv->summary;
}

TEST(ChainInstance, StagesPassTheirValueThroughAlternatingBuffers) {
  // max_pool over [1, 2] windows, then a sum over the row and the scale after it.
  std::string k = emit("55_Matmul_MaxPool_Sum_Scale");
  EXPECT_TRUE(contains(k, "pool_stage<Pool0>(buffer[0], buffer[1], Stage0{}, stream)"));
  EXPECT_TRUE(contains(k, "constexpr int64_t v[] = {1, 2};"));
  EXPECT_TRUE(contains(k, "row_stage<cutegen::chain::RowOp::kSum, Rows1, Elems1>(buffer[1], out, Stage1{}"));
  EXPECT_TRUE(contains(k, "return (v * 0.5f);"));
  // An instance norm of a convolution's NCHW output (a batch norm of its [1, N x C, P, Q] view): a
  // row per (sample, channel), one 126 x 126 plane.
  std::string conv = emit("17_Conv2d_InstanceNorm_Divide");
  EXPECT_TRUE(
      contains(conv, "using Rows0 = cute::Layout<cute::Shape<cute::Int<16384>>, cute::Stride<cute::Int<15876>>>;"))
      << conv.substr(conv.find("struct Stage0"));
  EXPECT_TRUE(contains(conv,
                       "using Elems0 = cute::Layout<cute::Shape<cute::Int<126>, cute::Int<126>>, "
                       "cute::Stride<cute::Int<1>, cute::Int<126>>>;"));
  EXPECT_TRUE(contains(conv, "Conv::run(x, conv_weight, chain_out,")) << "the convolution writes the buffer";
}

// fuse_stage=1: the first stage's reduction in the convolution's epilogue (FusedReduction), so the
// anchor writes the reduced value into a buffer of its size, and the stage's kernel becomes a pointwise
// pass of the ops after it.
std::string emit_fused(const std::string& name) {
  auto spec = fixture(name);
  auto r = recognize(spec);
  EXPECT_TRUE(r.ok() && r->chain) << name << ": " << (r.ok() ? r->summary : r.message());
  if (!r.ok() || !r->chain) return "";
  auto p = parse_params("fuse_stage=1", default_params(*r));
  EXPECT_TRUE(p.ok() && invalid_reason(*r, *p).empty()) << name << ": " << (p.ok() ? invalid_reason(*r, *p) : "");
  auto src = generate_kernel(*r, spec, *p);
  EXPECT_TRUE(src.ok()) << name << ": " << src.message();
  return src.ok() ? *src : "";
}

// The anchor's epilogue declaration of a fused reduction: "kPool, cutegen::conv::ReduceOp::kSum, 16, 4".
std::string reduction(const std::string& dims, const std::string& op_and_numbers) {
  return "using Reduction = cutegen::conv::FusedReduction<cutegen::conv::ReduceDims::" + dims +
         ", cutegen::conv::ReduceOp::" + op_and_numbers + ">;";
}

TEST(ChainInstance, AFusedFirstReductionLeavesItsOpsAsAPointwisePass) {
  // 67: the mean over each channel's 254 x 254 pixels of GELU(conv): per-tile sums added by atomics.
  std::string mean = emit_fused("67_Conv2d_GELU_GlobalAvgPool");
  EXPECT_TRUE(contains(mean, reduction("kPixels", "kSum, 64516")));
  EXPECT_TRUE(contains(mean, "constexpr size_t kChainIn = 0, kBuffer = 32768;"))
      << "128 x 64 means, not the 2 GB output";
  EXPECT_TRUE(contains(mean, "broadcast_stage<Source0>(buffer[0], out, 8192, Stage0{}, stream)"));
  EXPECT_EQ(count(mean, "cutegen::chain::row_stage<"), 0u);
  // 25: the min over each pixel's 64 channels (one N tile), then tanh twice in the pass after it.
  std::string min = emit_fused("25_Conv2d_Min_Tanh_Tanh");
  EXPECT_TRUE(contains(min, reduction("kChannels", "kMin, 1")));
  EXPECT_TRUE(contains(min, "broadcast_stage<Source0>(buffer[0], out, 8258048, Stage0{}, stream)"));
  EXPECT_TRUE(contains(min, "return tanhf(tanhf(v));")) << min.substr(min.find("struct Stage0"), 200);
  // 42: the mean over the pixels of a transposed convolution (stride 1: one phase); the stages after
  // it read the fused pass's value as they read the stage's.
  std::string chain = emit_fused("42_ConvTranspose2d_GlobalAvgPool_BiasAdd_LogSumExp_Sum_Multiply");
  EXPECT_TRUE(contains(chain, "broadcast_stage<Source0>(buffer[0], buffer[1], 2048, Stage0{"));
  EXPECT_TRUE(contains(chain, "row_stage<cutegen::chain::RowOp::kLogSumExp, Rows1, Elems1>(buffer[1], buffer[0]"));
  // 65: a 4 x 4 average pool on 32 x 4 pixel tiles (a window in one warp), then the sigmoid and the sum.
  std::string avg = emit_fused("65_Conv2d_AvgPool_Sigmoid_Sum");
  EXPECT_TRUE(contains(avg, reduction("kPool", "kSum, 16, 4")));
  EXPECT_TRUE(contains(avg, "using Conv = cutegen::conv::ConvForward<Config, 32, 4, Epilogue, true>;"));
  EXPECT_TRUE(contains(avg, "broadcast_stage<Source0>(buffer[0], buffer[1], 73932800, Stage0{}, stream)"));
  EXPECT_TRUE(contains(avg, "row_stage<cutegen::chain::RowOp::kSum, Rows1, Elems1>(buffer[1], out, Stage1{}"));
  // 35: a 2 x 2 max pool on 16 x 8 tiles.
  std::string max = emit_fused("35_Conv2d_Subtract_HardSwish_MaxPool_Mish");
  EXPECT_TRUE(contains(max, reduction("kPool", "kMax, 1, 2")));
  EXPECT_TRUE(contains(max, "using Conv = cutegen::conv::ConvForward<Config, 16, 8, Epilogue>;"));
}

// A group or instance norm first: the epilogue writes the output and sums each (image, channel)'s
// statistics past it; the norm's stage reads them and normalizes in one pass.
TEST(ChainInstance, AFusedNormTakesItsStatisticsFromTheEpilogue) {
  // 19: group norm, 8 groups of 8 channels over 258 x 258 pixels; 128 images.
  std::string group = emit_fused("19_ConvTranspose2d_GELU_GroupNorm");
  EXPECT_TRUE(contains(group, reduction("kStats", "kSum, 1")));
  EXPECT_TRUE(contains(group, "  double* stats;"));
  const std::string output = "545292288";  // 128 x 64 x 258 x 258 floats, then the (128, 64, 2) doubles
  EXPECT_TRUE(contains(group, "reinterpret_cast<double*>(chain_out + " + output + ")"));
  EXPECT_TRUE(contains(group, "constexpr size_t kChainIn = 0, kBuffer = " +
                                  std::to_string((545292288 + 4 * 128 * 64) * int64_t(4)) + ";"));
  EXPECT_TRUE(
      contains(group, "using StatRows0 = cute::Layout<cute::Shape<cute::Int<1024>>, cute::Stride<cute::Int<8>>>;"))
      << "row (image, group) starts at its first channel's pair";
  EXPECT_TRUE(
      contains(group, "using StatElems0 = cute::Layout<cute::Shape<cute::Int<8>>, cute::Stride<cute::Int<1>>>;"));
  EXPECT_TRUE(contains(group,
                       "norm_stats_stage<Rows0, Elems0, StatRows0, StatElems0>(buffer[0], "
                       "reinterpret_cast<double const*>(buffer[0] + " +
                           output + "), out,"));
  EXPECT_EQ(count(group, "cutegen::chain::row_stage<"), 0u);
  // 17: instance norm read as [1, 128 x 128, 126, 126]: a row per (image, channel), one pair each.
  std::string instance = emit_fused("17_Conv2d_InstanceNorm_Divide");
  EXPECT_TRUE(
      contains(instance, "using StatRows0 = cute::Layout<cute::Shape<cute::Int<16384>>, cute::Stride<cute::Int<1>>>;"));
  EXPECT_TRUE(
      contains(instance, "using StatElems0 = cute::Layout<cute::Shape<cute::Int<1>>, cute::Stride<cute::Int<0>>>;"));
  // Measured faster (19, 17): the default.
  auto r = recognize(fixture("19_ConvTranspose2d_GELU_GroupNorm"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(default_params(*r).fuse_stage, 1);
}

TEST(ChainInstance, AFirstStageTheEpilogueCannotReduceIsNotFused) {
  auto refused = [](const std::string& name) {
    auto r = recognize(fixture(name));
    EXPECT_TRUE(r.ok()) << name << ": " << r.message();
    if (!r.ok()) return std::string();
    auto p = parse_params("strategy=conv_implicit_gemm,split_ahead=1,fuse_stage=1", default_params(*r));
    EXPECT_TRUE(p.ok());
    return p.ok() ? invalid_reason(*r, *p) : "";
  };
  EXPECT_EQ(refused("3_ConvTranspose3d_Sum_LayerNorm_AvgPool_GELU"),
            "fuse_stage: a layer norm's rows are not whole channels");
  EXPECT_EQ(refused("8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum"),
            "fuse_stage: the first stage pools other than 2-D pixels");
  // 36: 128 channels x 2 merged W phases, two N tiles of 128 columns.
  EXPECT_EQ(refused("36_ConvTranspose2d_Min_Sum_GELU_Add"), "fuse_stage: the channels span more than one N tile");
  // 13: a mean over the depth alone.
  EXPECT_EQ(refused("13_ConvTranspose3d_Mean_Add_Softmax_Tanh_Scaling"),
            "fuse_stage: the first stage reduces neither all the pixels nor all the channels");
  EXPECT_EQ(refused("1_Conv2D_ReLU_BiasAdd"), "fuse_stage applies to a level-2 chain's anchor");
  // The default fuses where it measured faster on the H200 (2026-12-05): reductions over the pixels
  // or the channels, pools on a 64-wide N tile; not 35's 2 x 2 pool on 128 channels. The measured
  // search holds the other point beside it.
  auto fused_points = [](const std::string& name) {  // {the default's fuse_stage, fused points searched}
    auto r = recognize(fixture(name));
    EXPECT_TRUE(r.ok()) << name;
    std::pair<int, size_t> points{r.ok() ? default_params(*r).fuse_stage : -1, 0};
    if (r.ok())
      for (auto& p : search_space(*r))
        points.second += p.fuse_stage;
    return points;
  };
  EXPECT_EQ(fused_points("82_Conv2d_Tanh_Scaling_BiasAdd_Max").first, 1);
  auto [pool2_default, pool2_fused] = fused_points("35_Conv2d_Subtract_HardSwish_MaxPool_Mish");
  EXPECT_EQ(pool2_default, 0);
  EXPECT_GT(pool2_fused, 0u);
  auto [mean_default, mean_fused] = fused_points("67_Conv2d_GELU_GlobalAvgPool");
  EXPECT_EQ(mean_default, 1);
  auto r = recognize(fixture("67_Conv2d_GELU_GlobalAvgPool"));
  ASSERT_TRUE(r.ok());
  EXPECT_LT(mean_fused, search_space(*r).size()) << "the unfused point searched";
}

}  // namespace
}  // namespace cutegen
