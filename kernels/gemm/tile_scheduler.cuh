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
//
// Masked (a scheduler for torch.triu / tril of the product): a TileMask drops the cluster tiles that
// hold no kept element from the walk, and the clusters deal out the remaining ones as if they were
// all (cluster c takes the kept units c, c + clusters, ...), so each gets its share of the work; C's
// dropped tiles are zeroed before the kernel (launch_gemm). Unmasked schedulers carry none of it.
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

// Which of C's elements (row r, column c) a masked product keeps: all, c - r >= diagonal (kUpper,
// torch.triu) or c - r <= diagonal (kLower, torch.tril); the others are zero.
struct TileMask {
  enum Kind { kAll = 0, kUpper = 1, kLower = 2 };
  int kind = kAll;
  int diagonal = 0;
};

template <bool Masked>
struct MaskFields {};
template <>
struct MaskFields<true> {
  TileMask mask;
  int tile_m, tile_n;  // the CTA tile
};

template <int ClusterM, int ClusterN, bool Masked = false>
struct SwizzledTileScheduler {
  static constexpr bool IsMasked = Masked;
  struct Params : MaskFields<Masked> {
    int cluster_tiles_m;  // cluster tiles along M: ceil(M / (TileM * ClusterM))
    int cluster_tiles_n;
    int batches;
    int swizzle;  // strip width in cluster tiles, >= 1
    int splits;   // split-K ranges per tile, >= 1
    int k_tiles;  // of the whole K
    int k_tiles_per_split;
  };

  static Params make_params(int m, int n, int batches, int tile_m, int tile_n, int swizzle, int k_tiles = 0,
                            int splits = 1, TileMask mask = {}) {
    splits = splits < 1 ? 1 : splits;
    int per_split = (k_tiles + splits - 1) / splits;
    if (per_split > 0) splits = (k_tiles + per_split - 1) / per_split;  // no empty ranges
    Params p;
    p.cluster_tiles_m = (m + tile_m * ClusterM - 1) / (tile_m * ClusterM);
    p.cluster_tiles_n = (n + tile_n * ClusterN - 1) / (tile_n * ClusterN);
    p.batches = batches;
    p.swizzle = swizzle < 1 ? 1 : swizzle;
    p.splits = splits;
    p.k_tiles = k_tiles;
    p.k_tiles_per_split = per_split;
    if constexpr (Masked) p.mask = mask, p.tile_m = tile_m, p.tile_n = tile_n;
    return p;
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

  // Whether cluster tile `linear` holds an element the mask keeps.
  CUTE_HOST_DEVICE static bool keeps(Params const& p, int linear) {
    static_assert(Masked, "only a masked scheduler keeps some tiles");
    if (p.mask.kind == TileMask::kAll) return true;
    TileCoord t = tile_of(p, linear, 0, 0);
    int const m0 = t.m * p.tile_m, n0 = t.n * p.tile_n;
    int const m1 = m0 + ClusterM * p.tile_m - 1, n1 = n0 + ClusterN * p.tile_n - 1;
    return p.mask.kind == TileMask::kUpper ? n1 - m0 >= p.mask.diagonal : n0 - m1 <= p.mask.diagonal;
  }

  // The unit `n` kept units after unit `linear` (-1: before the first); at least total_units when there
  // is none.
  CUTE_HOST_DEVICE static int next_unit(Params const& p, int linear, int n) {
    if constexpr (!Masked) {
      return linear + n;
    } else {
      int const total = total_units(p);
      while (n > 0 && ++linear < total)
        if (keeps(p, linear / p.splits)) --n;
      return linear < total ? linear : total;
    }
  }

  // How many units the walk visits: all of them, less those of cluster tiles the mask drops.
  static int kept_units(Params const& p) {
    if constexpr (!Masked) {
      return total_units(p);
    } else {
      int count = 0;
      for (int u = next_unit(p, -1, 1); u < total_units(p); u = next_unit(p, u, 1))
        ++count;
      return count;
    }
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
  // Device-side walk over this cluster's work units (the kept ones: cluster c takes kept units c,
  // c + clusters, ...).
  struct Walk {
    Params params;
    int linear;
    CUTE_DEVICE explicit Walk(Params const& p) : params(p), linear(next_unit(p, -1, int(blockIdx.x) / ClusterM + 1)) {}
    CUTE_DEVICE bool valid() const { return linear < total_units(params); }
    CUTE_DEVICE TileCoord tile() const {
      TileCoord t = tile_of(params, linear / params.splits, int(blockIdx.x) % ClusterM, int(blockIdx.y));
      t.split = linear % params.splits;
      return t;
    }
    CUTE_DEVICE int k_begin() const { return SwizzledTileScheduler::k_begin(params, linear % params.splits); }
    CUTE_DEVICE int k_count() const { return SwizzledTileScheduler::k_count(params, linear % params.splits); }
    CUTE_DEVICE int stride() const { return int(gridDim.x) / ClusterM; }
    CUTE_DEVICE bool has_next() const { return next_unit(params, linear, stride()) < total_units(params); }
    CUTE_DEVICE void advance() { linear = next_unit(params, linear, stride()); }
  };
#endif
};

}  // namespace cutegen::gemm
