// The fp16x3 split's error bounds, on the host, with the header the GPU pre-pass uses.
#include "fp16_split.cuh"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace cutegen::gemm {
namespace {

// Values of both signs, mantissas uniform, magnitudes 2^-30 to 2^15 (fp16's range ends at 65504).
std::vector<float> sample_floats(int count) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-30, 14);
  std::vector<float> xs;
  for (int i = 0; i < count; ++i) {
    float x = std::ldexp(mantissa(rng), exponent(rng));
    xs.push_back(i % 2 ? -x : x);
  }
  return xs;
}

double value(cutlass::half_t h) { return double(float(h)); }

TEST(Fp16Split, PartsSumToXWithin2ToMinus22RelativeOr2ToMinus25Absolute) {
  for (float x : sample_floats(200000)) {
    HalfPair p = split_half(x);
    double err = std::fabs(double(x) - (value(p.hi) + value(p.lo)));
    // lo normal (|x| >= 2^-3): relative; below, half the subnormal spacing (2^-24) plus hi's own
    // subnormal rounding where |x| < 2^-14.
    double bound = std::fabs(x) >= 0x1p-3 ? std::ldexp(std::fabs(double(x)), -22) : 0x1p-25;
    ASSERT_LE(err, bound) << x;
    ASSERT_LE(std::fabs(value(p.lo)), std::ldexp(std::fabs(double(x)), -11) * (1 + 0x1p-11) + 0x1p-25) << x;
  }
}

TEST(Fp16Split, ThreeProductsMatchTheExactProductWithin3Times2ToMinus22) {
  // Operands of unit scale (2^-3 to 2^3), where every part is a normal fp16.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(0.125f, 8.0f);
  for (int i = 0; i < 100000; ++i) {
    float a = i % 2 ? u(rng) : -u(rng), b = u(rng);
    HalfPair pa = split_half(a), pb = split_half(b);
    double exact = double(a) * double(b);
    double three = value(pa.hi) * value(pb.hi) + value(pa.hi) * value(pb.lo) + value(pa.lo) * value(pb.hi);
    ASSERT_LE(std::fabs(exact - three), 3.001 * std::ldexp(std::fabs(exact), -22)) << a << " * " << b;
  }
}

TEST(Fp16Split, HiRoundsToNearestEvenAndOverflowsPastTheRange) {
  float one = 1.0f, ulp = 0x1p-10f;  // fp16's spacing just above 1, as tf32's
  EXPECT_EQ(float(split_half(one + ulp * 0.49f).hi), one);
  EXPECT_EQ(float(split_half(one + ulp * 0.5f).hi), one);  // tie: 1 is even
  EXPECT_EQ(float(split_half(one + ulp * 1.5f).hi), one + 2 * ulp);
  EXPECT_EQ(float(split_half(one + 0x1p-12f).lo), 0x1p-12f) << "the remainder, exactly where it fits fp16";
  EXPECT_TRUE(std::isinf(float(split_half(70000.0f).hi))) << "outside fp16's range: why fp16x3 is a search point";
}

}  // namespace
}  // namespace cutegen::gemm
