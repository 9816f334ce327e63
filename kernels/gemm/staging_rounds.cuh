// The turns of a consumer warpgroup's staging buffers, shared by the TMA-store epilogues (the GEMM's,
// epilogue_tma_store.cuh; the convolution's, kernels/conv/epilogue_nchw_tma_store.cuh): a sub-tile
// waits for its buffer to be free, the warpgroup writes it, and one thread hands it to TMA stores
// that run on while the next buffers fill.
#pragma once

#include <cute/arch/copy_sm90_tma.hpp>
#include <cutlass/arch/barrier.h>

namespace cutegen::gemm {

// Buffers staging buffers taken in turn, sub-tile `sub_index` of a tile on buffer sub_index % Buffers;
// WholeRounds: every tile starts on buffer 0 (Buffers divides its sub-tiles). `barrier` is the
// warpgroup's named barrier, `wg_thread` its thread's index in it.
template <int Buffers, bool WholeRounds>
struct StagingRounds {
  // Before the warpgroup writes sub-tile `sub_index`: the buffer's last store must have read it.
  // wait<Buffers - 1> leaves only the other buffers' in flight; unless every tile starts on buffer 0,
  // a tile's first sub-tile may find its buffer's store among the newest, so waits for all.
  CUTE_DEVICE static void acquire(int sub_index, int wg_thread, int barrier) {
    if (wg_thread == 0) {
      if (!WholeRounds && sub_index == 0) {
        cute::tma_store_wait<0>();
      } else {
        cute::tma_store_wait<Buffers - 1>();
      }
    }
    cutlass::arch::NamedBarrier::sync(cutlass::NumThreadsPerWarpGroup, barrier);
  }
  // After the warpgroup wrote it: the writes fenced for the async proxy, then one thread issues
  // `stores()` (the buffer's TMA stores) as one bulk group.
  template <class Stores>
  CUTE_DEVICE static void release(int wg_thread, int barrier, Stores&& stores) {
    cute::tma_store_fence();  // the generic-proxy writes, visible to the TMA (async proxy)
    cutlass::arch::NamedBarrier::sync(cutlass::NumThreadsPerWarpGroup, barrier);
    if (wg_thread == 0) {
      stores();
      cute::tma_store_arrive();
    }
  }
  // Before the CTA exits: every store has read its staging buffer.
  CUTE_DEVICE static void drain(int wg_thread) {
    if (wg_thread == 0) cute::tma_store_wait<0>();
  }
};

}  // namespace cutegen::gemm
