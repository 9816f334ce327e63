// Workload classes from the op names the real bridge records (tests/fixtures/specs), and from
// each name form it may write.
#include "agent/workload.h"

#include <gtest/gtest.h>

#include <map>

#include "agent/recorded_fixtures.h"

namespace cutegen {
namespace {

// What a performance engineer calls each task in tasks/; a new task must be added here.
const std::map<std::string, std::string> kTaskClasses = {
    {"argmax_dim", "reduction"},
    {"batched_matmul", "gemm"},
    {"frobenius_norm", "reduction"},
    {"gelu_tanh", "elementwise"},
    {"l1norm_odd_rows", "reduction"},
    {"l2norm", "reduction"},
    {"l2norm_embeddings", "reduction"},
    {"layernorm", "reduction"},
    {"layernorm_long", "reduction"},
    {"layernorm_long_ragged", "reduction"},
    {"layernorm_rows_768", "reduction"},
    {"linear_bias_relu", "gemm"},
    {"linear_multiply_leaky", "gemm"},
    {"log_softmax", "reduction"},
    {"conv2d_bias_relu", "conv"},
    {"conv2d_gelu_mean", "conv"},
    {"conv2d_group_norm", "conv"},
    {"conv2d_min_tanh", "conv"},
    {"depthwise_conv", "conv"},
    {"conv2d_depthwise_separable", "conv"},
    {"conv_transpose2d_strided", "conv"},
    {"log_softmax_classes", "reduction"},
    {"matmul_bf16", "gemm"},
    {"matmul_bf16_4096", "gemm"},
    {"matmul_fp16", "gemm"},
    {"matmul_fp16_4096", "gemm"},
    {"matmul_fp32", "gemm"},
    {"new_gelu", "elementwise"},
    {"relu", "elementwise"},
    {"rmsnorm", "reduction"},
    {"scale_bias_leaky", "elementwise"},
    {"selu", "elementwise"},
    {"sigmoid", "elementwise"},
    {"softmax", "reduction"},
    {"softmax_small_odd", "reduction"},
    {"sum_dim", "reduction"},
};

std::string class_of(const std::vector<std::string>& ops) { return name(classify_workload(ops)); }

TEST(Workload, EveryTaskIsClassifiedFromItsRecordedOps) {
  auto tasks = task_names();
  ASSERT_FALSE(tasks.empty());
  for (auto& task : tasks) {
    auto spec = recorded_spec(task);
    ASSERT_TRUE(spec.ok()) << spec.message() << " (run scripts/record-fixtures)";
    auto want = kTaskClasses.find(task);
    ASSERT_NE(want, kTaskClasses.end()) << "tasks/" << task << ".py has no expected class in kTaskClasses";
    EXPECT_EQ(class_of(spec->ops), want->second) << task << ": " << testing::PrintToString(spec->ops);
  }
  for (auto& [task, cls] : kTaskClasses)
    EXPECT_TRUE(std::find(tasks.begin(), tasks.end(), task) != tasks.end()) << task << " is not in tasks/";
}

TEST(Workload, EveryNameFormTheBridgeMayWrite) {
  // OpOverload names, as the bridge records them.
  EXPECT_EQ(class_of({"aten.t.default", "aten.addmm.default", "aten.relu.default"}), "gemm");
  EXPECT_EQ(class_of({"aten.convolution.default"}), "conv");
  EXPECT_EQ(class_of({"aten._softmax.default"}), "reduction");
  EXPECT_EQ(class_of({"aten.native_layer_norm.default"}), "reduction");
  EXPECT_EQ(class_of({"aten.sum.dim_IntList"}), "reduction");
  EXPECT_EQ(class_of({"aten.mse_loss.default"}), "loss");
  EXPECT_EQ(class_of({"aten.sort.default"}), "other");
  EXPECT_EQ(class_of({"aten.view.default", "aten.t.default"}), "other");  // shapes only
  EXPECT_EQ(class_of({"aten.mul.Tensor", "aten.tanh.default"}), "elementwise");
  // A packet ("aten.mm"), the schema form ("aten::mm.out") and another namespace.
  EXPECT_EQ(class_of({"aten.mm"}), "gemm");
  EXPECT_EQ(class_of({"aten::mm.out"}), "gemm");
  EXPECT_EQ(class_of({"prims.convert_element_type.default"}), "elementwise");  // "convert" is no conv
  EXPECT_EQ(class_of({"aten.upsample_bilinear2d.vec"}), "other");              // "bilinear" is no GEMM
  EXPECT_EQ(class_of({"aten.argsort.default"}), "other");
}

TEST(Workload, EachClassHasItsProfileDepthAndTemplate) {
  const std::map<std::string, std::pair<int, std::string>> want = {{"elementwise", {2, "optimize_elementwise"}},
                                                                   {"loss", {3, "optimize_reduction"}},
                                                                   {"reduction", {5, "optimize_reduction"}},
                                                                   {"gemm", {6, "optimize_gemm"}},
                                                                   {"conv", {6, "optimize_conv"}},
                                                                   {"other", {4, "optimize_other"}}};
  for (auto& [cls, depth_template] : want) {
    auto w = parse_name<Workload>(cls);
    ASSERT_TRUE(w) << cls;
    EXPECT_EQ(default_profile_after(*w), depth_template.first) << cls;
    EXPECT_EQ(optimize_template(*w), depth_template.second) << cls;
  }
  EXPECT_EQ(want.size(), name_table<Workload>().size());
}

}  // namespace
}  // namespace cutegen
