// Why the first 3xTF32 kernels lost accuracy on long K, and that per-k-tile promotion does not:
// a host emulation of the tensor cores' fp32 accumulation, checked against float64.
//
// The model (after Fasi et al., "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021, for
// tf32 on A100; Hopper is reported alike): one hardware step adds a block of `block` exact products
// to the accumulator: every term is aligned to the largest exponent among them and the
// accumulator, cut to 24 + `guard` significant bits there (truncation), summed, and the result
// truncated to fp32. Truncation, unlike rounding to nearest, errs toward zero at every step, so
// over a long sum whose sign persists the error grows linearly in the number of steps.
//
// Schemes over one dot product of length K (each of the GEMM's outputs is one):
//   eager fp32   a chain of fp32 FMAs, rounded to nearest (cuBLAS SGEMM's inner loop);
//   old 3xTF32   hi*hi over all of K, then hi*lo, then lo*hi, in one tensor-core accumulator
//                (the first kernels: one tf32 GEMM over K-concatenated split operands);
//   new 3xTF32   per 32-wide k-tile: hi*lo, lo*hi, hi*hi in a zeroed tensor-core partial, then
//                one fp32 add (rounded to nearest) into the accumulator, every k-tile or every few
//                (mainloop_3xtf32.cuh splitting in shared memory, mainloop_promoting.cuh over
//                split_tf32_kernel.cuh's per-k-tile HiLoHi / LoHiHi parts: the same sums).
#include "tf32_split.cuh"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace cutegen::gemm {
namespace {

struct TensorCoreModel {
  int block;  // products per hardware step
  int guard;  // extra bits kept below the accumulator's 24 when aligning
};

double truncate_to_bits(double x, int exponent, int bits) {  // toward zero, to multiples of 2^(exponent - bits)
  double quantum = std::ldexp(1.0, exponent - bits);
  return std::trunc(x / quantum) * quantum;
}

float tensor_core_step(TensorCoreModel model, float acc, double const* products, int count) {
  int top = acc != 0.0f ? std::ilogb(acc) + 1 : -1000;
  for (int i = 0; i < count; ++i)
    if (products[i] != 0.0) top = std::max(top, std::ilogb(products[i]) + 1);
  if (top == -1000) return 0.0f;
  double sum = truncate_to_bits(acc, top, 24 + model.guard);
  for (int i = 0; i < count; ++i)
    sum += truncate_to_bits(products[i], top, 24 + model.guard);
  if (sum == 0.0) return 0.0f;
  return float(truncate_to_bits(sum, std::ilogb(sum) + 1, 24));
}

// Runs `products` through the tensor-core model, `model.block` at a time, starting from `acc`.
float tensor_core_sum(TensorCoreModel model, float acc, std::vector<double> const& products) {
  for (size_t i = 0; i < products.size(); i += size_t(model.block))
    acc = tensor_core_step(model, acc, products.data() + i, int(std::min(products.size() - i, size_t(model.block))));
  return acc;
}

enum class Term { HiHi, HiLo, LoHi };

std::vector<double> products(std::vector<float> const& a, std::vector<float> const& b, Term term, size_t begin,
                             size_t end) {
  std::vector<double> out;
  for (size_t k = begin; k < end; ++k) {
    Tf32Pair x = split_tf32(a[k]), y = split_tf32(b[k]);
    double l = term == Term::LoHi ? x.lo : x.hi, r = term == Term::HiLo ? y.lo : y.hi;
    out.push_back(l * r);  // exact: 11-bit significands
  }
  return out;
}

float eager_fp32(std::vector<float> const& a, std::vector<float> const& b) {
  float acc = 0.0f;
  for (size_t k = 0; k < a.size(); ++k)
    acc = std::fma(a[k], b[k], acc);
  return acc;
}

float old_3xtf32(TensorCoreModel model, std::vector<float> const& a, std::vector<float> const& b) {
  float acc = 0.0f;
  for (Term term : {Term::HiHi, Term::HiLo, Term::LoHi})
    acc = tensor_core_sum(model, acc, products(a, b, term, 0, a.size()));
  return acc;
}

// `promote_every` k-tiles of 32 accumulate in the tensor-core partial before it is promoted.
float new_3xtf32(TensorCoreModel model, std::vector<float> const& a, std::vector<float> const& b, int promote_every) {
  size_t span = 32 * size_t(promote_every);
  float acc = 0.0f;
  for (size_t k0 = 0; k0 < a.size(); k0 += span) {
    size_t k1 = std::min(a.size(), k0 + span);
    float partial = 0.0f;
    for (Term term : {Term::HiLo, Term::LoHi, Term::HiHi})
      partial = tensor_core_sum(model, partial, products(a, b, term, k0, k1));
    acc += partial;  // an ordinary fp32 add, rounded to nearest
  }
  return acc;
}

struct Errors {
  double eager, old_scheme, new_scheme;
};

// max |out - exact| / max |exact| over `outputs` dot products of length k, as the GPU benchmark measures.
Errors relative_errors(TensorCoreModel model, int k, int outputs, int promote_every = 1) {
  std::mt19937 rng{uint32_t(k)};
  std::normal_distribution<float> normal;
  double worst[3] = {0, 0, 0}, largest = 0;
  for (int o = 0; o < outputs; ++o) {
    std::vector<float> a(static_cast<size_t>(k)), b(static_cast<size_t>(k));
    for (auto& x : a)
      x = normal(rng);
    for (auto& x : b)
      x = normal(rng);
    double exact = 0;
    for (int i = 0; i < k; ++i)
      exact += double(a[size_t(i)]) * b[size_t(i)];
    float got[3] = {eager_fp32(a, b), old_3xtf32(model, a, b), new_3xtf32(model, a, b, promote_every)};
    for (int s = 0; s < 3; ++s)
      worst[s] = std::max(worst[s], std::fabs(double(got[s]) - exact));
    largest = std::max(largest, std::fabs(exact));
  }
  return {worst[0] / largest, worst[1] / largest, worst[2] / largest};
}

class Tf32Accumulation : public ::testing::TestWithParam<TensorCoreModel> {};

// Emulated on 24 outputs (relative errors; block 8, guard 3 gives the old scheme's 1.5e-3 at
// K = 131072, near the 1.3e-3 the H200 measured):
//   K       eager    old (block 4 / block 8+3)   new
//   4096    1.9e-6   5.8e-6 / 5.5e-5             2.0e-7
//   65536   7.6e-6   3.1e-5 / 9.2e-4             1.1e-6 / 1.9e-6
TEST_P(Tf32Accumulation, PromotedPerKTileStaysWellWithinEagerFp32WhereOneAccumulatorDrifts) {
  for (int k : {4096, 65536}) {
    Errors e = relative_errors(GetParam(), k, 24);
    EXPECT_LE(e.new_scheme, e.eager / 2) << "k=" << k;
    EXPECT_GT(e.old_scheme, 10 * e.new_scheme) << "k=" << k << ": the model should reproduce the old scheme's drift";
  }
}

INSTANTIATE_TEST_SUITE_P(BlockAndGuardBits, Tf32Accumulation,
                         ::testing::Values(TensorCoreModel{4, 0}, TensorCoreModel{8, 3}), [](auto const& info) {
                           return "block" + std::to_string(info.param.block) + "_guard" +
                                  std::to_string(info.param.guard);
                         });

// Fewer promotions (the mainloop's PromoteEvery: one full wgmma wait per that many k-tiles) let the
// partial run over a longer span; emulated (block 8 + 3 guard bits), promoting every 1 / 2 / 4 / 8
// k-tiles at K = 65536: 1.9e-6 / 1.3e-6 / 5.4e-7 / 6.6e-7, eager fp32 7.6e-6 (sampling noise on 24
// outputs exceeds the spans' difference).
TEST(Tf32Accumulation, PromotingEveryFewKTilesStaysWellWithinEagerFp32) {
  for (int every : {2, 4, 8}) {
    Errors e = relative_errors(TensorCoreModel{8, 3}, 65536, 24, every);
    EXPECT_LE(e.new_scheme, e.eager / 2) << "promote every " << every;
  }
}

TEST(Tf32Accumulation, TruncatingStepDropsBitsBelowTheLargestTerm) {
  TensorCoreModel model{4, 0};
  double products[2] = {1.0, std::ldexp(1.0, -30)};  // the small term lies below 1.0's 24 bits
  EXPECT_EQ(tensor_core_step(model, 0.0f, products, 2), 1.0f);
  double negative[2] = {-1.0, -std::ldexp(1.5, -23)};  // -1 - 1.5 ulp truncates toward zero to -1 - 1 ulp
  EXPECT_EQ(tensor_core_step(model, 0.0f, negative, 2), -1.0f - std::ldexp(1.0f, -23));
}

}  // namespace
}  // namespace cutegen::gemm
