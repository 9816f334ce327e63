// Row normalization, each long row held in the registers of kGroup CTAs of a cooperative grid (one
// per SM) and read from DRAM once.
#pragma once

#include <cutlass/arch/barrier.h>

#include "rownorm/stats.cuh"

// 128-bit copies that stream through L2 (.cs, evict first), so that x and y, each touched once, do
// not push out what is read again. On the H200, a hand-written kernel of this design for LayerNorm
// #40 took 0.2086 ms with plain loads and stores, 0.1984 with these.
struct StreamLoad128 {
  using SRegisters = uint128_t[1];
  using DRegisters = uint128_t[1];
  CUTE_DEVICE static void copy(uint128_t const& src, uint128_t& dst) {
    const uint4 v = __ldcs(reinterpret_cast<uint4 const*>(&src));
    dst = reinterpret_cast<uint128_t const&>(v);
  }
};
struct StreamStore128 {
  using SRegisters = uint128_t[1];
  using DRegisters = uint128_t[1];
  CUTE_DEVICE static void copy(uint128_t const& src, uint128_t& dst) {
    __stcs(reinterpret_cast<uint4*>(&dst), reinterpret_cast<uint4 const&>(src));
  }
};
namespace cute {
template <>
struct Copy_Traits<StreamLoad128> : Copy_Traits<UniversalCopy<uint128_t>> {};
template <>
struct Copy_Traits<StreamStore128> : Copy_Traits<UniversalCopy<uint128_t>> {};
}  // namespace cute

// A group of kGroup CTAs (one per SM, all resident: a cooperative launch) holds a row in registers
// and reads it from DRAM once; the groups walk rows a grid's worth apart. CTA `rank` owns the row's
// elements [rank * kShare, (rank + 1) * kShare): kIters steps of kThreads threads x kVec elements.
// - The CTA's share of the weight and bias, as much as fits, is bulk-copied into shared memory once;
//   the rest is loaded once into registers.
// - Per row, the CTA's partial statistic (Norm::held_partial) goes to a workspace slot, and a
//   per-row count says when the group's slots are all written: warp 0 of each CTA waits for it and
//   combines them. The count only grows (the group's CTAs add 1 per row and call), so it needs no
//   reset: this call's arrivals end at the next multiple of kGroup.
// - Each thread then stores its normalized vectors, loading the next row's into the freed registers
//   right after each store.
// On the H200, LayerNorm #40 (16 rows of 16 MB) took 0.1986-0.2006 ms so, 1.47-1.49x its
// single-read floor (0.2191 in two launches); rows that leave CTAs idle lose (see default_params).
struct GridWorkspace {
  unsigned* arrived;  // [rows]
  float2* partials;   // [rows * kGroup]: Norm::to_slot of each CTA's statistic
};

// kVectorized: x, y, weight and bias 16-byte aligned and the row whole vectors (else coalesced scalars).
template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kIters, int kGroup, int64_t kExtent,
          int kWeightSteps, int kBiasSteps, bool kVectorized>
__global__ void __launch_bounds__(kThreads, 1)
    norm_rows_grid(TIn const* __restrict__ x, TOut* __restrict__ out, float const* __restrict__ weight,
                   float const* __restrict__ bias, GridWorkspace ws, int64_t rows, int64_t row_step) {
  using Step = Int<kThreads * kVec>;
  constexpr int kShare = kIters * kThreads * kVec;
  constexpr int64_t extent = kExtent;
  constexpr bool kExact = int64_t(kGroup) * kShare == kExtent;  // no element past the row's end
  extern __shared__ __align__(128) float params_smem[];         // [kWeightSteps + kBiasSteps][Step]
  __shared__ Stat warps[kThreads / 32];
  __shared__ Stat met;
  __shared__ uint64_t params_landed;
  const int tid = threadIdx.x, rank = static_cast<int>(blockIdx.x % kGroup);
  __builtin_assume(tid < kThreads);
  // Element k of step i of this CTA's share: thread-contiguous vectors, or (scalar) thread-interleaved.
  auto position = [&](int i, int k) -> int64_t {
    return int64_t(rank) * kShare + (kVectorized ? (i * kThreads + tid) * kVec + k : (i * kVec + k) * kThreads + tid);
  };
  auto in_row = [&](int i, int k) { return kExact || position(i, k) < extent; };
  auto copy_in = cg_expert::threads_tiled_copy<Copy_Atom<StreamLoad128, TIn>, kThreads, kVec>();
  auto copy_out = cg_expert::threads_tiled_copy<Copy_Atom<StreamStore128, TOut>, kThreads, kVec>();
  auto copy_param = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(tid);
  auto thr_out = copy_out.get_thread_slice(tid);
  auto thr_param = copy_param.get_thread_slice(tid);
  auto step_of = [&](auto tensor, int i) {
    return local_tile(tensor, make_shape(Step{}), make_coord(rank * kIters + i));
  };

  // The shares of weight and bias kept in shared memory: the first kWeightSteps and kBiasSteps steps.
  Tensor sW = make_tensor(make_smem_ptr(params_smem), make_shape(Int<kShare>{}));
  Tensor sB = make_tensor(make_smem_ptr(params_smem + kWeightSteps * Step{}), make_shape(Int<kShare>{}));
  if (tid == 0) {
    cute::initialize_barrier(params_landed, 1);
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  if (kVectorized && tid == 0) {
    auto bytes = [&](int steps) {
      int64_t n = extent - int64_t(rank) * kShare;
      n = n < steps * Step{} ? n : steps * Step{};
      return static_cast<uint32_t>(n > 0 ? n * sizeof(float) : 0);
    };
    const uint32_t w_bytes = bytes(kWeightSteps), b_bytes = bytes(kBiasSteps);
    cute::set_barrier_transaction_bytes(params_landed, w_bytes + b_bytes);
    if (w_bytes > 0)
      SM90_BULK_COPY_G2S::copy(weight + int64_t(rank) * kShare, &params_landed, sW.data().get(), w_bytes);
    if (b_bytes > 0) SM90_BULK_COPY_G2S::copy(bias + int64_t(rank) * kShare, &params_landed, sB.data().get(), b_bytes);
  }

  // The steps of the weight and bias that shared memory does not hold (for 1024 threads of 8 float4,
  // the bias's last 2), the same for every row: loaded once into registers (on the H200, LayerNorm
  // #40 took as long as with them read from L2 for every row, 0.2236 against 0.2241 ms).
  constexpr int kWeightTail = kIters - kWeightSteps, kBiasTail = kIters - kBiasSteps;
  float w_tail[kWeightTail > 0 ? kWeightTail : 1][kVec], b_tail[kBiasTail > 0 ? kBiasTail : 1][kVec];
  auto load_tail = [&](float const* p, bool has, int steps, auto& tail) {
    if (!kVectorized || !has) return;
    Tensor g = make_tensor(make_gmem_ptr(p), make_shape(extent));
    CUTE_UNROLL
    for (int i = steps; i < kIters; ++i) {
      Tensor r = make_fragment_like(thr_param.partition_S(step_of(g, i)));
      if (in_row(i, 0)) copy(copy_param, thr_param.partition_S(step_of(g, i)), r);
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        tail[i - steps][k] = r(k);
    }
  };
  load_tail(weight, Norm::kWeight, kWeightSteps, w_tail);
  load_tail(bias, Norm::kBias, kBiasSteps, b_tail);

  float v[kIters][kVec];
  auto load_row = [&](int64_t row, int i) {  // step i of the row into v[i]
    Tensor mX = make_tensor(make_gmem_ptr(x + row * extent), make_shape(extent));
    if constexpr (kVectorized) {
      Tensor tXgX = thr_in.partition_S(step_of(mX, i));  // (CPY, 1)
      Tensor tXrX = make_fragment_like(tXgX);
      if (in_row(i, 0)) copy(copy_in, tXgX, tXrX);  // whole vectors: all or none
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        v[i][k] = cg_expert::to_f(tXrX(k));
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        v[i][k] = in_row(i, k) ? cg_expert::to_f(mX(position(i, k))) : 0.0f;
    }
  };
  auto for_each = [&](auto&& f) {
    CUTE_UNROLL
    for (int i = 0; i < kIters; ++i)
      CUTE_UNROLL
    for (int k = 0; k < kVec; ++k)
      if (in_row(i, k)) f(v[i][k]);
  };
  auto reduce = [&](auto value, auto op) {
    __shared__ decltype(value) smem[kThreads / 32];
    return cg_expert::block_reduce<kThreads>(value, op, smem);
  };
  auto tree = [&](Stat value, auto op) { return cg_expert::block_tree<kThreads>(value, op, warps); };
  constexpr int kPerThread = kExact && (kThreads & (kThreads - 1)) == 0 ? kIters * kVec : 0;

  int64_t row = blockIdx.x / kGroup;
  if (row < rows) {
    CUTE_UNROLL
    for (int i = 0; i < kIters; ++i)
      load_row(row, i);
  }
  for (bool first = true; row < rows; row += row_step, first = false) {
    // The row's count before this CTA arrives, read first so that its latency hides behind the
    // statistic (on the H200, with the slots joined without divisions below, LayerNorm #40 went from
    // 0.2294 ms to 0.2240; before, it was read just before arriving).
    unsigned* count = ws.arrived + row;
    unsigned seen = 0;
    if (tid == 0) asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(count) : "memory");
    const Stat part = Norm::held_partial(for_each, reduce, tree, Int<kPerThread>{});
    if (tid < 32) {
      if (tid == 0) {
        const unsigned target = seen - seen % kGroup + kGroup;  // fewer than kGroup arrivals are this call's
        ws.partials[row * kGroup + rank] = Norm::to_slot(part);
        asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(count) : "memory");
        unsigned c;
        do {
          asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(c) : "l"(count) : "memory");
        } while (int(c - target) < 0);
      }
      __syncwarp();
      // Every CTA combines the slots in the same order, so all agree bit for bit. Slots of equal
      // counts (a power of two of them, 32 or more) are joined as a tree, without divisions.
      // One 8-byte load per slot: on the H200, LayerNorm #40 took 0.2231 ms with its three words
      // loaded one by one, 0.2042 with them padded to one 16-byte load, 0.2006 with these.
      float2 const* slots = ws.partials + row * kGroup;
      Stat all = Norm::identity();
      if constexpr (kPerThread > 0 && kGroup % 32 == 0) {
        constexpr int kPerLane = kGroup / 32;
        float2 const* lane_slots = slots + tid * kPerLane;  // one base, so the loads go out together
        Stat s[kPerLane];
        CUTE_UNROLL
        for (int i = 0; i < kPerLane; ++i)
          s[i] = Norm::from_slot(__ldcg(lane_slots + i), float(kShare));
        CUTE_UNROLL
        for (int w = kPerLane / 2; w > 0; w /= 2)
          CUTE_UNROLL
        for (int i = 0; i < w; ++i)
          s[i] = Norm::join(s[i], s[i + w]);
        all = cg_expert::warp_reduce(s[0], [](Stat p, Stat q) { return Norm::join(p, q); });
      } else {
        for (int r = tid; r < kGroup; r += 32) {
          const int64_t left = extent - int64_t(r) * kShare;  // elements of CTA r's share
          const float count = float(left < kShare ? (left > 0 ? left : 0) : kShare);
          all = Norm::combine(all, Norm::from_slot(__ldcg(&slots[r]), count));
        }
        all = cg_expert::warp_reduce(all, Norm::combine);
      }
      if (tid == 0) met = Norm::finalize(all);
    }
    __syncthreads();
    if (kVectorized && first) cute::wait_barrier(params_landed, 0);
    const Stat st = met;
    const bool more = row + row_step < rows;
    Tensor mY = make_tensor(make_gmem_ptr(out + row * extent), make_shape(extent));
    CUTE_UNROLL
    for (int i = 0; i < kIters; ++i) {
      if constexpr (kVectorized) {
        Tensor tYgY = thr_out.partition_D(step_of(mY, i));  // (CPY, 1)
        Tensor tYrY = make_fragment_like(tYgY);
        auto param = [&](auto const& smem, auto const& tail, bool has, int steps, float none) {
          Tensor shared = thr_param.partition_S(local_tile(smem, make_shape(Step{}), make_coord(i)));
          Tensor r = make_fragment_like(shared);
          if (!has || !in_row(i, 0)) {
            fill(r, none);
          } else if (i < steps) {
            copy(copy_param, shared, r);
          } else {
            CUTE_UNROLL
            for (int k = 0; k < kVec; ++k)
              r(k) = tail[i - steps][k];
          }
          return r;
        };
        Tensor tWrW = param(sW, w_tail, Norm::kWeight, kWeightSteps, cg_norm::kNoWeight);
        Tensor tBrB = param(sB, b_tail, Norm::kBias, kBiasSteps, cg_norm::kNoBias);
        CUTE_UNROLL
        for (int k = 0; k < kVec; ++k)
          tYrY(k) = cg_expert::from_f<TOut>(Norm::apply_to(v[i][k], st, tWrW(k), tBrB(k)));
        if (in_row(i, 0)) copy(copy_out, tYrY, tYgY);
      } else {
        CUTE_UNROLL
        for (int k = 0; k < kVec; ++k)
          if (in_row(i, k)) {
            const int64_t j = position(i, k);
            mY(j) = cg_expert::from_f<TOut>(cg_norm::apply<Norm>(v[i][k], j, st, weight, bias));
          }
      }
      if (more) load_row(row + row_step, i);
    }
  }
}

template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kIters, int kGroup, int64_t rows,
          int64_t extent, bool kVectorized>
void launch_rows_grid(TIn const* x, TOut* out, float const* weight, float const* bias, cudaStream_t stream) {
  // Shared memory keeps as many steps of the weight's share, then the bias's, as fit (vectors only).
  constexpr int kStepBytes = kThreads * kVec * int(sizeof(float)), kBudget = 224 * 1024;
  constexpr int kWeightSteps = !kVectorized || !Norm::kWeight  ? 0
                               : kIters < kBudget / kStepBytes ? kIters
                                                               : kBudget / kStepBytes;
  constexpr int kBiasLeft = (kBudget - kWeightSteps * kStepBytes) / kStepBytes;
  constexpr int kBiasSteps = !kVectorized || !Norm::kBias ? 0 : kIters < kBiasLeft ? kIters : kBiasLeft;
  constexpr int smem = (kWeightSteps + kBiasSteps) * kStepBytes;
  auto kernel =
      norm_rows_grid<Norm, TIn, TOut, kThreads, kVec, kIters, kGroup, extent, kWeightSteps, kBiasSteps, kVectorized>;
  static const bool ready =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) == cudaSuccess;
  // As many groups as are resident at once (one CTA per SM); with fewer CTAs resident than one group
  // the kernel does not run (the output keeps its poison).
  static const int64_t groups = [&] {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem);
    const int64_t n = int64_t(per_sm) * cg_expert::sm_count() / kGroup;
    return n < rows ? n : rows;
  }();
  constexpr size_t count_bytes = (sizeof(unsigned) * rows + 15) / 16 * 16;
  char* memory = cg_expert::device_workspace(count_bytes + sizeof(float2) * rows * kGroup);
  if (!ready || groups < 1 || memory == nullptr) return;
  GridWorkspace ws{reinterpret_cast<unsigned*>(memory), reinterpret_cast<float2*>(memory + count_bytes)};
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(groups * kGroup));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr, config.numAttrs = 1;
  cudaLaunchKernelEx(&config, kernel, x, out, weight, bias, ws, rows, groups);
}

// Rows of `extent` elements, each held by kGroup CTAs of kThreads threads x kIters vectors of kVec.
template <class Norm, int kThreads, int kVec, int kIters, int kGroup, int64_t rows, int64_t extent, class TIn,
          class TOut>
void launch_norm_grid(TIn const* x, TOut* out, float const* weight, float const* bias, cudaStream_t stream) {
  const bool vectorized = cg_expert::aligned_to(x, 16) && cg_expert::aligned_to(out, 16) && extent % kVec == 0 &&
                          cg_norm::params_aligned<Norm>(weight, bias);
  if (vectorized)
    launch_rows_grid<Norm, TIn, TOut, kThreads, kVec, kIters, kGroup, rows, extent, true>(x, out, weight, bias, stream);
  else
    launch_rows_grid<Norm, TIn, TOut, kThreads, kVec, kIters, kGroup, rows, extent, false>(x, out, weight, bias,
                                                                                           stream);
}
