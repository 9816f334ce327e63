// The fp16x3 split's error bounds, on the host, with the header the GPU pre-pass uses.
#include "fp16_split.cuh"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
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
  EXPECT_TRUE(std::isinf(float(split_half(70000.0f).hi))) << "outside fp16's range: why the operands are scaled first";
}

TEST(Fp16Split, TheScalePutsTheLargestMagnitudeIn2To14Through2To15) {
  for (float most : {1.0f, 65504.0f, 0x1p-100f, 0x1p100f, 3.0e38f, 0x1p-112f, 0.75f}) {
    int k = fp16_scale_exponent(float_bits(most));
    double scaled = std::ldexp(double(most), k);
    EXPECT_GE(scaled, 0x1p14) << most;
    EXPECT_LT(scaled, 0x1p15) << most;
    EXPECT_EQ(double(power_of_two(k)), std::ldexp(1.0, k)) << most;
    EXPECT_EQ(power_of_two(k) * power_of_two(-k), 1.0f) << "the split's unscale undoes its scale exactly";
  }
  EXPECT_EQ(fp16_scale_exponent(float_bits(0.0f)), 0);
  EXPECT_EQ(fp16_scale_exponent(float_bits(INFINITY)), 0) << "passed on as fp32 would";
  EXPECT_EQ(fp16_scale_exponent(float_bits(0x1p-140f)), 0) << "subnormal: its products vanish in fp32 too";
  EXPECT_EQ(fp16_scale_exponent(float_bits(1.5e-38f)), 126) << "clamped below 2^-112, so that 2^k stays a float";
}

// Operands of any scale in fp32's range, scaled by their largest magnitude and split, then scaled
// back: within 2^-22 of each element, or 2^-39 of the largest, never overflowing.
TEST(Fp16Split, ScaledPartsHoldOperandsOfAnyScale) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (int scale : {-120, -60, -20, 0, 20, 60, 110}) {
    std::vector<float> xs;
    float most = 0;
    for (int i = 0; i < 4096; ++i) {
      xs.push_back(std::ldexp(unit(rng), scale + i % 24 - 12));  // 24 binades below and above
      most = std::max(most, std::fabs(xs.back()));
    }
    int k = fp16_scale_exponent(float_bits(most));
    for (float x : xs) {
      HalfPair p = split_half(x * power_of_two(k));
      ASSERT_TRUE(std::isfinite(float(p.hi)) && std::isfinite(float(p.lo))) << x;
      double back = (value(p.hi) + value(p.lo)) * double(power_of_two(-k));  // the epilogue's unscale
      ASSERT_LE(std::fabs(back - x), std::max(std::ldexp(std::fabs(double(x)), -22), std::ldexp(double(most), -39)))
          << x << " of largest " << most;
    }
  }
}

// The measure's chunks cover every element of the operand exactly once and nothing else: K-major
// rows (one line in several chunks, padded rows), rows contiguous (a transposed operand: the lines
// are its columns), and batches.
TEST(Fp16Split, MeasureChunksCoverEachElementOnce) {
  struct Operand {
    int64_t stride_row, stride_k, stride_batch;
    int rows, k, batches;
  };
  for (Operand o : {Operand{4104, 1, 5 * 4104, 5, 4100, 3}, Operand{1, 3000, 7 * 3000, 3000, 7, 2},
                    Operand{32, 1, 0, 33, 32, 1}, Operand{1, 2048, 0, 2048, 2049, 1}}) {
    MeasureLines lines(o.stride_row, o.stride_k, o.stride_batch, o.rows, o.k);
    std::vector<int> seen(
        size_t(o.batches > 1 ? o.batches * o.stride_batch : o.rows * o.stride_row + o.k * o.stride_k));
    for (int64_t u = 0; u < lines.units(o.batches); ++u) {
      MeasureLines::Chunk c = lines.chunk(u);
      ASSERT_LE(c.end - c.begin, kMeasureChunk);
      for (int i = c.begin; i < c.end; ++i)
        ++seen.at(size_t(c.first + i * lines.step));
    }
    for (int b = 0; b < o.batches; ++b)
      for (int r = 0; r < o.rows; ++r)
        for (int kk = 0; kk < o.k; ++kk)
          ASSERT_EQ(std::exchange(seen[size_t(b * o.stride_batch + r * o.stride_row + kk * o.stride_k)], 0), 1)
              << "batch " << b << " row " << r << " k " << kk;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 0), int64_t(seen.size())) << "nothing outside the operand";
  }
}

}  // namespace
}  // namespace cutegen::gemm
