// Splitting an fp32 value into two tf32 values (hi + lo), for 3xTF32 GEMMs.
//
// tf32 keeps fp32's 8 exponent bits and the top 10 of its 23 mantissa bits. hi is x rounded to
// nearest tf32; x - hi is exact in fp32 and lo is that remainder rounded to tf32, so
//   |x - (hi + lo)| <= 2^-22 |x|   and   |lo| <= 2^-11 |x| (1 + 2^-11)
// for normal x whose hi does not overflow. Then a*b ~ ah*bh + ah*bl + al*bh with an error of at
// most ~3 * 2^-22 |a*b| (the dropped al*bl plus the two split errors): fp32-level accuracy from
// three tensor-core products, each exact (11-bit x 11-bit significands fit fp32).
// Plain C++ so the host unit test checks the very code the GPU runs.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define CUTEGEN_HOST_DEVICE __host__ __device__
#else
#define CUTEGEN_HOST_DEVICE
#endif

namespace cutegen::gemm {

CUTEGEN_HOST_DEVICE inline uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

CUTEGEN_HOST_DEVICE inline float float_from_bits(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

constexpr uint32_t kTf32DroppedBits = 0x1fffu;  // the 13 low mantissa bits tf32 does not keep
constexpr uint32_t kExponentMask = 0x7f800000u;

// Round to nearest tf32, ties to even; infinities and NaNs pass through. A finite value that would
// round up to infinity is truncated instead, so hi stays finite and lo holds the remainder.
CUTEGEN_HOST_DEVICE inline float round_to_tf32(float x) {
  uint32_t u = float_bits(x);
  if ((u & kExponentMask) == kExponentMask) return x;
  uint32_t rounded = (u + (kTf32DroppedBits >> 1) + ((u >> 13) & 1u)) & ~kTf32DroppedBits;
  if ((rounded & kExponentMask) == kExponentMask) rounded = u & ~kTf32DroppedBits;
  return float_from_bits(rounded);
}

struct Tf32Pair {
  float hi, lo;  // both exactly representable in tf32 (low 13 mantissa bits zero)
};

CUTEGEN_HOST_DEVICE inline Tf32Pair split_tf32(float x) {
  float hi = round_to_tf32(x);
  bool finite = (float_bits(x) & kExponentMask) != kExponentMask;
  return {hi, finite ? round_to_tf32(x - hi) : 0.0f};
}

}  // namespace cutegen::gemm
