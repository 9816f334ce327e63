#include "eval/verdict.h"

#include <gtest/gtest.h>

#include "eval/roofline.h"
#include "eval/stats.h"

namespace cutegen {
namespace {

OutputStats stats(long long numel, long long bad) {
  OutputStats s;
  s.name = "out";
  s.numel = numel;
  s.bad = bad;
  s.has_ref64 = true;
  return s;
}

TEST(Verdict, Presets) {
  EXPECT_EQ(tolerance_preset("kernelbench", 0, 0, 10)->atol, 1e-2);
  EXPECT_EQ(tolerance_preset("strict", 0, 0, 10)->rtol, 1e-4);
  EXPECT_EQ(tolerance_preset("custom", 3e-3, 1e-3, 5)->atol, 3e-3);
  EXPECT_FALSE(tolerance_preset("loose", 0, 0, 10).ok());
  EXPECT_FALSE(tolerance_preset("kernelbench", 0, 0, 0.5).ok());
}

TEST(Verdict, PatternHints) {
  auto s = stats(100, 100);
  s.all_zero = true;
  EXPECT_EQ(pattern_hint(s), "all zero");
  s = stats(100, 100);
  s.nan = 100;
  EXPECT_NE(pattern_hint(s).find("nothing written"), std::string::npos);
  s = stats(100, 40);
  s.first_bad = 60, s.last_bad = 99, s.nan = 40;
  EXPECT_NE(pattern_hint(s).find("tail region: every element from index 60"), std::string::npos);
  s = stats(100, 50);
  s.first_bad = 1, s.last_bad = 99, s.bad_stride = 2;
  EXPECT_EQ(pattern_hint(s), "every 2-th element");
  s = stats(64, 60);
  s.transposed = true;
  EXPECT_NE(pattern_hint(s).find("transposed"), std::string::npos);
  s = stats(1000000, 3);
  s.first_bad = 5, s.last_bad = 900;
  EXPECT_NE(pattern_hint(s).find("scattered"), std::string::npos);
}

TEST(Verdict, AccuracyAgainstEagerCountsToo) {
  Tolerance tol{1e-2, 1e-2, 10};
  auto s = stats(100, 0);
  s.rel_err = 2e-4, s.eager_rel_err = 0;  // fp16 rounding where eager is exact
  auto j = judge_output(s, tol);
  EXPECT_FALSE(j.pass);
  EXPECT_EQ(j.hint, "precision loss");
  s.rel_err = 5e-6, s.eager_rel_err = 1e-6;  // within 10x of eager
  EXPECT_TRUE(judge_output(s, tol).pass);
  auto bad = stats(10, 1);
  bad.first_bad = 3;
  EXPECT_NE(describe_failure(bad, judge_output(bad, tol)).find("1 of 10 wrong, first at flat index 3"),
            std::string::npos);
}

TEST(Stats, SummaryAndSpeedupInterval) {
  auto s = summarize({5, 1, 3, 2, 4});
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  std::vector<double> eager, cand;
  for (int i = 0; i < 100; ++i)
    eager.push_back(2.0 + 0.01 * (i % 7)), cand.push_back(1.0 + 0.01 * (i % 5));
  auto iv = speedup_interval(eager, cand);
  EXPECT_NEAR(iv.point, 2.03 / 1.02, 1e-9);
  EXPECT_LE(iv.low, iv.point);
  EXPECT_GE(iv.high, iv.point);
  EXPECT_EQ(speedup_interval(eager, cand).low, iv.low);  // deterministic
}

TEST(Roofline, FloorAndImpossibleSpeed) {
  Ceilings c{"H200", 4.238e12, 7.9e14, 7.6e14, 3.8e14, 5.1e13};
  auto relu = roofline(2147483648.0, 0, "float32", c);
  EXPECT_EQ(relu.bound, RooflineLimit::kMemory);
  EXPECT_NEAR(relu.floor_ms, 0.5067, 1e-3);
  EXPECT_NEAR(roofline_fraction(relu, 0.54), 0.938, 1e-3);
  EXPECT_TRUE(impossible(relu, 0.3));
  EXPECT_FALSE(impossible(relu, 0.49));  // within measurement slack
  auto mm = roofline(3.0 * 8192 * 8192 * 2, 2.0 * 8192 * 8192 * 8192, "bfloat16", c);
  EXPECT_EQ(mm.bound, RooflineLimit::kCompute);
  EXPECT_EQ(mm.math_rate, "bf16");
  EXPECT_NEAR(mm.floor_ms, 2.0 * 8192 * 8192 * 8192 / 7.9e14 * 1e3, 1e-9);
  // float32 tasks are bounded by the TF32 rate: a tolerance of 1e-2 admits tensor-core math.
  EXPECT_EQ(roofline(0, 1e12, "float32", c).math_rate, "tf32");
}

}  // namespace
}  // namespace cutegen
