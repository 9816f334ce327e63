// EXPERIMENT: KernelBench LayerNorm #40, each row held by the whole grid in turn (512 threads, 128 CTAs, 11 spare slots, L2 hints true)
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
__device__ __forceinline__ Stat identity() { return Stat{0.0f, 0.0f, 0.0f}; }
__device__ __forceinline__ void update(Stat& st, float x) { st.a += 1.0f; float d = x - st.b; st.b += d / st.a; st.c += d * (x - st.b); }
__device__ __forceinline__ Stat combine(Stat p, Stat q) {
  float n = p.a + q.a; if (n == 0.0f) return p;
  float d = q.b - p.b, w = q.a / n;
  return Stat{n, p.b + d * w, p.c + q.c + d * d * p.a * w};
}
__device__ __forceinline__ Stat finalize(Stat st) { return Stat{st.b, rsqrtf(st.c / st.a + float(1e-05)), 0.0f}; }
// Another block's published statistics, read past L1, which is not coherent.
__device__ __forceinline__ Stat load_cg(Stat const* p) { return Stat{__ldcg(&p->a), __ldcg(&p->b), __ldcg(&p->c)}; }
// The normalized value of x at position j of its row.
__device__ __forceinline__ float apply(float x, int64_t j, Stat st, float const* weight, float const* bias) {
  (void)j; (void)weight; (void)bias;
  return ((x - st.a) * st.b) * weight[j] + bias[j];
}
}  // namespace cg_norm
using cg_norm::Stat;

#include <cutlass/arch/barrier.h>

// EXPERIMENT (hand-written from the emitted held kernel): a few very long rows, one at a time, each
// held by the whole cooperative grid (kGroup CTAs, CTA `rank` owning the same columns of every row),
// so each row is read from DRAM once. Each CTA's tiles form one sequence g = 0, 1, ... over the rows,
// tile g in slot g % kSlots of a ring of kSlots >= kTiles tile slots; tile g + kSlots is loaded as
// soon as tile g is normalized, so up to kSlots - kTiles tiles of the next row are in flight while
// this row's statistics meet in the workspace. With kHints, x and y stream through L2 as evict-first
// while the weight and bias, which every row reads again, are loaded evict-last to stay in L2.
struct Workspace {
  unsigned* arrived;
  Stat* partials;
};

template <bool kHints>
__device__ __forceinline__ float4 load_kept(float const* p, uint64_t policy) {
  float4 v;
  if constexpr (kHints)
    asm volatile("ld.global.L2::cache_hint.v4.f32 {%0, %1, %2, %3}, [%4], %5;" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p), "l"(policy));
  else
    v = *reinterpret_cast<float4 const*>(p);
  return v;
}

template <bool kHints>
__device__ __forceinline__ void store_streamed(float* p, float4 v) {
  if constexpr (kHints) __stcs(reinterpret_cast<float4*>(p), v);
  else *reinterpret_cast<float4*>(p) = v;
}

template <int kThreads, int kUnroll, int kGroup, int kTiles, int kSlots, bool kHints>
__global__ void __launch_bounds__(kThreads)
norm_rows_grid(float const* __restrict__ x, float const* __restrict__ weight, float const* __restrict__ bias,
               float* __restrict__ out, Workspace ws, int64_t rows, int64_t extent) {
  constexpr int kVec = 4;
  using Tile = Int<kThreads * kVec * kUnroll>;
  constexpr uint32_t kTileBytes = Tile{} * sizeof(float);
  extern __shared__ __align__(128) unsigned char smem_bytes[];
  __shared__ Stat red[32];
  __shared__ uint64_t landed[kSlots];
  float* ring = reinterpret_cast<float*>(smem_bytes);
  const int rank = static_cast<int>(blockIdx.x);
  const int64_t total = rows * kTiles;  // this CTA's tiles
  const int64_t column0 = rank * int64_t(kTiles) * Tile{};
  auto copy_in = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(threadIdx.x);
  auto column_of = [&](int64_t g) { return column0 + g % kTiles * Tile{}; };
  auto slot_of = [&](int64_t g) { return make_tensor(make_smem_ptr(ring + g % kSlots * Tile{}), make_shape(Tile{})); };
  uint64_t policy = 0, keep = 0;
  if constexpr (kHints) {
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(keep));
  }
  auto start_load = [&](int64_t g) {  // thread 0 only
    if (g >= total) return;
    uint64_t* bar = &landed[g % kSlots];
    cute::set_barrier_transaction_bytes(*bar, kTileBytes);
    float const* src = x + g / kTiles * extent + column_of(g);
    uint32_t dst = cute::cast_smem_ptr_to_uint(ring + g % kSlots * Tile{});
    uint32_t mbar = cute::cast_smem_ptr_to_uint(bar);
    if constexpr (kHints)
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
                   :: "r"(dst), "l"(src), "r"(kTileBytes), "r"(mbar), "l"(policy) : "memory");
    else
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                   :: "r"(dst), "l"(src), "r"(kTileBytes), "r"(mbar) : "memory");
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < kSlots; ++s) cute::initialize_barrier(landed[s], 1);
    cutlass::arch::fence_barrier_init();
    for (int s = 0; s < kSlots; ++s) start_load(s);
  }
  __syncthreads();
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t g0 = row * kTiles;
    Stat st = cg_norm::identity();
    for (int t = 0; t < kTiles; ++t) {
      cute::wait_barrier(landed[(g0 + t) % kSlots], uint32_t((g0 + t) / kSlots) & 1);
      asm volatile("" ::: "memory");
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
    for (int t = 0; t < kTiles; ++t) {
      const int64_t g = g0 + t;
      float4 v[kUnroll];
      float const* slot = ring + g % kSlots * Tile{};
      CUTE_UNROLL
      for (int u = 0; u < kUnroll; ++u) v[u] = *reinterpret_cast<float4 const*>(slot + (u * kThreads + threadIdx.x) * kVec);
      cutlass::arch::fence_view_async_shared();
      __syncthreads();
      if (threadIdx.x == 0) start_load(g + kSlots);
      CUTE_UNROLL
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t j = column_of(g) + (u * kThreads + threadIdx.x) * kVec;
        float4 w = load_kept<kHints>(weight + j, keep), b = load_kept<kHints>(bias + j, keep), y;
        y.x = (v[u].x - row_st.a) * row_st.b * w.x + b.x;
        y.y = (v[u].y - row_st.a) * row_st.b * w.y + b.y;
        y.z = (v[u].z - row_st.a) * row_st.b * w.z + b.z;
        y.w = (v[u].w - row_st.a) * row_st.b * w.w + b.w;
        store_streamed<kHints>(out + row * extent + j, y);
      }
    }
  }
}

extern "C" void cutegen_forward(const float* x, const float* ln_weight, const float* ln_bias, float* out, cudaStream_t stream) {
  constexpr int kThreads = 512, kUnroll = 1, kGroup = 128, kSpare = 11;
  constexpr bool kHints = true;
  constexpr int64_t rows = 16, extent = 4194304, kTile = int64_t(kThreads) * 4 * kUnroll;
  static_assert(extent % (kGroup * kTile) == 0, "experiment: whole tiles only");
  constexpr int kTiles = int(extent / kGroup / kTile), kSlots = kTiles + kSpare;
  constexpr int smem = int(kSlots * kTile * sizeof(float));
  for (const void* p : {(const void*)x, (const void*)ln_weight, (const void*)ln_bias, (const void*)out})
    if (!cg_expert::aligned_to(p, 16)) return;
  auto kernel = norm_rows_grid<kThreads, kUnroll, kGroup, kTiles, kSlots, kHints>;
  static const bool ready = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) == cudaSuccess;
  if (!ready) return;
  constexpr size_t count_bytes = (sizeof(unsigned) * rows + 15) / 16 * 16;
  char* memory = cg_expert::device_workspace(count_bytes + sizeof(Stat) * rows * kGroup);
  if (memory == nullptr) return;
  Workspace ws{reinterpret_cast<unsigned*>(memory), reinterpret_cast<Stat*>(memory + count_bytes)};
  if (cudaMemsetAsync(memory, 0, count_bytes, stream) != cudaSuccess) return;
  static const bool fits = [&] {  // the whole grid must be resident at once
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem);
    return int64_t(per_sm) * cg_expert::sm_count() >= kGroup;
  }();
  if (!fits) return;
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(kGroup);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr, config.numAttrs = 1;
  cudaLaunchKernelEx(&config, kernel, x, ln_weight, ln_bias, out, ws, rows, extent);
}
