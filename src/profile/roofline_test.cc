// Verdicts on the real captures against the H200's measured ceilings.
#include "profile/roofline.h"

#include <gtest/gtest.h>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string testdata(const std::string& name) {
  return std::string(CUTEGEN_SOURCE_DIR) + "/src/profile/testdata/" + name;
}

std::vector<KernelCounters> kernels(const std::string& name) {
  std::vector<KernelCounters> out;
  auto table = parse_ncu_csv(*read_file(testdata(name)));
  for (auto& row : table->kernels)
    out.push_back(counters_from_row(row));
  return out;
}

RooflineCeilings h200() { return *load_ceilings(testdata("h200_ceilings.json")); }

TEST(Roofline, CeilingsFromTheMeasuredFile) {
  auto c = h200();
  EXPECT_NEAR(c.dram_bytes_per_s, 4.238e12, 1e9);
  EXPECT_NEAR(c.flops_per_s.at("bf16"), 797.9e12, 1e11);  // the best size wins
  EXPECT_NEAR(c.flops_per_s.at("fp32"), 51.0e12, 1e11);
  EXPECT_FALSE(load_ceilings(testdata("ncu_relu.csv")).ok());
}

TEST(Roofline, ReluIsMemoryBoundAtTheBandwidthCeiling) {
  auto k = kernels("ncu_relu.csv");
  auto v = classify(k[0], h200());
  EXPECT_EQ(v.bound, Bound::kMemory);
  EXPECT_NEAR(v.dram_fraction, 1.0, 0.02);
  TaskCost cost{.min_bytes = 2.0 * 4096 * 65536 * 4, .flops = 4096.0 * 65536, .dtype = "fp32"};
  auto f = analyze_forward(k, cost, h200());
  EXPECT_NEAR(f.excess_traffic, 1.0, 0.02);
  EXPECT_EQ(f.ideal_limit, RooflineLimit::kMemory);
  EXPECT_NEAR(f.ceiling_fraction, 1.0, 0.03);
}

TEST(Roofline, MatmulIsComputeBoundNearTheTensorCeiling) {
  auto k = kernels("ncu_matmul.csv");
  EXPECT_EQ(classify(k[0], h200()).bound, Bound::kCompute);
  TaskCost cost{.min_bytes = 3.0 * 4096 * 4096 * 2, .flops = 2.0 * 4096 * 4096 * 4096, .dtype = "bf16"};
  auto f = analyze_forward(k, cost, h200());
  EXPECT_EQ(f.ideal_limit, RooflineLimit::kCompute);
  EXPECT_GT(f.ceiling_fraction, 0.9);
  EXPECT_LT(f.ceiling_fraction, 1.05);
}

TEST(Roofline, SeveralKernelsAddUpAndTheLongestDominates) {
  auto k = kernels("ncu_linear_relu.csv");
  auto c = h200();
  EXPECT_EQ(classify(k[0], c).bound, Bound::kCompute);  // the fp32 GEMM
  EXPECT_EQ(classify(k[1], c).bound, Bound::kLatency);  // the clamp: 57% of peak in 16 us
  auto f = analyze_forward(k, {.min_bytes = 0, .flops = 0, .dtype = ""}, c);
  EXPECT_DOUBLE_EQ(f.total_ns, 1356704 + 16352 + 28960);
  EXPECT_EQ(f.dominant, Bound::kCompute);
  EXPECT_LT(f.excess_traffic, 0);  // no minimum known
  EXPECT_LT(f.ceiling_fraction, 0);
}

TEST(Roofline, TinyGridIsLaunchBound) {
  KernelCounters k;
  k.sm_throughput_pct = 3;
  k.memory_throughput_pct = 5;
  k.waves_per_sm = 0.01;
  k.duration_ns = 3000;
  auto v = classify(k, RooflineCeilings{});
  EXPECT_EQ(v.bound, Bound::kLatency);
  EXPECT_NE(v.why.find("launch-bound"), std::string::npos) << v.why;
}

}  // namespace
}  // namespace cutegen
