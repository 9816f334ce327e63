// EXPERIMENT: KernelBench softmax held by a cooperative grid in a ring of tile slots (unroll=1, spare slots=1, blocks_per_sm=4)
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
  return Stat{m, p.b * expf(p.a - m) + q.b * expf(q.a - m), 0.0f};
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

#include <cutlass/arch/barrier.h>

// EXPERIMENT (hand-written from the emitted held kernel): rows of whole, aligned tiles held by a
// cooperative grid; each CTA's tiles form one sequence g = 0, 1, ... over its rows, tile g landing in
// slot g % kSlots of a ring of kSlots >= kTiles tile slots. Tile g + kSlots is loaded as soon as tile
// g is normalized, so with kSlots > kTiles the next row's first tiles are in flight while this row's
// statistics meet in the workspace.
struct Workspace {
  unsigned* arrived;
  Stat* partials;
};

template <int kThreads, int kVec, int kUnroll, int kGroup, int kTiles, int kSlots>
__global__ void __launch_bounds__(kThreads)
norm_rows_ring(float const* __restrict__ x, float* __restrict__ out, Workspace ws, int64_t rows, int64_t extent) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  constexpr uint32_t kTileBytes = Tile{} * sizeof(float);
  extern __shared__ __align__(128) unsigned char smem_bytes[];
  __shared__ Stat red[32];
  __shared__ uint64_t landed[kSlots];
  float* ring = reinterpret_cast<float*>(smem_bytes);
  const int rank = static_cast<int>(blockIdx.x % kGroup);
  const int64_t row_step = gridDim.x / kGroup, row0 = blockIdx.x / kGroup;
  const int64_t my_rows = row0 < rows ? (rows - row0 + row_step - 1) / row_step : 0;
  const int64_t total = my_rows * kTiles;  // this CTA's tiles
  auto copy_in = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(threadIdx.x);
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);
  auto global_of = [&](int64_t g) { return (row0 + g / kTiles * row_step) * extent + rank * int64_t(kTiles) * Tile{} + g % kTiles * Tile{}; };
  auto slot_of = [&](int64_t g) { return make_tensor(make_smem_ptr(ring + g % kSlots * Tile{}), make_shape(Tile{})); };
  auto start_load = [&](int64_t g) {  // thread 0 only
    if (g >= total) return;
    cute::set_barrier_transaction_bytes(landed[g % kSlots], kTileBytes);
    SM90_BULK_COPY_G2S::copy(x + global_of(g), &landed[g % kSlots], ring + g % kSlots * Tile{}, kTileBytes);
  };
  auto wait_tile = [&](int64_t g) {
    cute::wait_barrier(landed[g % kSlots], uint32_t(g / kSlots) & 1);
    asm volatile("" ::: "memory");
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < kSlots; ++s) cute::initialize_barrier(landed[s], 1);
    cutlass::arch::fence_barrier_init();
    for (int s = 0; s < kSlots; ++s) start_load(s);
  }
  __syncthreads();
  for (int64_t k = 0; k < my_rows; ++k) {
    const int64_t row = row0 + k * row_step, g0 = k * kTiles;
    Stat st = cg_norm::identity();
    for (int t = 0; t < kTiles; ++t) {
      wait_tile(g0 + t);
      Tensor tXsX = thr_in.partition_S(slot_of(g0 + t));
      Tensor tXrX = make_fragment_like(tXsX);
      copy(copy_in, tXsX, tXrX);
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i) cg_norm::update(st, tXrX(i));
    }
    st = cg_expert::block_reduce<kThreads>(st, cg_norm::combine, red);
    if (threadIdx.x == 0) {
      ws.partials[row * kGroup + rank] = st;
      __threadfence();
      atomicAdd(&ws.arrived[row], 1u);
      while (*reinterpret_cast<volatile unsigned*>(&ws.arrived[row]) < unsigned(kGroup)) __nanosleep(32);
      __threadfence();
    }
    __syncthreads();
    Stat all = cg_norm::identity();
    for (int r = threadIdx.x; r < kGroup; r += kThreads) all = cg_norm::combine(all, cg_norm::load_cg(&ws.partials[row * kGroup + r]));
    Stat row_st = cg_norm::finalize(cg_expert::block_reduce<kThreads>(all, cg_norm::combine, red));
    Tensor gY = make_tensor(make_gmem_ptr(out + global_of(g0)), make_shape(int64_t(kTiles) * Tile{}));
    for (int t = 0; t < kTiles; ++t) {
      Tensor tXsX = thr_in.partition_S(slot_of(g0 + t));
      Tensor tYgY = thr_out.partition_D(local_tile(gY, make_shape(Tile{}), make_coord(t)));
      Tensor tXrX = make_fragment_like(tXsX);
      Tensor tYrY = make_fragment_like(tYgY);
      copy(copy_in, tXsX, tXrX);
      cutlass::arch::fence_view_async_shared();
      __syncthreads();
      if (threadIdx.x == 0) start_load(g0 + t + kSlots);
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i) tYrY(i) = cg_norm::apply(tXrX(i), 0, row_st, nullptr, nullptr);
      copy(copy_out, tYrY, tYgY);
    }
  }
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  constexpr int kThreads = 256, kVec = 4, kUnroll = 1, kGroup = 32, kSpare = 1, kBlocksPerSm = 4;
  constexpr int64_t rows = 4096, extent = 393216, kTile = int64_t(kThreads) * kVec * kUnroll;
  static_assert(extent % (kGroup * kTile) == 0, "experiment: whole tiles only");
  constexpr int kTiles = int(extent / kGroup / kTile), kSlots = kTiles + kSpare;
  constexpr int smem = int(kSlots * kTile * sizeof(float));
  if (!cg_expert::aligned_to(x, 16) || !cg_expert::aligned_to(out, 16)) return;
  auto kernel = norm_rows_ring<kThreads, kVec, kUnroll, kGroup, kTiles, kSlots>;
  static const bool ready = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) == cudaSuccess;
  if (!ready) return;
  constexpr size_t count_bytes = (sizeof(unsigned) * rows + 15) / 16 * 16;
  char* memory = cg_expert::device_workspace(count_bytes + sizeof(Stat) * rows * kGroup);
  if (memory == nullptr) return;
  Workspace ws{reinterpret_cast<unsigned*>(memory), reinterpret_cast<Stat*>(memory + count_bytes)};
  if (cudaMemsetAsync(memory, 0, count_bytes, stream) != cudaSuccess) return;
  static const int64_t groups = [&] {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem);
    int64_t n = int64_t(per_sm < kBlocksPerSm ? per_sm : kBlocksPerSm) * cg_expert::sm_count() / kGroup;
    return n < rows ? n : rows;
  }();
  if (groups < 1) return;
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(groups * kGroup));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr, config.numAttrs = 1;
  cudaLaunchKernelEx(&config, kernel, x, out, ws, rows, extent);
}
