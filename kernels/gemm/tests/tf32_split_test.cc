// The 3xTF32 split's error bounds, on the host, with the header the GPU pre-pass uses.
#include "tf32_split.cuh"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace cutegen::gemm {
namespace {

bool is_tf32(float x) { return (float_bits(x) & kTf32DroppedBits) == 0; }

// Normal floats of every sign and magnitude from 2^-100 to 2^100, mantissas uniform.
std::vector<float> sample_floats(int count) {
  std::mt19937 rng(27);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-100, 100);
  std::vector<float> xs;
  for (int i = 0; i < count; ++i) {
    float x = std::ldexp(mantissa(rng), exponent(rng));
    xs.push_back(i % 2 ? -x : x);
  }
  return xs;
}

TEST(Tf32Split, PartsAreTf32AndSumToXWithin2ToMinus22) {
  for (float x : sample_floats(200000)) {
    Tf32Pair p = split_tf32(x);
    ASSERT_TRUE(is_tf32(p.hi) && is_tf32(p.lo)) << x;
    double err = std::fabs(double(x) - (double(p.hi) + double(p.lo)));
    ASSERT_LE(err, std::ldexp(std::fabs(double(x)), -22)) << x;
    ASSERT_LE(std::fabs(double(p.lo)), std::ldexp(std::fabs(double(x)), -11) * (1 + std::ldexp(1.0, -11))) << x;
  }
}

TEST(Tf32Split, ThreeProductsMatchTheExactProductWithin3Times2ToMinus22) {
  auto xs = sample_floats(100000);
  for (size_t i = 0; i + 1 < xs.size(); i += 2) {
    float a = xs[i];
    float b = std::ldexp(xs[i + 1], -std::ilogb(xs[i + 1]));  // |b| in [1, 2): a*b stays normal
    Tf32Pair pa = split_tf32(a), pb = split_tf32(b);
    double exact = double(a) * double(b);
    double three = double(pa.hi) * pb.hi + double(pa.hi) * pb.lo + double(pa.lo) * pb.hi;
    ASSERT_LE(std::fabs(exact - three), 3.001 * std::ldexp(std::fabs(exact), -22)) << a << " * " << b;
  }
}

TEST(Tf32Split, RoundsToNearestEven) {
  float one = 1.0f, ulp = 0x1p-10f;  // tf32's spacing just above 1
  EXPECT_EQ(round_to_tf32(one + ulp * 0.49f), one);
  EXPECT_EQ(round_to_tf32(one + ulp * 0.51f), one + ulp);
  EXPECT_EQ(round_to_tf32(one + ulp * 0.5f), one);            // tie: 1 is even
  EXPECT_EQ(round_to_tf32(one + ulp * 1.5f), one + 2 * ulp);  // tie: 1 + 2 ulp is even
  EXPECT_EQ(round_to_tf32(-(one + ulp * 0.51f)), -(one + ulp));
}

TEST(Tf32Split, LargestFloatStaysFiniteAndSpecialValuesPassThrough) {
  Tf32Pair big = split_tf32(FLT_MAX);
  EXPECT_TRUE(std::isfinite(big.hi));
  // hi is truncated here (rounding up would overflow), so the bound is one bit weaker.
  EXPECT_LE(std::fabs(double(FLT_MAX) - (double(big.hi) + double(big.lo))), std::ldexp(double(FLT_MAX), -21));
  Tf32Pair inf = split_tf32(std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isinf(inf.hi));
  EXPECT_EQ(inf.lo, 0.0f);
  EXPECT_TRUE(std::isnan(split_tf32(std::numeric_limits<float>::quiet_NaN()).hi));
  EXPECT_EQ(split_tf32(0.0f).hi, 0.0f);
  EXPECT_EQ(split_tf32(0.0f).lo, 0.0f);
}

}  // namespace
}  // namespace cutegen::gemm
