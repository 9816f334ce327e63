// The parser on real Nsight Compute captures from an H200 (ncu 2025.3.1, --csv --page raw).
#include "profile/ncu_csv.h"

#include <gtest/gtest.h>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string capture(const std::string& name) {
  return *read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/profile/testdata/" + name);
}

TEST(NcuCsv, OneElementwiseKernelWithUnitsKept) {
  auto t = parse_ncu_csv(capture("ncu_relu.csv"));
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(t->kernels.size(), 1u);
  EXPECT_EQ(t->messages.size(), 3u);  // the ==WARNING== and ==PROF== lines before the CSV
  auto& m = t->kernels[0].metrics;
  EXPECT_NE(t->kernels[0].name.find("elementwise"), std::string::npos) << t->kernels[0].name;
  EXPECT_EQ(m.at("gpu__time_duration.sum").unit, "ns");
  EXPECT_DOUBLE_EQ(m.at("gpu__time_duration.sum").value, 501984);
  EXPECT_EQ(m.at("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed").unit, "%");
  EXPECT_DOUBLE_EQ(m.at("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed").value, 87.91);
  EXPECT_FALSE(m.at("derived__local_spilling_requests_pct").numeric);  // "no data"
}

TEST(NcuCsv, ForwardWithThreeKernelsInLaunchOrder) {
  auto t = parse_ncu_csv(capture("ncu_linear_relu.csv"));
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(t->kernels.size(), 3u);
  EXPECT_NE(t->kernels[0].name.find("gemm"), std::string::npos);
  EXPECT_NE(t->kernels[1].name.find("clamp"), std::string::npos);
  EXPECT_NE(t->kernels[2].name.find("SoftMax"), std::string::npos);
  EXPECT_DOUBLE_EQ(t->kernels[0].metrics.at("gpu__time_duration.sum").value, 1356704);
  EXPECT_EQ(t->kernels[0].metrics.at("Grid Size").text, "(16, 32, 1)");
}

TEST(NcuCsv, MatmulKeepsQuotedFieldsWhole) {
  auto t = parse_ncu_csv(capture("ncu_matmul.csv"));
  ASSERT_TRUE(t.ok()) << t.message();
  ASSERT_EQ(t->kernels.size(), 1u);
  auto& range = t->kernels[0].metrics.at("thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg");
  EXPECT_NE(range.text.find("cutegen_profile"), std::string::npos) << range.text;
  EXPECT_EQ(t->kernels[0].metrics.at("launch__registers_per_thread").unit, "register/thread");
}

TEST(NcuCsv, NoCsvIsAnEmptyTableAndARaggedRowIsAnError) {
  auto empty = parse_ncu_csv("==PROF== Connected\n==WARNING== No kernels were profiled.\n");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->kernels.empty());
  EXPECT_EQ(empty->messages.size(), 2u);
  auto ragged = parse_ncu_csv("\"ID\",\"Kernel Name\",\"x\"\n\"\",\"\",\"ns\"\n\"0\",\"k\"\n");
  EXPECT_FALSE(ragged.ok());
  EXPECT_FALSE(parse_ncu_csv("\"ID\",\"x\"\n\"0\",\"1\"\n").ok());
}

TEST(NcuCsv, FieldsAndNumbers) {
  auto f = split_csv_line(R"("a","b,c","say ""hi""",)");
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[1], "b,c");
  EXPECT_EQ(f[2], "say \"hi\"");
  double v = 0;
  EXPECT_TRUE(parse_ncu_number("4,230,143,175,878.12", &v));
  EXPECT_DOUBLE_EQ(v, 4230143175878.12);
  EXPECT_FALSE(parse_ncu_number("no data", &v));
  EXPECT_FALSE(parse_ncu_number("(384, 1, 1)", &v));
  EXPECT_FALSE(parse_ncu_number("", &v));
}

}  // namespace
}  // namespace cutegen
