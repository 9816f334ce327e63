// Split-K: for outputs too small to fill the GPU (few tiles, long K), every tile's K is cut into
// ranges computed by different CTAs (tile_scheduler.cuh). Each writes its fp32 partial sum to a
// workspace; a second kernel adds the partials of an element in split order (so the result is
// deterministic, run to run) and applies the epilogue functor on the way to C.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "epilogue_direct_store.cuh"
#include "tile_scheduler.cuh"

namespace cutegen::gemm {

// The workspace: one TileM x TileN block of floats (row-major inside) per (batch, tile row, tile
// column, split), over the cluster-padded tile grid, the splits of a tile next to each other.
template <class Config>
struct SplitKPartials {
  static constexpr int TileElements = Config::TileM * Config::TileN;
  float* workspace;
  int tiles_m, tiles_n, batches, splits;

  template <class SchedulerParams>
  static SplitKPartials make(void* workspace, SchedulerParams const& s) {
    return {static_cast<float*>(workspace), s.cluster_tiles_m * Config::ClusterM, s.cluster_tiles_n * Config::ClusterN,
            s.batches, s.splits};
  }
  CUTE_HOST_DEVICE size_t bytes() const {
    return size_t(batches) * tiles_m * tiles_n * splits * TileElements * sizeof(float);
  }
  CUTE_HOST_DEVICE float* block(TileCoord t) const {
    return workspace + ((size_t(t.batch) * tiles_m + t.m) * tiles_n + t.n) * splits * TileElements +
           size_t(t.split) * TileElements;
  }

  // The consumers' accumulators of one work unit into its block (whole tiles: no predicates).
  template <class TiledMma, class Accumulator>
  CUTE_DEVICE void store(TiledMma const& tiled_mma, Accumulator const& accum, TileCoord tile,
                         int consumer_thread) const {
    using namespace cute;
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    float* out = block(tile);
    CUTE_UNROLL
    for (int i = 0; i < size(accum); i += 2) {
      int r = get<0>(tCcC(i)), c = get<1>(tCcC(i));
      if (get<0>(tCcC(i + 1)) == r && get<1>(tCcC(i + 1)) == c + 1) {  // wgmma fragments hold column pairs
        *reinterpret_cast<float2*>(out + r * Config::TileN + c) = make_float2(accum(i), accum(i + 1));
      } else {
        out[r * Config::TileN + c] = accum(i);
        out[get<0>(tCcC(i + 1)) * Config::TileN + get<1>(tCcC(i + 1))] = accum(i + 1);
      }
    }
  }
};

// One thread per element of C (grid-stride), consecutive threads along a row.
template <class Config, class Functor>
__global__ void split_k_reduce(SplitKPartials<Config> partials,
                               typename EpilogueDirectStore<Config, Functor>::Params out) {
  int64_t total = int64_t(out.m) * out.n * partials.batches;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += int64_t(gridDim.x) * blockDim.x) {
    int col = int(i % out.n);
    int row = int(i / out.n % out.m);
    int batch = int(i / out.n / out.m);
    float const* p = partials.block(TileCoord{row / Config::TileM, col / Config::TileN, batch}) +
                     (row % Config::TileM) * Config::TileN + col % Config::TileN;
    float sum = p[0];
    for (int s = 1; s < partials.splits; ++s)
      sum += p[size_t(s) * partials.TileElements];
    out.put(sum, row, col, batch);
  }
}

template <class Config, class Functor>
cudaError_t launch_split_k_reduce(SplitKPartials<Config> const& partials,
                                  typename EpilogueDirectStore<Config, Functor>::Params const& out,
                                  cudaStream_t stream) {
  constexpr int threads = 256;
  int64_t total = int64_t(out.m) * out.n * partials.batches;
  int64_t blocks = (total + threads - 1) / threads;
  unsigned grid = blocks < 8192 ? unsigned(blocks) : 8192u;  // grid-stride beyond
  split_k_reduce<Config, Functor><<<grid, threads, 0, stream>>>(partials, out);
  return cudaGetLastError();
}

// A split count for `tiles` output tiles of `k_tiles` k-tiles each on `sms` SMs: 1 when the tiles
// alone fill half the GPU; otherwise enough splits to fill it, each at least `min_k_tiles` long.
inline int suggest_splits(int tiles, int k_tiles, int sms, int min_k_tiles = 8) {
  if (tiles <= 0 || 2 * tiles >= sms) return 1;
  int by_sms = sms / tiles;
  int by_k = k_tiles / min_k_tiles;
  int splits = by_sms < by_k ? by_sms : by_k;
  return splits < 1 ? 1 : splits;
}

}  // namespace cutegen::gemm
