// GEMM recognition on specs the real bridge recorded (scripts/record-fixtures): our GEMM cases
// (tests/gemm_tasks) and KernelBench's level-1 matmuls and level-2 Gemm/Matmul problems, whose
// fixtures are committed, so these run without KernelBench.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/strings.h"
#include "cutegen_paths.h"
#include "expert/gemm_recipe.h"
#include "expert/recognize.h"
#include "expert/strided.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

TaskSpec fixture(const std::string& relative) {
  auto text = read_file(std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/" + relative + ".json");
  if (!text.ok()) throw std::runtime_error(text.message() + " (run scripts/record-fixtures)");
  auto spec = parse_task_spec(*text);
  if (!spec.ok()) throw std::runtime_error(spec.message());
  return *spec;
}

GemmRecipe gemm(const std::string& relative) {
  auto r = recognize_gemm(fixture(relative));
  EXPECT_TRUE(r.ok()) << relative << ": " << r.message();
  return r.ok() ? *r : GemmRecipe{};
}

using V = std::vector<int64_t>;

TEST(RecognizeGemm, AllFourOperandLayouts) {
  auto nn = gemm("gemm_specs/mm_bf16_odd");
  EXPECT_EQ(nn.kind, GemmClass::kGemm);
  EXPECT_EQ((V{nn.m, nn.n, nn.k}), (V{1000, 777, 515}));
  EXPECT_EQ(nn.a.layout, MatrixLayout::kRowMajor);
  EXPECT_EQ(nn.a.ld, 515);
  EXPECT_EQ(nn.b.layout, MatrixLayout::kRowMajor);
  EXPECT_EQ(nn.b.ld, 777);
  EXPECT_EQ(nn.a.dtype, DType::kBFloat16);
  EXPECT_EQ(nn.math, GemmMath::kNative);
  EXPECT_EQ(describe(nn.epilogue), "x0");
  EXPECT_TRUE(nn.batch_shape.empty());

  auto tn = gemm("gemm_specs/mm_tn_fp16");  // a.t() @ b, a stored K x M
  EXPECT_TRUE(tn.a.transposed());
  EXPECT_EQ(tn.a.ld, 512);
  EXPECT_EQ((V{tn.a.row_stride, tn.a.col_stride}), (V{1, 512}));
  EXPECT_FALSE(tn.b.transposed());

  auto nt = gemm("gemm_specs/mm_nt_fp16");  // b.transpose(0, 1), b stored N x K
  EXPECT_FALSE(nt.a.transposed());
  EXPECT_TRUE(nt.b.transposed());
  EXPECT_EQ(nt.b.ld, 256);

  auto tt = gemm("gemm_specs/mm_tt_fp32");
  EXPECT_TRUE(tt.a.transposed());
  EXPECT_TRUE(tt.b.transposed());
  EXPECT_EQ((V{tt.m, tt.n, tt.k, tt.a.ld, tt.b.ld}), (V{300, 200, 100, 300, 100}));
  EXPECT_EQ(tt.math, GemmMath::k3xTF32);
  EXPECT_EQ(describe(tt.epilogue), "mul(x0, 0.125)");

  // KernelBench 16-18: the transposes as the reference writes them.
  EXPECT_TRUE(gemm("kernelbench/level1/16_Matmul_with_transposed_A").a.transposed());
  EXPECT_TRUE(gemm("kernelbench/level1/17_Matmul_with_transposed_B").b.transposed());
  auto both = gemm("kernelbench/level1/18_Matmul_with_transposed_both");
  EXPECT_TRUE(both.a.transposed() && both.b.transposed());
  EXPECT_EQ((V{both.m, both.n, both.k}), (V{2048, 4096, 8192}));
}

TEST(RecognizeGemm, LinearWithBiasAndPointwiseEpilogue) {
  auto r = gemm("kernelbench/level2/12_Gemm_Multiply_LeakyReLU");
  EXPECT_EQ(r.op, "aten.addmm.default");
  EXPECT_EQ((V{r.m, r.n, r.k}), (V{1024, 8192, 8192}));
  EXPECT_TRUE(r.b.transposed()) << "nn.Linear's weight is N x K: B is K-major";
  EXPECT_EQ(r.b.name, "gemm.weight");
  ASSERT_EQ(r.epilogue_operands.size(), 1u);
  EXPECT_EQ(r.epilogue_operands[0].name, "gemm.bias");
  EXPECT_EQ((V{r.epilogue_operands[0].m_stride, r.epilogue_operands[0].n_stride}), (V{0, 1}));
  // leaky_relu(2 * (acc + bias), 0.1)
  EXPECT_NEAR(eval_host(r.epilogue, {-1.0, 0.5}), -0.1, 1e-12);
  EXPECT_NEAR(eval_host(r.epilogue, {1.0, 0.5}), 3.0, 1e-12);

  auto nobias = gemm("gemm_specs/linear_3d_nobias_gelu");  // [4, 100, 256] x W^T: M = 400
  EXPECT_EQ((V{nobias.m, nobias.n, nobias.k}), (V{400, 320, 256}));
  EXPECT_EQ(nobias.out_shape, (V{4, 100, 320}));
  EXPECT_TRUE(nobias.epilogue_operands.empty());
  EXPECT_NEAR(eval_host(nobias.epilogue, {1.0}), 0.5 * (1 + std::erf(1 / std::sqrt(2.0))), 1e-12);

  auto residual = gemm("gemm_specs/linear_3d_bias_silu_residual");
  EXPECT_EQ(residual.a.dtype, DType::kBFloat16);
  EXPECT_EQ(residual.out_dtype, DType::kBFloat16);
  ASSERT_EQ(residual.epilogue_operands.size(), 2u);
  EXPECT_EQ(residual.epilogue_operands[1].name, "residual");
  EXPECT_EQ((V{residual.epilogue_operands[1].m_stride, residual.epilogue_operands[1].n_stride}), (V{192, 1}));
  double acc = 0.3, bias = 0.2, res = 5;
  EXPECT_NEAR(eval_host(residual.epilogue, {acc, bias, res}), (acc + bias) / (1 + std::exp(-(acc + bias))) + res,
              1e-12);

  auto cast = gemm("gemm_specs/linear_sigmoid_clamp_cast");  // fp32 math, stored as bf16
  EXPECT_EQ(cast.a.dtype, DType::kFloat32);
  EXPECT_EQ(cast.out_dtype, DType::kBFloat16);
  EXPECT_NEAR(eval_host(cast.epilogue, {10.0, 0.0}), 0.9, 1e-12);

  auto scaled = gemm("gemm_specs/addmm_alpha_beta");  // tanh(0.5 * c + 2 * acc), c a full M x N
  EXPECT_NEAR(eval_host(scaled.epilogue, {1.0, 2.0}), std::tanh(3.0), 1e-12);
  EXPECT_EQ((V{scaled.epilogue_operands[0].m_stride, scaled.epilogue_operands[0].n_stride}), (V{96, 1}));
}

TEST(RecognizeGemm, BatchedAndBroadcastBatches) {
  auto bmm = gemm("gemm_specs/bmm_nt_relu");
  EXPECT_EQ(bmm.batch_shape, (V{8}));
  EXPECT_EQ(bmm.a.batch_strides, (V{200 * 64}));
  EXPECT_TRUE(bmm.b.transposed());
  EXPECT_EQ(bmm.b.ld, 64);
  EXPECT_EQ(bmm.b.batch_strides, (V{136 * 64}));

  // [2, 3, 64, 32] @ [1, 3, 32, 48]: torch materializes B's broadcast, the recipe reads B in place.
  auto four = gemm("gemm_specs/matmul_4d_batched");
  EXPECT_EQ(four.batch_shape, (V{2, 3}));
  EXPECT_EQ(four.a.batch_strides, (V{6144, 2048}));
  EXPECT_EQ(four.b.batch_strides, (V{0, 1536}));
  EXPECT_EQ(four.b.name, "b");

  auto einsum = gemm("gemm_specs/matmul_batched_transposed_a");  // 'bkm,bkn->bmn' + r
  EXPECT_TRUE(einsum.a.transposed());
  EXPECT_EQ(einsum.a.ld, 40);
  EXPECT_EQ(einsum.a.batch_strides, (V{56 * 40}));
  ASSERT_EQ(einsum.epilogue_operands.size(), 1u);
  EXPECT_EQ(einsum.epilogue_operands[0].batch_strides, (V{40 * 72}));

  auto baddbmm = gemm("gemm_specs/baddbmm_leaky");
  ASSERT_EQ(baddbmm.epilogue_operands.size(), 1u);
  auto& bias = baddbmm.epilogue_operands[0];
  EXPECT_EQ(bias.batch_strides, (V{0}));
  EXPECT_EQ((V{bias.m_stride, bias.n_stride}), (V{0, 1}));

  EXPECT_EQ(gemm("kernelbench/level1/3_Batched_matrix_multiplication").batch_shape, (V{128}));
  // A 3-D or 4-D tensor times a matrix is one GEMM with M = the product of the leading dims.
  auto three = gemm("kernelbench/level1/10_3D_tensor_matrix_multiplication");
  EXPECT_EQ((V{three.m, three.n, three.k}), (V{16 * 1024, 768, 2048}));
  EXPECT_TRUE(three.batch_shape.empty());
  auto four_kb = gemm("kernelbench/level1/11_4D_tensor_matrix_multiplication");
  EXPECT_EQ((V{four_kb.m, four_kb.n, four_kb.k}), (V{8 * 256 * 512, 768, 256}));
  EXPECT_TRUE(four_kb.batch_shape.empty());
  EXPECT_FALSE(four_kb.a.transposed());
}

TEST(RecognizeGemm, MatrixVectorIsItsOwnClass) {
  auto kb = gemm("kernelbench/level1/4_Matrix_vector_multiplication_");
  EXPECT_EQ(kb.kind, GemmClass::kMatVec);
  EXPECT_EQ((V{kb.m, kb.n, kb.k}), (V{2048, 1, 1048576}));
  auto mv = gemm("gemm_specs/matvec");
  EXPECT_EQ(mv.op, "aten.mv.default");
  EXPECT_EQ(mv.kind, GemmClass::kMatVec);
  EXPECT_EQ((V{mv.m, mv.n, mv.k}), (V{4096, 1, 3000}));
  auto row = gemm("gemm_specs/vecmat_linear");
  EXPECT_EQ(row.kind, GemmClass::kMatVec);
  EXPECT_EQ(row.m, 1);
  EXPECT_EQ(gemm("kernelbench/level1/1_Square_matrix_multiplication_").kind, GemmClass::kGemm);
}

TEST(RecognizeGemm, TriangularProductIsAFlag) {
  auto lower = gemm("gemm_specs/tril_matmul");
  EXPECT_EQ(lower.triangle, Triangle::kLower);
  EXPECT_EQ(lower.diagonal, -1);
  EXPECT_EQ(describe(lower.epilogue), "x0");
  EXPECT_EQ(gemm("kernelbench/level1/14_Matmul_for_upper_triangular_matrices").triangle, Triangle::kUpper);
  EXPECT_EQ(gemm("kernelbench/level1/15_Matmul_for_lower_triangular_matrices").triangle, Triangle::kLower);
  EXPECT_EQ(gemm("kernelbench/level1/13_Matmul_for_symmetric_matrices").triangle, Triangle::kNone);
}

TEST(RecognizeGemm, DiagonalTimesMatrixIsAnElementwiseScaling) {
  for (auto [name, d_strides] :
       {std::pair{"gemm_specs/diag_matmul", V{1, 0}}, std::pair{"gemm_specs/matmul_diag", V{0, 1}},
        std::pair{"kernelbench/level1/12_Matmul_with_diagonal_matrices_", V{1, 0}}}) {
    auto r = recognize(fixture(name));
    ASSERT_TRUE(r.ok()) << name << ": " << r.message();
    EXPECT_EQ(r->kind, TemplateKind::kElementwise) << name;
    ASSERT_EQ(r->operands.size(), 2u) << name;
    EXPECT_EQ(r->operands[0].strides, d_strides) << name << ": the diagonal, broadcast";
    EXPECT_TRUE(r->operands[1].dense) << name;
    EXPECT_FALSE(r->operands[0].c_name.empty()) << name << ": a view reads its base's ABI parameter";
    EXPECT_NEAR(eval_host(r->expr, {2.0, 3.0}), 6.0, 1e-12) << name;
  }
}

TEST(RecognizeGemm, TheExpertTakesAGemmOrSaysWhyItsKernelsCannot) {
  auto r = recognize(fixture("kernelbench/level1/8_Matmul_with_irregular_shapes_"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->kind, TemplateKind::kGemm);
  EXPECT_TRUE(r->summary.starts_with("gemm float32 (3xTF32): M=8205 N=5921 K=2949, A (A): row-major ld 2949"))
      << r->summary;
  auto odd = recognize(fixture("gemm_specs/mm_bf16_odd"));
  ASSERT_FALSE(odd.ok());
  EXPECT_TRUE(
      odd.message().starts_with("no template for this task; configure an LLM (ops: aten.mm.default; GEMM "
                                "recognized: gemm bfloat16 (native): M=1000 N=777 K=515"))
      << odd.message();
  EXPECT_TRUE(contains(odd.message(), " (no kernel: a 16-bit operand is not 16-byte aligned")) << odd.message();
}

// Every KernelBench level-2 Gemm/Matmul problem: recognized, or declined with its reason.
TEST(RecognizeGemm, KernelBenchLevel2) {
  const std::vector<std::pair<const char*, const char*>> expected = {
      {"9_Matmul_Subtract_Multiply_ReLU", ""},
      {"12_Gemm_Multiply_LeakyReLU", ""},
      {"14_Gemm_Divide_Sum_Scaling", "aten.sum.dim_IntList: a reduction epilogue"},
      {"18_Matmul_Sum_Max_AvgPool_LogSumExp_LogSumExp", "aten.sum.dim_IntList: a reduction epilogue"},
      {"22_Matmul_Scale_ResidualAdd_Clamp_LogSumExp_Mish", "aten.logsumexp.default: a reduction epilogue"},
      {"29_Matmul_Mish_Mish", ""},
      {"30_Gemm_GroupNorm_Hardtanh", "aten.native_group_norm.default: a reduction epilogue"},
      {"33_Gemm_Scale_BatchNorm", ""},  // inference batch norm: per channel
      {"37_Matmul_Swish_Sum_GroupNorm", "aten.native_group_norm.default: a reduction epilogue"},
      {"39_Gemm_Scale_BatchNorm", ""},  // inference batch norm: per channel
      {"40_Matmul_Scaling_ResidualAdd", ""},
      {"41_Gemm_BatchNorm_GELU_ReLU", ""},  // inference batch norm: per channel
      {"45_Gemm_Sigmoid_LogSumExp", "two matrix products"},
      {"51_Gemm_Subtract_GlobalAvgPool_LogSumExp_GELU_ResidualAdd", "aten.mean.dim: a reduction epilogue"},
      {"53_Gemm_Scaling_Hardtanh_GELU", ""},
      {"55_Matmul_MaxPool_Sum_Scale", "aten.max_pool2d_with_indices.default: a reduction epilogue"},
      {"56_Matmul_Sigmoid_Sum", "aten.sum.dim_IntList: a reduction epilogue"},
      {"59_Matmul_Swish_Scaling", ""},
      {"62_Matmul_GroupNorm_LeakyReLU_Sum", "aten.native_group_norm.default: a reduction epilogue"},
      {"63_Gemm_ReLU_Divide", ""},
      {"64_Gemm_LogSumExp_LeakyReLU_LeakyReLU_GELU_GELU", "aten.logsumexp.default: a reduction epilogue"},
      {"66_Matmul_Dropout_Softmax", "aten._softmax.default: a reduction epilogue"},
      {"68_Matmul_Min_Subtract", ""},
      {"70_Gemm_Sigmoid_Scaling_ResidualAdd", ""},
      {"75_Gemm_GroupNorm_Min_BiasAdd", "aten.native_group_norm.default: a reduction epilogue"},
      {"76_Gemm_Add_ReLU", ""},
      {"80_Gemm_Max_Subtract_GELU", "aten.max.dim: a reduction epilogue"},
      {"81_Gemm_Swish_Divide_Clamp_Tanh_Clamp", ""},
      {"84_Gemm_BatchNorm_Scaling_Softmax", "aten._softmax.default: a reduction epilogue"},
      {"86_Matmul_Divide_GELU", ""},
      {"88_Gemm_GroupNorm_Swish_Multiply_Swish", "aten.native_group_norm.default: a reduction epilogue"},
      {"94_Gemm_BiasAdd_Hardtanh_Mish_GroupNorm", "aten.native_group_norm.default: a reduction epilogue"},
      {"95_Matmul_Add_Swish_Tanh_GELU_Hardtanh", ""},
      {"97_Matmul_BatchNorm_BiasAdd_Divide_Swish", ""},  // inference batch norm: per channel
      {"98_Matmul_AvgPool_GELU_Scale_Max", "aten.avg_pool2d.default: a reduction epilogue"},
      {"99_Matmul_GELU_Softmax", "aten._softmax.default: a reduction epilogue"},
  };
  for (auto [name, reason] : expected) {
    auto r = recognize_gemm(fixture(std::string("kernelbench/level2/") + name));
    if (*reason == '\0') {
      EXPECT_TRUE(r.ok()) << name << ": " << r.message();
      if (r.ok()) {
        EXPECT_EQ((V{r->m, r->n}), (V{r->out_shape.front(), r->out_shape.back()})) << name;
      }
    } else {
      EXPECT_FALSE(r.ok()) << name << " was recognized: " << (r.ok() ? r->summary() : "");
      if (!r.ok()) {
        EXPECT_TRUE(contains(r.message(), reason)) << name << ": " << r.message();
      }
    }
  }
}

TEST(RecognizeGemm, KernelBenchLevel1Matmuls) {
  for (int i : {1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18}) {
    std::string prefix = std::to_string(i) + "_";
    bool found = false;
    for (auto& e :
         std::filesystem::directory_iterator(std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/kernelbench/level1"))
      if (e.path().filename().string().starts_with(prefix)) {
        found = true;
        auto r = recognize_gemm(fixture("kernelbench/level1/" + e.path().stem().string()));
        EXPECT_TRUE(r.ok()) << e.path() << ": " << r.message();
      }
    EXPECT_TRUE(found) << "no fixture for level-1 problem " << i;
  }
  // 5 is a matrix times a Python scalar and 12 an elementwise scaling: neither is a GEMM.
  auto scalar = recognize_gemm(fixture("kernelbench/level1/5_Matrix_scalar_multiplication"));
  ASSERT_FALSE(scalar.ok());
  EXPECT_TRUE(contains(scalar.message(), "no matrix product")) << scalar.message();
}

TEST(RecognizeGemm, DeclinesWithAReason) {
  auto softmax = recognize_gemm(fixture("gemm_specs/linear_softmax"));
  ASSERT_FALSE(softmax.ok());
  EXPECT_TRUE(contains(softmax.message(), "GEMM (M=128 N=512 K=256) followed by aten._softmax.default"))
      << softmax.message();
  auto relu = recognize_gemm(fixture("specs/relu"));
  ASSERT_FALSE(relu.ok());
  EXPECT_TRUE(contains(relu.message(), "no matrix product")) << relu.message();
}

TEST(Strided, RegroupSplitsAndMergesModes) {
  // [2, 3, 32, 48] with a broadcast first dim, read as [6, 32, 48].
  auto dims = regroup({{2, 0}, {3, 1536}, {32, 48}, {48, 1}}, {6, 32, 48});
  ASSERT_TRUE(dims.ok()) << dims.message();
  ASSERT_EQ((*dims)[0].size(), 2u);
  EXPECT_EQ((V{(*dims)[0][0].size, (*dims)[0][0].stride, (*dims)[0][1].size, (*dims)[0][1].stride}),
            (V{2, 0, 3, 1536}));
  EXPECT_EQ(merged((*dims)[1]).at(0).stride, 48);
  EXPECT_FALSE(regroup({{4, 1}}, {3}).ok());
  EXPECT_FALSE(regroup({{6, 1}}, {4}).ok());
  EXPECT_EQ(merged({{2, 6}, {3, 2}, {1, 99}, {2, 1}}).size(), 1u);
  EXPECT_EQ(*common_sizes({6}, {2, 3}), (V{2, 3}));
  EXPECT_FALSE(common_sizes({2, 3}, {3, 2}).ok());
  EXPECT_TRUE(is_dense_row_major({8, 1, 768}, {768, 1, 1}));
  EXPECT_FALSE(is_dense_row_major({2, 3}, {1, 2}));
}

}  // namespace
}  // namespace cutegen
