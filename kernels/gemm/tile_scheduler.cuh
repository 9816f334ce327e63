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
#pragma once

#include <cute/config.hpp>

namespace cutegen::gemm {

struct TileCoord {
  int m, n, batch;  // CTA tile indices
};

template <int ClusterM, int ClusterN>
struct SwizzledTileScheduler {
  struct Params {
    int cluster_tiles_m;  // cluster tiles along M: ceil(M / (TileM * ClusterM))
    int cluster_tiles_n;
    int batches;
    int swizzle;  // strip width in cluster tiles, >= 1
  };

  static Params make_params(int m, int n, int batches, int tile_m, int tile_n, int swizzle) {
    return {(m + tile_m * ClusterM - 1) / (tile_m * ClusterM), (n + tile_n * ClusterN - 1) / (tile_n * ClusterN),
            batches, swizzle < 1 ? 1 : swizzle};
  }

  CUTE_HOST_DEVICE static int total_cluster_tiles(Params const& p) { return p.cluster_tiles_m * p.cluster_tiles_n * p.batches; }

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
  // Device-side walk over this cluster's tiles.
  struct Walk {
    Params params;
    int linear;
    CUTE_DEVICE explicit Walk(Params const& p) : params(p), linear(int(blockIdx.x) / ClusterM) {}
    CUTE_DEVICE bool valid() const { return linear < total_cluster_tiles(params); }
    CUTE_DEVICE TileCoord tile() const {
      return tile_of(params, linear, int(blockIdx.x) % ClusterM, int(blockIdx.y));
    }
    CUTE_DEVICE int stride() const { return int(gridDim.x) / ClusterM; }
    CUTE_DEVICE bool has_next() const { return linear + stride() < total_cluster_tiles(params); }
    CUTE_DEVICE void advance() { linear += stride(); }
  };
#endif
};

}  // namespace cutegen::gemm
