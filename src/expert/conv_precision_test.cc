// A convolution's precision from the baseline's measurement (expert/conv_precision.h), on specs recorded
// from the bridge, with the precision facts measured on an H100 (results/h100/2026-12-07b and earlier:
// eager's error against float64; tf32_rel_err is set near what a TF32 kernel of the task measured).
#include "expert/conv_precision.h"

#include <gtest/gtest.h>

#include "core/strings.h"
#include "expert/conv_recipe.h"
#include "expert/recognize.h"
#include "expert/templates.h"
#include "expert/test_support.h"

namespace cutegen {
namespace {

Recipe recipe(const std::string& task) {
  auto r = recognize(testing_support::recorded_spec("kernelbench/" + task));
  EXPECT_TRUE(r.ok()) << task << ": " << r.message();
  return *r;
}

// Eager's error of level 2's 7 (cuDNN in TF32 over 8 channels), and the limit the rule sets from it.
constexpr PrecisionBudget kEagerTf32{.tf32_rel_err = 9e-6, .accuracy_limit = 8.9e-5};
// Level 2's 78: eager in full fp32 (3.9e-8); a TF32 kernel measured 1.8e-5 against the floor's 1e-5.
constexpr PrecisionBudget kEagerFp32{.tf32_rel_err = 1.8e-5, .accuracy_limit = 1e-5};

TEST(ConvPrecision, EagerInTf32LetsA3xTf32RecipeRunTf32) {
  std::string const task = "level2/7_Conv3d_ReLU_LeakyReLU_GELU_Sigmoid_BiasAdd";
  Recipe r = recipe(task);
  ASSERT_EQ(r.conv->math, GemmMath::k3xTF32) << "8 input channels: the recipe's guess is 3xTF32";
  Params const d = default_params(r);
  Params const p = conv_precision_point(r, d, kEagerTf32, Target{}.limits());
  EXPECT_EQ(p.tf32x1, 1);
  EXPECT_EQ(p.strategy, Strategy::kConvImplicitGemm);
  EXPECT_EQ(invalid_reason(r, p), "");
  EXPECT_FALSE(conv_runs_3xtf32(*r.conv, p));
  auto spec = testing_support::recorded_spec("kernelbench/" + task);
  auto tf32 = generate_kernel(r, spec, p), x3 = generate_kernel(r, spec, d);
  ASSERT_TRUE(tf32.ok() && x3.ok()) << tf32.message() << x3.message();
  EXPECT_TRUE(contains(*x3, ", Epilogue, true")) << "3xTF32: the split parts";
  EXPECT_FALSE(contains(*tf32, ", Epilogue, true")) << "TF32: one part";
  // Unknown, or a budget TF32 would miss: the default stands.
  EXPECT_EQ(conv_precision_point(r, d, {}, Target{}.limits()), d);
  EXPECT_EQ(conv_precision_point(r, d, kEagerFp32, Target{}.limits()), d);
}

TEST(ConvPrecision, TheDirectFp32TemplateGivesWayToTf32) {
  // Level 2's 8 runs the exact fp32 direct template by default (3xTF32's narrow tiles were slower);
  // with eager itself in TF32 (error 3.4e-5) the TF32 implicit GEMM is the default.
  Recipe r = recipe("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum");
  ASSERT_EQ(default_params(r).strategy, Strategy::kConvDirect);
  Params const p = conv_precision_point(r, default_params(r), {3.4e-5, 3.4e-4}, Target{}.limits());
  EXPECT_EQ(p.strategy, Strategy::kConvImplicitGemm);
  EXPECT_EQ(p.tf32x1, 1);
  EXPECT_EQ(invalid_reason(r, p), "");
}

TEST(ConvPrecision, EagerInFp32Makes3xTf32OfATf32Recipe) {
  Recipe r = recipe("level2/78_ConvTranspose3d_Max_Max_Sum");
  ASSERT_EQ(r.conv->math, GemmMath::kTF32);
  Params const d = default_params(r);
  Params const p = conv_precision_point(r, d, kEagerFp32, Target{}.limits());
  EXPECT_EQ(p.tf32x3, 1);
  EXPECT_EQ(invalid_reason(r, p), "");
  EXPECT_TRUE(conv_runs_3xtf32(*r.conv, p));
  EXPECT_EQ(conv_precision_point(r, d, kEagerTf32, Target{}.limits()), d) << "already TF32";
}

TEST(ConvPrecision, OnlyConvolutionsAndOnlyTheRecipesMathTheyOverride) {
  EXPECT_TRUE(tf32_admitted({2.5e-6, 1e-5}));
  EXPECT_FALSE(tf32_admitted({2.6e-6, 1e-5}));
  EXPECT_FALSE(tf32_admitted({0, 1e-5}));
  Recipe gemm = recipe("level1/1_Square_matrix_multiplication_");
  EXPECT_EQ(conv_precision_point(gemm, default_params(gemm), kEagerTf32, Target{}.limits()), default_params(gemm));
  Recipe tf32 = recipe("level1/55_conv_standard_2D__asymmetric_input__square_kernel");
  Params p = default_params(tf32);
  p.tf32x1 = 1;
  EXPECT_EQ(invalid_reason(tf32, p), "tf32x1 applies where the recipe runs 3xTF32");
}

}  // namespace
}  // namespace cutegen
