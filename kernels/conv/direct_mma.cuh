// Direct convolution on the tensor cores, for few input channels per group (forward, 2-D and 3-D,
// stride, padding, dilation, groups): fp32 accuracy by 3xTF32 where the fp32 multiply-adds of
// direct.cuh ran at a fifth of the chip's fp32 rate.
//
// The implicit GEMM packs a k-tile per tap and channel chunk, so three channels fill 3 of its 32
// columns; here K is every (channel, tap) pair of the group at once, C/G x T x R x S (81 for three
// channels and 3 x 3 x 3 taps) padded to a multiple of 8, so at most 7 columns are padding:
//   - the weights of TileN output channels stay in shared memory for the whole (persistent) CTA,
//     split into their tf32 hi and lo parts once, K-major as wgmma reads B;
//   - per tile of TileH x TileW output pixels the CTA stages the input patch the tile reads
//     (input_patch.cuh; the next tile's in flight while this one computes), and each thread gathers
//     its wgmma A fragment from the patch (element (pixel m, k) at the pixel's offset plus the k's,
//     a table in shared memory), splits it into hi and lo in registers and issues
//     hi * lo(B), lo * hi(B), hi * hi(B) (the wgmma RS form, A from registers), or hi * hi(B)
//     alone where plain TF32 is admitted (Products = 1);
//   - the accumulators go through the epilogue functor to the channels-first output; a wgmma
//     fragment's values of one column and eight neighbouring rows are eight neighbouring pixels of
//     one channel, so a warp's stores fill whole 32-byte sectors.
// A chain's first stage may be fused into the epilogue: a sum or mean over each channel's pixels, or a
// norm's statistics beside the output (reduce_tile).
// K is short (at most 256), so the tensor cores' truncating sums over all of it stay inside the
// evaluator's bound (measured 2-9x eager's error over 72-192 pairs); Promote > 0 adds the partial sums
// of that many k-blocks to fp32 accumulators by FADDs instead (1.1-1.6x, slower: docs/decisions.md
// conv-direct-mma). One warpgroup a CTA, several CTAs an SM. Same interface as ConvForward (workspace_bytes, run) and
// the same epilogue functor contract.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>

#include "conv_shape.cuh"
#include "direct_mma_tiling.cuh"
#include "fused_reduction.cuh"
#include "input_patch.cuh"
#include "reduce_lanes.cuh"

namespace cutegen::conv {

// x rounded to nearest tf32 (ties away), as wgmma reads it; the low 13 bits cleared, so that the
// bits are also that value as an fp32 (PTX leaves them unspecified).
CUTE_DEVICE uint32_t tf32_nearest(float x) {
  uint32_t bits;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
  return bits & ~0x1fffu;
}

// A chain's first stage fused (fused_reduction.cuh; kPixels and kStats only): each element through
// the functor as it would be stored (kStats stores it too), then per column the thread's rows summed,
// the warp's eight lanes of equal columns by shuffles (ReduceLanes), and one atomic add per warp and
// column into (image, channel): a sum or mean over the pixels into `out`, or a norm's sum and sum of
// squares in double into the functor's `stats`. Atomics per warp (four a tile), not per warpgroup:
// no barrier between a tile's epilogue and the next tile's products.
template <int TileW, int TileN, class Accumulator, class Coordinates, class Functor>
CUTE_DEVICE void reduce_tile(Accumulator const& accum, Coordinates const& coord_c, Functor const& functor,
                             ConvShape const& s, int n_image, int z, int p0, int q0, int k_first, int k_valid,
                             float* first, float* out) {
  using namespace cute;
  using Reduction = typename ReductionOf<Functor>::type;
  constexpr bool Stats = Reduction::Dims == ReduceDims::kStats;
  static_assert(Stats || Reduction::Dims == ReduceDims::kPixels, "sums over the pixels, or a norm's statistics");
  constexpr int Sums = Stats ? 2 : 1, Groups = TileN / 8, Atoms = decltype(size<1>(accum))::value;
  static_assert(decltype(size<0, 2>(accum))::value == Groups && decltype(size<2>(accum))::value == 1);
  int const plane = s.p * s.q, col0 = get<1>(coord_c(make_coord(make_coord(0, 0, 0), 0, 0)));  // lane % 4 x 2
  CUTE_UNROLL
  for (int group = 0; group < Groups; ++group) {
    CUTE_UNROLL
    for (int c = 0; c < 2; ++c) {
      float sum[Sums] = {};
      int const n = col0 + 8 * group + c;
      CUTE_UNROLL
      for (int atom = 0; atom < Atoms; ++atom) {
        CUTE_UNROLL
        for (int half = 0; half < 2; ++half) {
          auto const e = make_coord(make_coord(c, half, group), atom, 0);
          int const m = get<0>(coord_c(e)), p = p0 + m / TileW, q = q0 + m % TileW;
          if (p >= s.p || q >= s.q || n >= k_valid) continue;
          float const v = functor.apply(accum(e), n_image, k_first + n, z, p, q);
          sum[0] += v;
          if constexpr (Stats) {
            sum[1] += v * v;
            first[int64_t(n) * s.z * plane + p * s.q + q] = v;
          }
        }
      }
      CUTE_UNROLL
      for (int i = 0; i < Sums; ++i) {
        CUTE_UNROLL
        for (int mask = 1; mask < 32; mask *= 2)
          if (ReduceLanes::kPixelMasks & mask) sum[i] += __shfl_xor_sync(0xffffffffu, sum[i], mask);
      }
      if (threadIdx.x % 32 >= 4 || n >= k_valid) continue;
      int64_t const channel = int64_t(n_image) * s.k + k_first + n;  // (image, channel)
      if constexpr (Stats) {
        atomicAdd(functor.stats + 2 * channel, double(sum[0]));
        atomicAdd(functor.stats + 2 * channel + 1, double(sum[1]));
      } else {
        atomicAdd(out + channel, sum[0] * Reduction::Scale);
      }
    }
  }
}

// Grid: x over the pixel tiles (persistent: a CTA takes every gridDim.x-th), y over (group, block
// of TileN output channels).
template <int TileH, int TileW, int TileN, int KBlocks, int Promote, int Products, class Functor>
__global__ void __launch_bounds__(128) direct_mma_kernel(float const* __restrict__ x, float const* __restrict__ w,
                                                         float* __restrict__ out, ConvShape s, Functor functor) {
  using namespace cute;
  using Tiling = DirectMmaTiling<TileH, TileW, TileN, KBlocks>;
  using Tf32 = typename Tiling::Tf32;
  constexpr int TileM = Tiling::TileM, KPad = Tiling::KPad;
  // Aligned as the weights' swizzle repeats (no static shared memory: the dynamic one starts there).
  extern __shared__ __align__(1024) char mma_shared_memory[];
  auto* weights = reinterpret_cast<Tf32*>(mma_shared_memory);
  Tensor hi_b = make_tensor(make_smem_ptr(weights), typename Tiling::WeightLayout{});  // (TileN, KPad)
  Tensor lo_b = make_tensor(make_smem_ptr(weights + Tiling::WeightFloats), typename Tiling::WeightLayout{});
  int* const k_offset = reinterpret_cast<int*>(weights + 2 * Tiling::WeightFloats);
  float* const patches = reinterpret_cast<float*>(k_offset + KPad);

  int const c_group = s.c_group(), k_taps = c_group * s.taps(), n_blocks = Tiling::n_blocks(s);
  int const g = blockIdx.y / n_blocks, k_first = g * s.k_group() + blockIdx.y % n_blocks * TileN;
  int const k_valid = min(TileN, s.k_group() - blockIdx.y % n_blocks * TileN);
  int const patch_h = Tiling::patch_h(s), patch_w = Tiling::patch_w(s);

  // The weights, split once: B(n, k) = w[k_first + n][k], the (c, t, r, s) order of K; zeros past
  // the block's channels and K. Consecutive threads read consecutive k: coalesced.
  for (int i = threadIdx.x; i < TileN * KPad; i += Tiling::Threads) {
    int const n = i / KPad, k = i % KPad;
    float const v = n < k_valid && k < k_taps ? w[int64_t(k_first + n) * k_taps + k] : 0.f;
    uint32_t const hi = tf32_nearest(v);
    hi_b(n, k) = Tf32::bitcast(hi);
    lo_b(n, k) = Tf32::bitcast(tf32_nearest(v - __uint_as_float(hi)));
  }
  for (int k = threadIdx.x; k < KPad; k += Tiling::Threads)
    k_offset[k] = Tiling::k_offset(s, k);
  cutlass::arch::fence_view_async_shared();  // the weights' generic stores, visible to wgmma

  int const tiles = Tiling::Pixels::m_tiles(s);
  auto patch_buffer = [&](int b) {
    return make_tensor(make_smem_ptr(patches + b * Tiling::patch_floats(s)),
                       make_layout(make_shape(c_group, s.t, patch_h, patch_w),
                                   make_stride(s.t * patch_h * patch_w, patch_h * patch_w, patch_w, 1)));
  };
  auto fill = [&](int t, int b) {
    PixelTile const at = Tiling::Pixels::tile(s, t);
    float const* image = x + (int64_t(at.n) * s.c + g * c_group) * s.d * s.h * s.w;
    stage_patch<Tiling::Threads>(patch_buffer(b), image, s, 0, c_group, at.z * s.stride_d - s.pad_d,
                                 at.p0 * s.stride_h - s.pad_h, at.q0 * s.stride_w - s.pad_w, x);
  };

  typename Tiling::TiledMma tiled_mma;
  auto thread_mma = tiled_mma.get_thread_slice(threadIdx.x);
  Tensor coord_a = thread_mma.partition_A(make_identity_tensor(Shape<Int<TileM>, Int<KPad>>{}));  // (MMA,MMA_M,MMA_K)
  Tensor coord_c = thread_mma.partition_C(make_identity_tensor(Shape<Int<TileM>, Int<TileN>>{}));
  Tensor frag_b_hi = thread_mma.partition_fragment_B(hi_b);  // (MMA,MMA_N,MMA_K) descriptors
  Tensor frag_b_lo = thread_mma.partition_fragment_B(lo_b);
  Tensor accum = thread_mma.partition_fragment_C(make_identity_tensor(Shape<Int<TileM>, Int<TileN>>{}));
  // Two register sets of A's hi and lo, alternating over the k-blocks: one is gathered while the
  // other's products run.
  Tensor hi_a = make_tensor<Tf32>(make_shape(size<0>(coord_a), size<1>(coord_a), _2{}));  // (MMA,MMA_M,SET)
  Tensor lo_a = make_fragment_like(hi_a);
  auto gather = [&](float const* patch, int kb, int set) {
    CUTE_UNROLL
    for (int j = 0; j < size(hi_a(_, _, set)); ++j) {
      auto const mk = coord_a(_, _, kb)(j);
      float const v = patch[Tiling::pixel_offset(s, get<0>(mk)) + k_offset[get<1>(mk)]];
      uint32_t const hi = tf32_nearest(v);
      hi_a(_, _, set)(j) = Tf32::bitcast(hi);
      if constexpr (Products == 3) lo_a(_, _, set)(j) = Tf32::bitcast(tf32_nearest(v - __uint_as_float(hi)));
    }
  };
  // Promote > 0: the products of a span of Promote k-blocks go to `partial`, added to the accumulators by
  // FADDs at its end, so that the tensor cores' truncating sums stay short; 0: straight into accum.
  Tensor partial = make_fragment_like(accum);
  auto& sums = [&]() -> auto& {
    if constexpr (Promote > 0)
      return partial;
    else
      return accum;
  }
  ();
  auto products = [&](int kb, int set) {  // one batch: the small terms first
    warpgroup_fence_operand(hi_a);
    if constexpr (Products == 3) warpgroup_fence_operand(lo_a);
    warpgroup_fence_operand(sums);
    warpgroup_arrive();
    if constexpr (Products == 3) {
      cute::gemm(tiled_mma, hi_a(_, _, set), frag_b_lo(_, _, kb), sums);
      tiled_mma.accumulate_ = GMMA::ScaleOut::One;
      cute::gemm(tiled_mma, lo_a(_, _, set), frag_b_hi(_, _, kb), sums);
    }
    cute::gemm(tiled_mma, hi_a(_, _, set), frag_b_hi(_, _, kb), sums);
    tiled_mma.accumulate_ = GMMA::ScaleOut::One;
    warpgroup_commit_batch();
  };

  int t = blockIdx.x;
  if (t < tiles) fill(t, 0);
  for (int b = 0; t < tiles; t += gridDim.x, b ^= 1) {
    cp_async_wait<0>();
    __syncthreads();  // this tile's patch landed for all; every thread is done with the other buffer
    if (t + gridDim.x < tiles) fill(t + gridDim.x, b ^ 1);
    float const* patch = patches + b * Tiling::patch_floats(s);
    tiled_mma.accumulate_ = GMMA::ScaleOut::Zero;
    if constexpr (Promote > 0) clear(accum);
    gather(patch, 0, 0);
    CUTE_UNROLL
    for (int kb = 0; kb < KBlocks; ++kb) {
      products(kb, kb % 2);
      // The next k-block's set was read by batch kb - 1: retired once at most this one is in flight.
      warpgroup_wait<1>();
      if (kb + 1 < KBlocks) gather(patch, kb + 1, (kb + 1) % 2);
      if constexpr (Promote > 0) {
        if ((kb + 1) % Promote == 0 || kb + 1 == KBlocks) {  // the span ends
          warpgroup_wait<0>();
          warpgroup_fence_operand(partial);
          CUTE_UNROLL
          for (int i = 0; i < size(accum); ++i)
            accum(i) += partial(i);
          tiled_mma.accumulate_ = GMMA::ScaleOut::Zero;
        }
      }
    }
    warpgroup_wait<0>();
    warpgroup_fence_operand(accum);

    PixelTile const at = Tiling::Pixels::tile(s, t);
    int const plane = s.p * s.q;
    float* const first = out + (int64_t(at.n) * s.k + k_first) * s.z * plane + int64_t(at.z) * plane;
    if constexpr (fuses_reduction<Functor>) {
      reduce_tile<TileW, TileN>(accum, coord_c, functor, s, at.n, at.z, at.p0, at.q0, k_first, k_valid, first, out);
    } else {
      CUTE_UNROLL
      for (int i = 0; i < size(accum); ++i) {
        int const m = get<0>(coord_c(i)), n = get<1>(coord_c(i));
        int const p = at.p0 + m / TileW, q = at.q0 + m % TileW;
        if (p < s.p && q < s.q && n < k_valid)
          first[int64_t(n) * s.z * plane + p * s.q + q] = functor.apply(accum(i), at.n, k_first + n, at.z, p, q);
      }
    }
  }
}

// Promote: k-blocks a partial sum spans before it is added to the fp32 accumulators (0: the whole K).
// Products: 3, the 3xTF32 sum; 1, plain TF32 (hi x hi alone), where eager's own error admits it
// (docs/decisions.md conv-precision-from-eager).
template <int TileH, int TileW, int TileN, int KBlocks, class Functor, int Promote = 0, int Products = 3>
struct DirectMmaConv {
  using Tiling = DirectMmaTiling<TileH, TileW, TileN, KBlocks>;

  static size_t workspace_bytes(ConvShape const&) { return 0; }

  // x: (N, C, D, H, W), w: (K, C/G, T, R, S), out: (N, K, Z, P, Q) (a sum over the pixels: (N, K)); a forward
  // convolution whose channels x taps the instance's K holds (else cudaErrorInvalidValue).
  static cudaError_t run(float const* x, float const* w, float* out, ConvShape const& s, Functor functor, char*,
                         cudaStream_t stream) {
    if (s.transposed || s.pack_w || !Tiling::fits(s)) return cudaErrorInvalidValue;
    if constexpr (fuses_reduction<Functor>) {  // the atomics' zeros: the statistics, or the sums over the pixels
      cudaError_t err;
      if constexpr (ReductionOf<Functor>::type::Dims == ReduceDims::kStats)
        err = cudaMemsetAsync(functor.stats, 0, 2 * sizeof(double) * size_t(s.n) * s.k, stream);
      else
        err = cudaMemsetAsync(out, 0, sizeof(float) * size_t(s.n) * s.k, stream);
      if (err != cudaSuccess) return err;
    }
    static_assert(Products == 3 || Products == 1, "3xTF32 or plain TF32");
    auto* kernel = &direct_mma_kernel<TileH, TileW, TileN, KBlocks, Promote, Products, Functor>;
    size_t const smem = Tiling::shared_bytes(s);
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    int device = 0, sms = 0, per_sm = 0;
    if (err == cudaSuccess) err = cudaGetDevice(&device);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess) err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Tiling::Threads, smem);
    if (err != cudaSuccess) return err;
    if (per_sm == 0) return cudaErrorInvalidConfiguration;
    // As many CTAs as fit at once over the channel blocks, each taking pixel tiles in turn.
    int const blocks = s.groups * Tiling::n_blocks(s);
    int64_t const resident = (int64_t(sms) * per_sm + blocks - 1) / blocks;
    int64_t const tiles = Tiling::Pixels::m_tiles(s);
    dim3 const grid(unsigned(resident < tiles ? resident : tiles), unsigned(blocks));
    kernel<<<grid, Tiling::Threads, smem, stream>>>(x, w, out, s, functor);
    return cudaGetLastError();
  }
};

}  // namespace cutegen::conv
