// Convolution and level-2 chain recognition on specs the real bridge recorded
// (scripts/record-fixtures): KernelBench's level-1 convolutions and all 100 level-2 problems,
// committed as specs, so these run without KernelBench.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/strings.h"
#include "cutegen_paths.h"
#include "expert/chain_recipe.h"
#include "expert/conv_recipe.h"
#include "expert/recognize.h"
#include "expert/test_support.h"

namespace cutegen {
namespace {

using V = std::vector<int64_t>;

TaskSpec fixture(const std::string& relative) { return testing_support::recorded_spec("kernelbench/" + relative); }

ConvRecipe conv(const std::string& name) {
  auto r = recognize_conv(fixture("level1/" + name));
  EXPECT_TRUE(r.ok()) << name << ": " << r.message();
  return r.ok() ? *r : ConvRecipe{};
}

ChainRecipe chain(const std::string& name) {
  auto r = recognize_chain(fixture("level2/" + name));
  EXPECT_TRUE(r.ok()) << name << ": " << r.message();
  return r.ok() ? *r : ChainRecipe{};
}

TEST(RecognizeConv, EveryLevel1ConvolutionButTheSeparableOne) {
  int recognized = 0;
  for (auto& e :
       std::filesystem::directory_iterator(std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/kernelbench/level1")) {
    std::string name = e.path().stem().string();
    if (!contains(name, "_conv_")) continue;
    auto r = recognize_conv(fixture("level1/" + name));
    if (name == "86_conv_depthwise_separable_2D") {
      EXPECT_FALSE(r.ok());
      EXPECT_TRUE(contains(r.message(), "two convolutions")) << r.message();
      continue;
    }
    EXPECT_TRUE(r.ok()) << name << ": " << r.message();
    if (!r.ok()) continue;
    ++recognized;
    EXPECT_EQ(r->transposed, contains(name, "transposed")) << name;
    EXPECT_EQ(r->kind == ConvClass::kDepthwise, contains(name, "depthwise")) << name;
    EXPECT_EQ(describe(r->epilogue), "x0") << name;
    EXPECT_EQ(r->out_shape.size(), static_cast<size_t>(r->dims + 2)) << name;
  }
  EXPECT_EQ(recognized, 34);
}

TEST(RecognizeConv, GeometryAsTheModuleSetsIt) {
  auto alex = conv("50_conv_standard_2D__square_input__square_kernel");  // AlexNet's first layer
  EXPECT_EQ(alex.dims, 2);
  EXPECT_EQ((V{alex.batch, alex.in_channels, alex.out_channels}), (V{256, 3, 96}));
  EXPECT_EQ(alex.kernel, (V{11, 11}));
  EXPECT_EQ(alex.stride, (V{4, 4}));
  EXPECT_EQ(alex.padding, (V{2, 2}));
  EXPECT_EQ(alex.out_size, (V{55, 55}));
  EXPECT_EQ(alex.bias_name, "conv1.bias");
  EXPECT_EQ(alex.math, GemmMath::k3xTF32);  // 3 input channels: eager runs these in full fp32
  EXPECT_EQ((V{alex.gemm_m(), alex.gemm_n(), alex.gemm_k()}), (V{256 * 55 * 55, 96, 3 * 121}));

  auto dilated = conv("76_conv_standard_1D_dilated_strided__");
  EXPECT_EQ(dilated.dims, 1);
  EXPECT_EQ((V{dilated.stride[0], dilated.dilation[0], dilated.kernel[0]}), (V{3, 4, 3}));
  EXPECT_TRUE(dilated.bias_name.empty());

  auto grouped = conv("72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_");
  EXPECT_TRUE(grouped.transposed);
  EXPECT_EQ(grouped.groups, 4);
  EXPECT_EQ(grouped.output_padding, (V{1, 1, 1}));
  EXPECT_EQ(grouped.padding, (V{1, 2, 3}));

  // A 3 x 3 x 1 kernel over (D, H, W) = (256, 256, 10): the 2-D convolution over (D, H x W) with a
  // row dilation of W, whose rows are 2540 outputs long instead of 10.
  auto unit_w = conv("59_conv_standard_3D__asymmetric_input__square_kernel");
  EXPECT_EQ(unit_w.dims, 2);
  EXPECT_EQ(unit_w.folded_w, 10);
  EXPECT_EQ(unit_w.in_size, (V{256, 2560}));
  EXPECT_EQ(unit_w.out_size, (V{254, 2540}));
  EXPECT_EQ(unit_w.kernel, (V{3, 3}));
  EXPECT_EQ(unit_w.dilation, (V{1, 10}));
  EXPECT_EQ(unit_w.out_shape, (V{16, 64, 254, 2540}));
  EXPECT_EQ(unit_w.kind, ConvClass::kDirect);
  EXPECT_EQ(conv("60_conv_standard_3D__square_input__asymmetric_kernel").folded_w, 0) << "a kernel 7 wide in W";

  auto depthwise = conv("82_conv_depthwise_2D_square_input_square_kernel");
  EXPECT_EQ(depthwise.kind, ConvClass::kDepthwise);
  EXPECT_EQ(depthwise.groups, depthwise.in_channels);
}

TEST(RecognizeChain, ConvWithPointwiseAndPerChannelEpilogue) {
  auto r = chain("1_Conv2D_ReLU_BiasAdd");  // relu(conv(x) + conv.bias) + bias[C, 1, 1]
  ASSERT_TRUE(r.conv);
  EXPECT_EQ(r.anchor, AnchorKind::kConv);
  EXPECT_TRUE(r.stages.empty());
  EXPECT_EQ(describe(r.conv->epilogue), "add(max(x0, 0), x1)");
  ASSERT_EQ(r.conv->epilogue_operands.size(), 1u);
  EXPECT_EQ(r.conv->epilogue_operands[0].name, "bias");
  EXPECT_EQ(r.conv->epilogue_operands[0].strides, (V{0, 1, 0, 0})) << "one value per output channel";
}

TEST(RecognizeChain, GemmThenGroupNormThenPointwise) {
  auto r = chain("30_Gemm_GroupNorm_Hardtanh");
  ASSERT_TRUE(r.gemm);
  EXPECT_EQ(r.anchor, AnchorKind::kGemm);
  EXPECT_EQ((V{r.gemm->m, r.gemm->n, r.gemm->k}), (V{1024, 8192, 8192}));
  ASSERT_EQ(r.stages.size(), 1u);
  auto& norm = r.stages[0];
  EXPECT_EQ(norm.kind, StageKind::kGroupNorm);
  EXPECT_EQ(norm.groups, 16);
  EXPECT_DOUBLE_EQ(norm.eps, 1e-5);
  ASSERT_TRUE(norm.weight && norm.bias);
  EXPECT_EQ(norm.weight->strides, (V{0, 1}));
  EXPECT_DOUBLE_EQ(eval_host(norm.after, {3.0}), 2.0) << "hardtanh(-2, 2) after the norm";
  EXPECT_DOUBLE_EQ(eval_host(norm.after, {-0.5}), -0.5);
}

TEST(RecognizeChain, StagesInOrderWithTheirArguments) {
  auto r = chain("10_ConvTranspose2d_MaxPool_Hardtanh_Mean_Tanh");
  ASSERT_EQ(r.stages.size(), 2u);
  EXPECT_EQ(r.stages[0].kind, StageKind::kMaxPool);
  EXPECT_EQ(r.stages[0].window, (V{2, 2}));
  EXPECT_EQ(r.stages[0].stride, (V{2, 2}));
  EXPECT_EQ(r.stages[0].out_shape, (V{128, 64, 128, 128}));
  EXPECT_EQ(r.stages[1].kind, StageKind::kReduce);
  EXPECT_TRUE(r.stages[1].mean);
  EXPECT_EQ(r.stages[1].dims, (std::vector<int>{2, 3}));
  EXPECT_TRUE(r.stages[1].keepdim);

  // F.instance_norm: a batch norm of the conv's [1, N*C, H, W] view, read in element order.
  auto inorm = chain("17_Conv2d_InstanceNorm_Divide");
  ASSERT_EQ(inorm.stages.size(), 1u);
  EXPECT_EQ(inorm.stages[0].kind, StageKind::kInstanceNorm);
  EXPECT_EQ(inorm.stages[0].in_shape, (V{1, 128 * 128, 126, 126}));
  EXPECT_EQ(inorm.conv->out_shape, (V{128, 128, 126, 126}));
  EXPECT_DOUBLE_EQ(eval_host(inorm.stages[0].after, {3.0}), 1.5);

  // The residual add of the GEMM's input after a reduction: lse [N, 1] broadcast over x [N, K].
  auto residual = chain("51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd");
  ASSERT_EQ(residual.stages.size(), 2u);
  auto& last = residual.stages[1];
  EXPECT_TRUE(last.log_sum_exp);
  EXPECT_EQ(last.after_shape, (V{2048, 8192}));
  ASSERT_EQ(last.after_operands.size(), 1u);
  EXPECT_EQ(last.after_operands[0].name, "x");
}

// Every KernelBench level-2 problem: recognized (""), or declined naming what stopped recognition.
TEST(RecognizeChain, KernelBenchLevel2) {
  const std::vector<std::pair<const char*, const char*>> expected = {
      {"1_Conv2D_ReLU_BiasAdd", ""},
      {"2_ConvTranspose2d_BiasAdd_Clamp_Scaling_Clamp_Divide", ""},
      {"3_ConvTranspose3d_Sum_LayerNorm_AvgPool_GELU", ""},
      {"4_Conv2d_Mish_Mish", ""},
      {"5_ConvTranspose2d_Subtract_Tanh", ""},
      {"6_Conv3d_Softmax_MaxPool_MaxPool", ""},
      {"7_Conv3d_ReLU_LeakyReLU_GELU_Sigmoid_BiasAdd", ""},
      {"8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum", ""},
      {"9_Matmul_Subtract_Multiply_ReLU", ""},
      {"10_ConvTranspose2d_MaxPool_Hardtanh_Mean_Tanh", ""},
      {"11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm", ""},
      {"12_Gemm_Multiply_LeakyReLU", ""},
      {"13_ConvTranspose3d_Mean_Add_Softmax_Tanh_Scaling", ""},
      {"14_Gemm_Divide_Sum_Scaling", ""},
      {"15_ConvTranspose3d_BatchNorm_Subtract", "meet in one pointwise op"},
      {"16_ConvTranspose2d_Mish_Add_Hardtanh_Scaling", ""},
      {"17_Conv2d_InstanceNorm_Divide", ""},
      {"18_Matmul_Sum_Max_AvgPool_LogSumExp_LogSumExp", ""},
      {"19_ConvTranspose2d_GELU_GroupNorm", ""},
      {"20_ConvTranspose3d_Sum_ResidualAdd_Multiply_ResidualAdd", ""},
      {"21_Conv2d_Add_Scale_Sigmoid_GroupNorm", ""},
      {"22_Matmul_Scale_ResidualAdd_Clamp_LogSumExp_Mish", ""},
      {"23_Conv3d_GroupNorm_Mean", ""},
      {"24_Conv3d_Min_Softmax", ""},
      {"25_Conv2d_Min_Tanh_Tanh", ""},
      {"26_ConvTranspose3d_Add_HardSwish", ""},
      {"27_Conv3d_HardSwish_GroupNorm_Mean", ""},
      {"28_BMM_InstanceNorm_Sum_ResidualAdd_Multiply", ""},
      {"29_Matmul_Mish_Mish", ""},
      {"30_Gemm_GroupNorm_Hardtanh", ""},
      {"31_Conv2d_Min_Add_Multiply", ""},
      {"32_Conv2d_Scaling_Min", ""},
      {"33_Gemm_Scale_BatchNorm", ""},
      {"34_ConvTranspose3d_LayerNorm_GELU_Scaling", ""},
      {"35_Conv2d_Subtract_HardSwish_MaxPool_Mish", ""},
      {"36_ConvTranspose2d_Min_Sum_GELU_Add", ""},
      {"37_Matmul_Swish_Sum_GroupNorm", ""},
      {"38_ConvTranspose3d_AvgPool_Clamp_Softmax_Multiply", "input is computed (aten.avg_pool3d.default)"},
      {"39_Gemm_Scale_BatchNorm", ""},
      {"40_Matmul_Scaling_ResidualAdd", ""},
      {"41_Gemm_BatchNorm_GELU_ReLU", ""},
      {"42_ConvTranspose2d_GlobalAvgPool_BiasAdd_LogSumExp_Sum_Multiply", ""},
      {"43_Conv3d_Max_LogSumExp_ReLU", ""},
      {"44_ConvTranspose2d_Multiply_GlobalAvgPool_GlobalAvgPool_Mean", ""},
      {"45_Gemm_Sigmoid_LogSumExp", "two anchors"},
      {"46_Conv2d_Subtract_Tanh_Subtract_AvgPool", ""},
      {"47_Conv3d_Mish_Tanh", ""},
      {"48_Conv3d_Scaling_Tanh_Multiply_Sigmoid", ""},
      {"49_ConvTranspose3d_Softmax_Sigmoid", ""},
      {"50_ConvTranspose3d_Scaling_AvgPool_BiasAdd_Scaling", ""},
      {"51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd", ""},
      {"52_Conv2d_Activation_BatchNorm", ""},
      {"53_Gemm_Scaling_Hardtanh_GELU", ""},
      {"54_Conv2d_Multiply_LeakyReLU_GELU", ""},
      {"55_Matmul_MaxPool_Sum_Scale", ""},
      {"56_Matmul_Sigmoid_Sum", ""},
      {"57_Conv2d_ReLU_HardSwish", ""},
      {"58_ConvTranspose3d_LogSumExp_HardSwish_Subtract_Clamp", ""},
      {"59_Matmul_Swish_Scaling", ""},
      {"60_ConvTranspose3d_Swish_GroupNorm_HardSwish", ""},
      {"61_ConvTranspose3d_ReLU_GroupNorm", ""},
      {"62_Matmul_GroupNorm_LeakyReLU_Sum", ""},
      {"63_Gemm_ReLU_Divide", ""},
      {"64_Gemm_LogSumExp_LeakyReLU_LeakyReLU_GELU_GELU", ""},
      {"65_Conv2d_AvgPool_Sigmoid_Sum", ""},
      {"66_Matmul_Dropout_Softmax", ""},  // dropout is the identity in eval mode
      {"67_Conv2d_GELU_GlobalAvgPool", ""},
      {"68_Matmul_Min_Subtract", ""},
      {"69_Conv2d_HardSwish_ReLU", ""},
      {"70_Gemm_Sigmoid_Scaling_ResidualAdd", ""},
      {"71_Conv2d_Divide_LeakyReLU", ""},
      {"72_ConvTranspose3d_BatchNorm_AvgPool_AvgPool", ""},
      {"73_Conv2d_BatchNorm_Scaling", ""},
      {"74_ConvTranspose3d_LeakyReLU_Multiply_LeakyReLU_Max", ""},
      {"75_Gemm_GroupNorm_Min_BiasAdd", ""},
      {"76_Gemm_Add_ReLU", ""},
      {"77_ConvTranspose3d_Scale_BatchNorm_GlobalAvgPool", ""},
      {"78_ConvTranspose3d_Max_Max_Sum", ""},
      {"79_Conv3d_Multiply_InstanceNorm_Clamp_Multiply_Max", ""},
      {"80_Gemm_Max_Subtract_GELU", "meet in one pointwise op"},
      {"81_Gemm_Swish_Divide_Clamp_Tanh_Clamp", ""},
      {"82_Conv2d_Tanh_Scaling_BiasAdd_Max", ""},
      {"83_Conv3d_GroupNorm_Min_Clamp_Dropout", ""},
      {"84_Gemm_BatchNorm_Scaling_Softmax", ""},
      {"85_Conv2d_GroupNorm_Scale_MaxPool_Clamp", ""},
      {"86_Matmul_Divide_GELU", ""},
      {"87_Conv2d_Subtract_Subtract_Mish", ""},
      {"88_Gemm_GroupNorm_Swish_Multiply_Swish", ""},
      {"89_ConvTranspose3d_MaxPool_Softmax_Subtract_Swish_Max", ""},
      {"90_Conv3d_LeakyReLU_Sum_Clamp_GELU", ""},
      {"91_ConvTranspose2d_Softmax_BiasAdd_Scaling_Sigmoid", ""},
      {"92_Conv2d_GroupNorm_Tanh_HardSwish_ResidualAdd_LogSumExp", "meet in one pointwise op"},
      {"93_ConvTranspose2d_Add_Min_GELU_Multiply", ""},
      {"94_Gemm_BiasAdd_Hardtanh_Mish_GroupNorm", ""},
      {"95_Matmul_Add_Swish_Tanh_GELU_Hardtanh", ""},
      {"96_ConvTranspose3d_Multiply_Max_GlobalAvgPool_Clamp", ""},
      {"97_Matmul_BatchNorm_BiasAdd_Divide_Swish", ""},
      {"98_Matmul_AvgPool_GELU_Scale_Max", ""},
      {"99_Matmul_GELU_Softmax", ""},
      {"100_ConvTranspose3d_Clamp_Min_Divide", ""},
  };
  int recognized = 0;
  for (auto [name, reason] : expected) {
    auto r = recognize_chain(fixture(std::string("level2/") + name));
    if (*reason == '\0') {
      EXPECT_TRUE(r.ok()) << name << ": " << r.message();
      recognized += r.ok();
    } else {
      EXPECT_FALSE(r.ok()) << name << " was recognized: " << (r.ok() ? r->summary() : "");
      if (!r.ok()) {
        EXPECT_TRUE(contains(r.message(), reason)) << name << ": " << r.message();
      }
    }
  }
  EXPECT_EQ(expected.size(), 100u);
  EXPECT_EQ(recognized, 95);
}

// Depthwise separable (level 1's 86): the depthwise convolution writes the pointwise one's input.
TEST(RecognizeChain, ADepthwiseConvolutionRunsAheadOfTheConvolutionAfterIt) {
  auto spec = fixture("level1/86_conv_depthwise_separable_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->chain && r->chain->prologue);
  EXPECT_TRUE(r->chain->stages.empty());
  const ConvRecipe& first = *r->chain->prologue;
  EXPECT_EQ(first.kind, ConvClass::kDepthwise);
  EXPECT_EQ(first.input.c_name, "x");
  EXPECT_EQ(first.out_c_name, kChainIn);
  EXPECT_EQ(first.out_shape, (V{16, 64, 512, 512}));
  ASSERT_TRUE(r->conv);
  EXPECT_EQ(r->conv->kind, ConvClass::kImplicitGemm);
  EXPECT_EQ((V{r->conv->in_channels, r->conv->out_channels}), (V{64, 128}));
  EXPECT_EQ(r->conv->kernel, (V{1, 1}));
  EXPECT_EQ(r->conv->input.c_name, kChainIn);
  EXPECT_EQ(r->conv->out_c_name, "out") << "no stage after it: the anchor writes the output";
  // Only a depthwise convolution runs ahead: the same graph with a full first convolution is declined.
  auto g = import_graph(spec);
  ASSERT_TRUE(g.ok());
  g->nodes[0].args[8] = GraphArg{.kind = GraphArg::kConst, .number = 1};  // groups
  auto full = recognize_chain(spec, *g);
  ASSERT_FALSE(full.ok());
  EXPECT_TRUE(contains(full.message(), "convolution before another: only a depthwise one runs ahead"))
      << full.message();
}

TEST(RecognizeChain, ConstantTensorsMadeInForwardAreNumbers) {
  // torch.min(x, torch.tensor(0.5)): the bridge records lift_fresh's argument as the constant.
  auto r = recognize(fixture("level2/31_Conv2d_Min_Add_Multiply"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_TRUE(contains(r->summary, "epilogue mul(add(min(x0, 0.5), x1), 2)")) << r->summary;
}

TEST(RecognizeChain, TheExpertTakesChainsWithStagesAndReportsThoseItDeclines) {
  auto r = recognize(fixture("level2/10_ConvTranspose2d_MaxPool_Hardtanh_Mean_Tanh"));
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->chain);
  EXPECT_EQ(r->kind, TemplateKind::kConv);
  EXPECT_EQ(r->conv->out_c_name, "chain_out");
  EXPECT_EQ(r->chain->stages.size(), 2u);
  auto strided = recognize(fixture("level2/3_ConvTranspose3d_Sum_LayerNorm_AvgPool_GELU"));
  ASSERT_TRUE(strided.ok()) << strided.message();  // transposed, stride 2: one convolution per output phase
  EXPECT_TRUE(strided->conv->transposed);
  EXPECT_EQ(strided->chain->stages.size(), 2u);
  auto declined = recognize(fixture("level2/15_ConvTranspose3d_BatchNorm_Subtract"));
  ASSERT_FALSE(declined.ok());
  EXPECT_TRUE(contains(declined.message(),
                       "chain: the values of aten.convolution.default and aten.mean.dim meet in one "
                       "pointwise op (a residual across a stage is not covered)"))
      << declined.message();
  auto dropout = recognize(testing_support::recorded_spec("gemm_specs/linear_dropout"));  // training=True
  ASSERT_FALSE(dropout.ok());
  EXPECT_TRUE(contains(dropout.message(), "dropout in training mode draws random numbers")) << dropout.message();
}

}  // namespace
}  // namespace cutegen
