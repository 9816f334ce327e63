// Counters read from the real captures, and the promise that the curated --metrics list asks
// for exactly what the parser reads, every name of it seen on the H200.
#include "profile/metrics.h"

#include <gtest/gtest.h>

#include "core/strings.h"
#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

NcuTable table(const std::string& name) {
  return *parse_ncu_csv(*read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/profile/testdata/" + name));
}

TEST(Metrics, CuratedListIsReadAndWasSeenOnTheH200) {
  auto header = table("ncu_matmul.csv").kernels[0].metrics;
  auto names = split(curated_metric_list(false), ',');
  EXPECT_GT(names.size(), 30u);
  for (auto& n : names)
    EXPECT_TRUE(header.count(n)) << n << " is asked for but not in the H200 capture";
  for (auto& f : metric_fields())
    EXPECT_EQ(contains(curated_metric_list(false), f.metric), !f.extended) << f.metric;
  EXPECT_GT(split(curated_metric_list(true), ',').size(), names.size());
}

TEST(Metrics, MatmulCounters) {
  auto k = counters_from_row(table("ncu_matmul.csv").kernels[0]);
  EXPECT_EQ(k.name, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT");
  EXPECT_EQ(k.grid, "(2, 66, 1)");
  EXPECT_DOUBLE_EQ(k.duration_ns, 176416);
  EXPECT_DOUBLE_EQ(k.sm_throughput_pct, 90.68);
  EXPECT_DOUBLE_EQ(k.tensor_pipe_pct, 95.10);
  EXPECT_DOUBLE_EQ(k.theoretical_occupancy_pct, 18.75);
  EXPECT_DOUBLE_EQ(k.registers_per_thread, 168);
  EXPECT_DOUBLE_EQ(k.l2_hit_pct, 71.19);
  ASSERT_GE(k.stalls.size(), 3u);
  EXPECT_EQ(k.stalls[0].reason, "barrier");
  EXPECT_DOUBLE_EQ(k.stalls[0].cycles, 5.99);
  EXPECT_FALSE(is_reported(k.dram_read_bytes));  // an extended metric: not in this capture
  // No read/write split: rate x duration.
  EXPECT_NEAR(k.dram_bytes(), 996485398149.83 * 176416e-9, 1);
}

TEST(Metrics, EveryKernelOfTheForwardHasItsOwnCounters) {
  auto t = table("ncu_linear_relu.csv");
  std::vector<double> durations;
  for (auto& row : t.kernels)
    durations.push_back(counters_from_row(row).duration_ns);
  EXPECT_EQ(durations, (std::vector<double>{1356704, 16352, 28960}));
}

TEST(Metrics, ScaledUnitsAreBroughtToBase) {
  NcuKernelRow row;
  row.metrics["gpu__time_duration.sum"] = {"1.5", "usecond", 1.5, true};
  row.metrics["dram__bytes.sum.per_second"] = {"2", "Tbyte/second", 2, true};
  auto k = counters_from_row(row);
  EXPECT_DOUBLE_EQ(k.duration_ns, 1500);
  EXPECT_DOUBLE_EQ(k.dram_bytes_per_s, 2e12);
  EXPECT_FALSE(is_reported(k.sm_throughput_pct));
}

}  // namespace
}  // namespace cutegen
