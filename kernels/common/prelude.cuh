// The includes and device helpers every expert kernel starts with: element conversions, NaN-aware
// max/min, the division torch.compile uses, tiled copies (plain and evict_last), warp and block
// reductions, and the host's SM count and per-device workspace.
#pragma once
#include <cute/tensor.hpp>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

using namespace cute;

// 128-bit loads that ask L2 to keep the lines they bring (an evict_last policy), as the first read
// of torch.compile's looped LayerNorm does. Inputs read once gain all the same; on the H200:
// LayerNorm over 32768 x 8192 0.4994 ms against 0.5066 with plain loads (torch.compile 0.5034),
// ReLU over 268M floats 0.4959 against 0.5038.
struct EvictLastLoad128 {
  using SRegisters = uint128_t[1];
  using DRegisters = uint128_t[1];
  CUTE_DEVICE static void copy(uint128_t const& src, uint128_t& dst) {
    uint64_t policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    uint32_t* d = reinterpret_cast<uint32_t*>(&dst);
    asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
        : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
        : "l"(&src), "l"(policy));
  }
};
namespace cute {
template <>
struct Copy_Traits<EvictLastLoad128> : Copy_Traits<UniversalCopy<uint128_t>> {};
}  // namespace cute

namespace cg_expert {

__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T>
__device__ __forceinline__ T from_f(float v);
template <>
__device__ __forceinline__ float from_f<float>(float v) {
  return v;
}
template <>
__device__ __forceinline__ __half from_f<__half>(float v) {
  return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

// max/min that propagate NaN as torch does (fmaxf/fminf return the other operand). On sm_80+ each is
// one instruction; the branchy fallback kept ptxas from batching a reduction's loads.
__device__ __forceinline__ float nan_max(float a, float b) {
#if __CUDA_ARCH__ >= 800
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return a != a ? a : b != b ? b : fmaxf(a, b);
#endif
}
__device__ __forceinline__ float nan_min(float a, float b) {
#if __CUDA_ARCH__ >= 800
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
#else
  return a != a ? a : b != b ? b : fminf(a, b);
#endif
}
// a > b ? x : y with both sides already computed, so it compiles to a select, not a branch per
// element (to_cuda keeps the branch where a side calls a library function).
__device__ __forceinline__ float select_gt(float a, float b, float x, float y) { return a > b ? x : y; }
// Division as torch.compile's kernels do it: div.full.f32, full range, at most 2 ulp and no branch
// (the IEEE division checks each quotient for its slow path). On the H200: sigmoid 3.074 -> 3.025
// ms, Swish 3.065 -> 3.009 (torch.compile 3.034, 3.029).
__device__ __forceinline__ float div_full(float a, float b) {
  float r;
  asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

// A copy atom moving kVec elements of T per thread with the widest access up to 128 bits.
template <class T, int kVec>
using VecCopy =
    Copy_Atom<UniversalCopy<uint_bit_t<(kVec * sizeof_bits_v<T> > 128 ? 128 : kVec * sizeof_bits_v<T>)>>, T>;

// Threads laid out along one mode, each moving kVec contiguous elements through the copy atom Atom.
template <class Atom, int kThreads, int kVec>
__device__ __forceinline__ auto threads_tiled_copy() {
  return make_tiled_copy(Atom{}, Layout<Shape<Int<kThreads>>>{}, Layout<Shape<Int<kVec>>>{});
}

// The same through plain vector copies of T.
template <class T, int kThreads, int kVec>
__device__ __forceinline__ auto vec_tiled_copy() {
  return threads_tiled_copy<VecCopy<T, kVec>, kThreads, kVec>();
}

// The same for loads, through EvictLastLoad128 where the vectors are (at least) 128 bits.
template <class T, int kThreads, int kVec>
__device__ __forceinline__ auto evict_last_tiled_copy() {
  if constexpr (kVec * sizeof_bits_v<T> >= 128)
    return threads_tiled_copy<Copy_Atom<EvictLastLoad128, T>, kThreads, kVec>();
  else
    return vec_tiled_copy<T, kThreads, kVec>();
}

// Shuffles any trivially copyable struct made of 4-byte words.
template <class S>
__device__ __forceinline__ S shfl_xor(S v, int mask) {
  static_assert(sizeof(S) % 4 == 0, "statistics are made of 4-byte words");
  int words[sizeof(S) / 4];
  memcpy(words, &v, sizeof(S));
  CUTE_UNROLL
  for (int i = 0; i < int(sizeof(S) / 4); ++i)
    words[i] = __shfl_xor_sync(0xffffffffu, words[i], mask);
  memcpy(&v, words, sizeof(S));
  return v;
}

// Combines one value per lane of the warp by a butterfly; every lane gets a result.
template <class S, class F>
__device__ __forceinline__ S warp_reduce(S v, F combine) {
  CUTE_UNROLL
  for (int m = 16; m > 0; m >>= 1)
    v = combine(v, shfl_xor(v, m));
  return v;
}

// Combines one value per thread of the block; every thread gets the result. Reuses `smem`.
template <int kThreads, class S, class F>
__device__ __forceinline__ S block_reduce(S v, F combine, S* smem) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps");
  v = warp_reduce(v, combine);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();
  if (lane == 0) smem[warp] = v;
  __syncthreads();
  v = smem[0];
  for (int w = 1; w < kThreads / 32; ++w)
    v = combine(v, smem[w]);
  return v;
}

// The same as a balanced tree, each combine joining two equal numbers of threads (a butterfly in each
// warp, then one across the warps, a power of two of them); every thread gets the result. `smem`
// holds one value per warp.
template <int kThreads, class S, class F>
__device__ __forceinline__ S block_tree(S v, F combine, S* smem) {
  constexpr int kWarps = kThreads / 32;
  static_assert(kThreads % 32 == 0 && (kWarps & (kWarps - 1)) == 0, "a power of two of whole warps");
  v = warp_reduce(v, combine);
  if (threadIdx.x % 32 == 0) smem[threadIdx.x / 32] = v;
  __syncthreads();
  v = smem[threadIdx.x % kWarps];
  CUTE_UNROLL
  for (int k = kWarps / 2; k > 0; k >>= 1)
    v = combine(v, shfl_xor(v, k));
  return v;
}

inline int sm_count() {
  static int count = [] {
    int dev = 0, n = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev);
    return n > 0 ? n : 1;
  }();
  return count;
}

inline bool aligned_to(const void* p, int bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

// A kernel's scratch memory on the current device (a kernel file asks for one fixed size per slot:
// slot 0 for the kernel's own, slot 1 for a chain's buffers around its anchor), allocated there on
// first use and kept for the process, as cuBLAS keeps its workspace; calls on one device share it,
// so they must be ordered on one stream. It starts zeroed. nullptr when it cannot be had.
inline char* device_workspace(size_t bytes, int slot = 0) {
  static char* per_device[2][64] = {};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64 || slot < 0 || slot > 1) return nullptr;
  char*& memory = per_device[slot][device];
  if (memory == nullptr) {
    char* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) return nullptr;
    // Synchronized, so that no stream's kernel can see the memory before it is zero.
    if (cudaMemset(p, 0, bytes) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return nullptr;
    memory = p;
  }
  return memory;
}

}  // namespace cg_expert
