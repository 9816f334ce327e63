// EXPERIMENT: softmax_small_odd, __expf in the combine
// Derived by hand from the kernel the CuTeGen expert emits, to measure one change.
#include <cute/tensor.hpp>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

using namespace cute;

namespace cg_expert {

__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ __forceinline__ T from_f(float v);
template <> __device__ __forceinline__ float from_f<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

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

// A copy atom moving kVec elements of T per thread with the widest access up to 128 bits.
template <class T, int kVec>
using VecCopy = Copy_Atom<UniversalCopy<uint_bit_t<(kVec * sizeof_bits_v<T> > 128 ? 128 : kVec * sizeof_bits_v<T>)>>, T>;

// Threads laid out along one mode, each moving kVec contiguous elements.
template <class T, int kThreads, int kVec>
__device__ __forceinline__ auto vec_tiled_copy() {
  return make_tiled_copy(VecCopy<T, kVec>{}, Layout<Shape<Int<kThreads>>>{}, Layout<Shape<Int<kVec>>>{});
}

// Shuffles any trivially copyable struct made of 4-byte words.
template <class S>
__device__ __forceinline__ S shfl_xor(S v, int mask) {
  static_assert(sizeof(S) % 4 == 0, "statistics are made of 4-byte words");
  int words[sizeof(S) / 4];
  memcpy(words, &v, sizeof(S));
  CUTE_UNROLL
  for (int i = 0; i < int(sizeof(S) / 4); ++i) words[i] = __shfl_xor_sync(0xffffffffu, words[i], mask);
  memcpy(&v, words, sizeof(S));
  return v;
}

// Combines one value per lane of the warp by a butterfly; every lane gets a result.
template <class S, class F>
__device__ __forceinline__ S warp_reduce(S v, F combine) {
  CUTE_UNROLL
  for (int m = 16; m > 0; m >>= 1) v = combine(v, shfl_xor(v, m));
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
  for (int w = 1; w < kThreads / 32; ++w) v = combine(v, smem[w]);
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

// A kernel's scratch memory on the current device (a kernel file asks for one fixed size), allocated
// there on first use and kept for the process, as cuBLAS keeps its workspace; calls on one device
// share it, so they must be ordered on one stream. nullptr when it cannot be had.
inline char* device_workspace(size_t bytes) {
  static char* per_device[64] = {};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64) return nullptr;
  if (per_device[device] == nullptr && cudaMalloc(&per_device[device], bytes) != cudaSuccess) return nullptr;
  return per_device[device];
}

}  // namespace cg_expert

namespace cg_norm {
struct Stat {
  float a, b, c;
};
__device__ __forceinline__ Stat identity() { return Stat{-INFINITY, 0.0f, 0.0f}; }
__device__ __forceinline__ void update(Stat& st, float x) { if (x > st.a) { st.b = st.b * __expf(st.a - x) + 1.0f; st.a = x; } else { st.b += __expf(x - st.a); } }
__device__ __forceinline__ Stat combine(Stat p, Stat q) {
  float m = fmaxf(p.a, q.a); if (m == -INFINITY) return Stat{m, 0.0f, 0.0f};
  return Stat{m, p.b * __expf(p.a - m) + q.b * __expf(q.a - m), 0.0f};
}
__device__ __forceinline__ Stat finalize(Stat st) { return Stat{st.a, 1.0f / st.b, 0.0f}; }
// Another block's published statistics, read past L1, which is not coherent.
__device__ __forceinline__ Stat load_cg(Stat const* p) { return Stat{__ldcg(&p->a), __ldcg(&p->b), __ldcg(&p->c)}; }
// The normalized value of x at position j of its row.
__device__ __forceinline__ float apply(float x, int64_t j, Stat st, float const* weight, float const* bias) {
  (void)j; (void)weight; (void)bias;
  return __expf(x - st.a) * st.b;
}
}  // namespace cg_norm
using cg_norm::Stat;

// A block per row, held in registers: kIters steps of kThreads threads x kVec elements, all loaded
// at once (vectors through the tiled copy when the rows are 16-byte aligned, else coalesced
// scalars), the threads' statistics combined by shuffles (and, past one warp, through shared
// memory), then the normalized registers are stored. A warp per row needs no shared memory and no
// barrier; few rows take more warps each, since one warp's long serial chain then sets the time.
template <int kThreads, int kVec, int kIters>
__global__ void __launch_bounds__(kThreads) norm_rows_registers(float const* __restrict__ x, float* __restrict__ out,
                                                                float const* weight, float const* bias, int64_t extent, bool vectorized) {
  using Step = Int<kThreads * kVec>;
  const int tid = threadIdx.x;
  Tensor mX = make_tensor(make_gmem_ptr(x + blockIdx.x * extent), make_shape(extent));     // this row
  Tensor mY = make_tensor(make_gmem_ptr(out + blockIdx.x * extent), make_shape(extent));
  auto copy_in = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(tid);
  auto thr_out = copy_out.get_thread_slice(tid);
  // Element k of step i: thread-contiguous vectors, or (scalar) thread-interleaved for coalescing.
  auto position = [&](int i, int k) -> int64_t { return vectorized ? (i * kThreads + tid) * kVec + k : (i * kVec + k) * kThreads + tid; };
  float v[kIters][kVec];
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tXgX = thr_in.partition_S(local_tile(mX, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tXrX = make_fragment_like(tXgX);
      if (position(i, 0) < extent) copy(copy_in, tXgX, tXrX);  // a row of whole vectors: all or none
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) v[i][k] = cg_expert::to_f(tXrX(k));
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) v[i][k] = position(i, k) < extent ? cg_expert::to_f(mX(position(i, k))) : 0.0f;
    }
  }
  Stat st = cg_norm::identity();
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i)
    CUTE_UNROLL
    for (int k = 0; k < kVec; ++k)
      if (position(i, k) < extent) cg_norm::update(st, v[i][k]);
  if constexpr (kThreads == 32) {
    st = cg_expert::warp_reduce(st, cg_norm::combine);
  } else {
    __shared__ Stat smem[kThreads / 32];
    st = cg_expert::block_reduce<kThreads>(st, cg_norm::combine, smem);
  }
  st = cg_norm::finalize(st);
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tYgY = thr_out.partition_D(local_tile(mY, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tYrY = make_fragment_like(tYgY);
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) tYrY(k) = cg_expert::from_f<float>(cg_norm::apply(v[i][k], position(i, k), st, weight, bias));
      if (position(i, 0) < extent) copy(copy_out, tYrY, tYgY);
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        if (position(i, k) < extent) mY(position(i, k)) = cg_expert::from_f<float>(cg_norm::apply(v[i][k], position(i, k), st, weight, bias));
    }
  }
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  constexpr int kThreads = 256, kVec = 1;
  constexpr int64_t rows = 37, extent = 1001;
  constexpr int kIters = int((extent + kThreads * kVec - 1) / (kThreads * kVec));
  static_assert(rows < (int64_t(1) << 31), "a block per row");
  bool vectorized = cg_expert::aligned_to(x, 16) && cg_expert::aligned_to(out, 16) && extent % kVec == 0;
  norm_rows_registers<kThreads, kVec, kIters><<<static_cast<int>(rows), kThreads, 0, stream>>>(
      x, out, nullptr, nullptr, extent, vectorized);
}
