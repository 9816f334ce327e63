// Which output tiles a CTA computes, in which order.
//
// Tiles are handed out in units of cluster tiles (ClusterM x ClusterN CTA tiles); cluster c takes
// cluster tiles c, c + clusters, c + 2 * clusters, ... (a persistent kernel launches as many
// clusters as fit on the GPU at once; the non-persistent fallback one cluster per cluster tile).
//
// Rasterization for L2 reuse: the cluster-tile grid is cut into strips `swizzle` cluster tiles
// wide along N; inside a strip the order runs across the strip first, then down M. The tiles in
// flight at once then cover a compact block of C, so their A rows and B columns stay in L2,
// instead of a full row of C that streams all of B for every few rows of A.
//
// Split-K: with `splits` > 1 every cluster tile is `splits` work units, each over its own range of
// k-tiles (unit u is split u % splits of cluster tile u / splits); the kernels then write partial
// sums that split_k.cuh reduces.
#pragma once

#include <cute/config.hpp>

namespace cutegen::gemm {

struct TileCoord {
  int m, n, batch;  // CTA tile indices
  int split = 0;    // which of the split-K ranges (0 without split-K)
};

// The k-tiles [begin, begin + count) one tile runs.
struct KSpan {
  int begin, count;
};

template <int ClusterM, int ClusterN>
struct SwizzledTileScheduler {
  struct Params {
    int cluster_tiles_m;  // cluster tiles along M: ceil(M / (TileM * ClusterM))
    int cluster_tiles_n;
    int batches;
    int swizzle;  // strip width in cluster tiles, >= 1
    int splits;   // split-K ranges per tile, >= 1
    int k_tiles;  // of the whole K
    int k_tiles_per_split;
  };

  static Params make_params(int m, int n, int batches, int tile_m, int tile_n, int swizzle, int k_tiles = 0,
                            int splits = 1) {
    splits = splits < 1 ? 1 : splits;
    int per_split = (k_tiles + splits - 1) / splits;
    if (per_split > 0) splits = (k_tiles + per_split - 1) / per_split;  // no empty ranges
    return {(m + tile_m * ClusterM - 1) / (tile_m * ClusterM),
            (n + tile_n * ClusterN - 1) / (tile_n * ClusterN),
            batches,
            swizzle < 1 ? 1 : swizzle,
            splits,
            k_tiles,
            per_split};
  }

  CUTE_HOST_DEVICE static int total_cluster_tiles(Params const& p) {
    return p.cluster_tiles_m * p.cluster_tiles_n * p.batches;
  }
  CUTE_HOST_DEVICE static int total_units(Params const& p) { return total_cluster_tiles(p) * p.splits; }

  // The k-tiles of split `split`: [begin, begin + count); count may be 0 for the last splits.
  CUTE_HOST_DEVICE static int k_begin(Params const& p, int split) { return split * p.k_tiles_per_split; }
  CUTE_HOST_DEVICE static int k_count(Params const& p, int split) {
    int rest = p.k_tiles - k_begin(p, split);
    return rest < 0 ? 0 : rest < p.k_tiles_per_split ? rest : p.k_tiles_per_split;
  }

  // The CTA tile of this CTA in cluster tile `linear` (0 <= linear < total_cluster_tiles).
  CUTE_HOST_DEVICE static TileCoord tile_of(Params const& p, int linear, int cta_m_in_cluster, int cta_n_in_cluster) {
    int per_batch = p.cluster_tiles_m * p.cluster_tiles_n;
    int batch = linear / per_batch;
    int rest = linear - batch * per_batch;
    int strip_size = p.swizzle * p.cluster_tiles_m;
    int strip = rest / strip_size;
    int in_strip = rest - strip * strip_size;
    int strip_n0 = strip * p.swizzle;
    int width = p.cluster_tiles_n - strip_n0 < p.swizzle ? p.cluster_tiles_n - strip_n0 : p.swizzle;
    int cm = in_strip / width;
    int cn = strip_n0 + (in_strip - cm * width);
    return {cm * ClusterM + cta_m_in_cluster, cn * ClusterN + cta_n_in_cluster, batch};
  }

  // The launch grid for `clusters` clusters: (ClusterM * clusters, ClusterN) CTAs in clusters of
  // (ClusterM, ClusterN, 1), so cluster i holds blockIdx.x in [i * ClusterM, (i + 1) * ClusterM).
#if defined(__CUDACC__)
  static dim3 grid(int clusters) { return dim3(unsigned(ClusterM * clusters), unsigned(ClusterN), 1); }
#endif

#if defined(__CUDACC__)
  // Device-side walk over this cluster's work units.
  struct Walk {
    Params params;
    int linear;
    CUTE_DEVICE explicit Walk(Params const& p) : params(p), linear(int(blockIdx.x) / ClusterM) {}
    CUTE_DEVICE bool valid() const { return linear < total_units(params); }
    CUTE_DEVICE TileCoord tile() const {
      TileCoord t = tile_of(params, linear / params.splits, int(blockIdx.x) % ClusterM, int(blockIdx.y));
      t.split = linear % params.splits;
      return t;
    }
    CUTE_DEVICE int k_begin() const { return SwizzledTileScheduler::k_begin(params, linear % params.splits); }
    CUTE_DEVICE int k_count() const { return SwizzledTileScheduler::k_count(params, linear % params.splits); }
    CUTE_DEVICE int stride() const { return int(gridDim.x) / ClusterM; }
    CUTE_DEVICE bool has_next() const { return linear + stride() < total_units(params); }
    CUTE_DEVICE void advance() { linear += stride(); }
  };
#endif
};

}  // namespace cutegen::gemm
