// Row normalization, each row held in shared memory by a group of CTAs and read from DRAM once: a
// thread-block cluster (kInCluster) or CTAs of a persistent cooperative grid.
#pragma once

#include <cooperative_groups.h>
#include <cutlass/arch/barrier.h>

#include "rownorm/stats.cuh"

// An instance whose clusters have up to 8 CTAs (the portable size) defines CG_HELD_NAMES_CLUSTER
// to 1 before including this file, and the kernel names its cluster shape; larger clusters are named
// at launch.
#if defined(CG_HELD_NAMES_CLUSTER) && CG_HELD_NAMES_CLUSTER
#define CG_HELD_CLUSTER_DIMS __cluster_dims__(kGroup, 1, 1)
#else
#define CG_HELD_CLUSTER_DIMS
#endif

// A group of kGroup CTAs holds a row in shared memory and reads it from DRAM once: CTA `rank` owns
// elements [rank * chunk, ...). One thread starts a bulk copy (TMA) of every tile of the chunk's
// 16-byte-aligned body at once, each tile landing on its own mbarrier, while the threads take their
// partial statistics from the tiles as they land, and from shared memory again where the statistic
// walks its elements twice (a scalar head and tail around the body are loaded directly).
// The group's statistics meet either in a thread-block cluster's distributed shared memory
// (kInCluster) or, for a group larger than a cluster, in a global workspace with a per-row arrival
// count (the grid is then launched cooperatively, so every CTA of a group is resident). With
// kPersistent the groups walk rows rows apart by the grid, and a tile's next-row bulk copy starts as
// soon as every thread has read the tile, so loads of row k+1 overlap the math and stores of row k.
struct HeldWorkspace {
  unsigned* arrived;  // [rows]: CTAs whose partial statistics are published
  Stat* partials;     // [rows * kGroup]
};

template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kUnroll, int kGroup, int kTiles,
          bool kPersistent, bool kInCluster>
__global__ void CG_HELD_CLUSTER_DIMS __launch_bounds__(kThreads)
    norm_rows_held(TIn const* __restrict__ x, TOut* __restrict__ out, float const* weight, float const* bias,
                   HeldWorkspace ws, int64_t rows, int64_t extent, int64_t chunk, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  constexpr uint32_t kTileBytes = Tile{} * sizeof(TIn);
  static_assert(kVec * sizeof(TIn) == 16, "bulk copies move whole 16-byte vectors");
  extern __shared__ __align__(128) unsigned char smem_bytes[];
  __shared__ Stat red[32];
  __shared__ Stat cta_stat[2];         // by row parity, so one cluster barrier per row suffices
  __shared__ Stat met;                 // a row's statistics, combined from the workspace by warp 0
  __shared__ uint64_t landed[kTiles];  // one mbarrier per body tile, one phase per load
  static_assert(kTiles <= 64, "one phase bit per tile");
  uint64_t phase = 0;                                      // the phase bit each tile's next wait expects
  const int rank = static_cast<int>(blockIdx.x % kGroup);  // a cluster's block rank too (1-D clusters)
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<TIn*>(smem_bytes)), make_shape(chunk + kVec));
  auto copy_in = cg_expert::vec_tiled_copy<TIn, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<TOut, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(threadIdx.x);
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);

  // This CTA's share of a row: the flat range [first, last), its vectorized body [body, tail) of
  // whole tiles, and `base`, the vector boundary at or before `first` where the shared copy starts
  // (so aligned global vectors land on aligned shared vectors).
  struct Share {
    int64_t row_start, first, last, base, body, tiles, tail;
  };
  auto share_of = [&](int64_t row) {
    Share s;
    s.row_start = row * extent;
    s.first = s.row_start + (rank * chunk < extent ? rank * chunk : extent);
    s.last = s.row_start + ((rank + 1) * chunk < extent ? (rank + 1) * chunk : extent);
    s.base = vectorized ? s.first / kVec * kVec : s.first;
    s.body = vectorized ? (s.first + kVec - 1) / kVec * kVec : s.last;
    if (s.body > s.last) s.body = s.last;
    s.tiles = (s.last - s.body) / Tile{};
    s.tail = s.body + s.tiles * Tile{};
    return s;
  };
  auto body_of = [&](Share const& s) {  // the body's shared copy
    return make_tensor(make_smem_ptr(&sX(s.body - s.base)), make_shape(s.tiles * Tile{}));
  };
  auto start_load = [&](Share const& s, int64_t t) {  // thread 0 only
    cute::set_barrier_transaction_bytes(landed[t], kTileBytes);
    SM90_BULK_COPY_G2S::copy(x + s.body + t * Tile{}, &landed[t], &body_of(s)(t * Tile{}), kTileBytes);
  };
  // The scalar head [first, body) and tail [tail, last); each element stays with one thread.
  auto for_scalars = [&](Share const& s, auto&& f) {
    for (int64_t i = s.first + threadIdx.x; i < s.body; i += kThreads)
      f(i);
    for (int64_t i = s.tail + threadIdx.x; i < s.last; i += kThreads)
      f(i);
  };
  // The row's statistics from every CTA's: all CTAs of the group combine them in the same order, so
  // all agree bit for bit.
  auto row_stats = [&](Stat st, int64_t row, int k) {
    if constexpr (kInCluster) {
      namespace cg = cooperative_groups;
      cg::cluster_group cluster = cg::this_cluster();
      if (threadIdx.x == 0) cta_stat[k & 1] = st;
      cluster.sync();
      Stat all = Norm::identity();
      for (int r = 0; r < kGroup; ++r)
        all = Norm::combine(all, cluster.map_shared_rank(cta_stat, r)[k & 1]);
      return all;
    } else {
      // Warp 0 alone waits for the group and combines its partials (one barrier for the block, not
      // a block reduction: KernelBench softmax 4.33 -> 4.17 ms).
      if (threadIdx.x < 32) {
        if (threadIdx.x == 0) {
          ws.partials[row * kGroup + rank] = st;
          __threadfence();  // the partial is visible before the count says so
          atomicAdd(&ws.arrived[row], 1u);
          while (*reinterpret_cast<volatile unsigned*>(&ws.arrived[row]) < unsigned(kGroup))
            __nanosleep(32);
          __threadfence();
        }
        __syncwarp();
        Stat all = Norm::identity();
        for (int r = threadIdx.x; r < kGroup; r += 32)
          all = Norm::combine(all, cg_norm::load_cg(&ws.partials[row * kGroup + r]));
        all = cg_expert::warp_reduce(all, Norm::combine);
        if (threadIdx.x == 0) met = all;
      }
      __syncthreads();
      return met;
    }
  };

  const int64_t row_step = kPersistent ? gridDim.x / kGroup : rows;
  int64_t row = blockIdx.x / kGroup;
  Share cur = share_of(row);
  if (threadIdx.x == 0) {
    for (int t = 0; t < kTiles; ++t)
      cute::initialize_barrier(landed[t], 1);
    cutlass::arch::fence_barrier_init();
    for (int64_t t = 0; t < cur.tiles; ++t)
      start_load(cur, t);
  }
  __syncthreads();
  for (int k = 0; row < rows; ++k, row += row_step) {
    Tensor sBody = body_of(cur);
    Tensor gY = make_tensor(make_gmem_ptr(out + cur.body), make_shape(cur.tiles * Tile{}));
    Tensor cBody = make_identity_tensor(make_shape(cur.tiles * Tile{}));  // -> offset from `body`
    // This thread's elements of the chunk: on the first walk as they land (the scalars copied into
    // shared memory, each tile after its mbarrier), on later walks from shared memory.
    bool landed_all = false;
    auto for_each = [&](auto&& f) {
      for_scalars(cur, [&](int64_t i) {
        if (!landed_all) sX(i - cur.base) = x[i];
        f(cg_expert::to_f(sX(i - cur.base)));
      });
      for (int64_t t = 0; t < cur.tiles; ++t) {
        if (!landed_all) {
          cute::wait_barrier(landed[t], (phase >> t) & 1);
          phase ^= uint64_t(1) << t;
          asm volatile("" ::: "memory");  // keep the shared-memory reads below the wait
        }
        Tensor tXsX = thr_in.partition_S(local_tile(sBody, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
        Tensor tXrX = make_fragment_like(tXsX);
        copy(copy_in, tXsX, tXrX);
        CUTE_UNROLL
        for (int i = 0; i < size(tXrX); ++i)
          f(cg_expert::to_f(tXrX(i)));
      }
      landed_all = true;
    };
    Stat st = cg_expert::block_reduce<kThreads>(Norm::partial(for_each), Norm::combine, red);
    Stat row_st = Norm::finalize(row_stats(st, row, k));

    // The next row's tiles may reuse a tile's shared memory once every thread has read it, when
    // its body sits at the same offset (else they start after the whole chunk is read).
    bool more = row + row_step < rows;
    Share next = share_of(more ? row + row_step : row);
    bool in_step = more && next.body - next.base == cur.body - cur.base && next.tiles == cur.tiles;
    for (int64_t t = 0; t < cur.tiles; ++t) {
      Tensor tXsX = thr_in.partition_S(local_tile(sBody, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
      Tensor tYgY = thr_out.partition_D(local_tile(gY, make_shape(Tile{}), make_coord(t)));    // (CPY, kUnroll)
      Tensor tXcX = thr_in.partition_S(local_tile(cBody, make_shape(Tile{}), make_coord(t)));
      Tensor tXrX = make_fragment_like(tXsX);
      Tensor tYrY = make_fragment_like(tYgY);
      copy(copy_in, tXsX, tXrX);
      if (in_step) {
        // Reads through the generic proxy, then a bulk (async proxy) write of the same bytes: the
        // proxy fence orders them; without it a pending read could see the next row.
        cutlass::arch::fence_view_async_shared();
        __syncthreads();
        if (threadIdx.x == 0) start_load(next, t);
      }
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i)
        tYrY(i) = cg_expert::from_f<TOut>(cg_norm::apply<Norm>(
            cg_expert::to_f(tXrX(i)), cur.body + get<0>(tXcX(i)) - cur.row_start, row_st, weight, bias));
      copy(copy_out, tYrY, tYgY);
    }
    for_scalars(cur, [&](int64_t i) {
      out[i] = cg_expert::from_f<TOut>(
          cg_norm::apply<Norm>(cg_expert::to_f(sX(i - cur.base)), i - cur.row_start, row_st, weight, bias));
    });
    cutlass::arch::fence_view_async_shared();  // as above, for the next row's bulk copies
    __syncthreads();                           // the chunk is read: the next row's scalars (and tiles) may overwrite it
    if (more && !in_step && threadIdx.x == 0)
      for (int64_t t = 0; t < next.tiles; ++t)
        start_load(next, t);
    cur = next;
  }
  // No CTA may exit (releasing its shared memory) while another of its cluster still reads it.
  if constexpr (kInCluster) cooperative_groups::this_cluster().sync();
}

// Rows of `extent` elements, each held by kGroup CTAs (a cluster where kInCluster, else CTAs of a
// cooperative grid, which must be persistent) in tiles of kThreads x kVec x kUnroll; with kBlocksPerSm
// > 0 persistent groups of up to that many CTAs per SM, each prefetching its next row.
template <class Norm, bool kInCluster, int kThreads, int kVec, int kUnroll, int kGroup, int kBlocksPerSm, int64_t rows,
          int64_t extent, class TIn, class TOut>
void launch_norm_held(TIn const* x, TOut* out, float const* weight, float const* bias, cudaStream_t stream) {
  constexpr bool kPersistent = kBlocksPerSm > 0;
  constexpr int kCluster = kInCluster ? kGroup : 0;
  static_assert(kInCluster || kPersistent, "a group larger than a cluster walks rows in a persistent grid");
  constexpr int64_t kTile = int64_t(kThreads) * kVec * kUnroll;
  constexpr int64_t chunk = ((extent + kGroup - 1) / kGroup + kTile - 1) / kTile * kTile;
  constexpr int smem = static_cast<int>((chunk + kVec) * sizeof(TIn));
  bool vectorized = cg_expert::aligned_to(x, 16) && cg_expert::aligned_to(out, 16);
  auto kernel = norm_rows_held<Norm, TIn, TOut, kThreads, kVec, kUnroll, kGroup, static_cast<int>(chunk / kTile),
                               kPersistent, kInCluster>;
  // Above 48 KB of dynamic shared memory a kernel must opt in, once; so must clusters of more than 8
  // CTAs (a non-portable size, named at launch rather than by __cluster_dims__).
  static const bool ready =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) == cudaSuccess &&
      (kCluster <= 8 || cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess);
  if (!ready) return;
  // A group larger than a cluster meets in a workspace; its arrival counts start at zero on every call.
  HeldWorkspace ws{nullptr, nullptr};
  if constexpr (!kInCluster) {
    constexpr size_t count_bytes = (sizeof(unsigned) * rows + 15) / 16 * 16;
    char* memory = cg_expert::device_workspace(count_bytes + sizeof(Stat) * rows * kGroup);
    if (memory == nullptr) return;
    ws = HeldWorkspace{reinterpret_cast<unsigned*>(memory), reinterpret_cast<Stat*>(memory + count_bytes)};
    if (cudaMemsetAsync(memory, 0, count_bytes, stream) != cudaSuccess) return;
  }
  // Attributes a chevron launch cannot carry: a cluster size above 8, or a cooperative grid (every
  // CTA resident at once).
  constexpr bool kExtended = kCluster > 8 || !kInCluster;
  cudaLaunchAttribute attr = {};
  if constexpr (kCluster > 8) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = kCluster, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
  } else if constexpr (!kInCluster) {
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
  }
  auto config_for = [&](int64_t ctas) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(ctas));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    if (kExtended) config.attrs = &attr, config.numAttrs = 1;
    return config;
  };
  // One group per row, or (persistent) as many groups as are resident at once, at most kBlocksPerSm
  // CTAs per SM. A group larger than a cluster must be resident whole: with fewer CTAs resident than
  // one group the kernel does not run (the output keeps its poison).
  static const int64_t groups = [&] {
    if (!kPersistent) return rows;
    int64_t n = 0;
    if constexpr (kInCluster) {
      cudaLaunchConfig_t config = config_for(rows * kCluster);
      int clusters = 0;
      cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
      int64_t wanted = cg_expert::sm_count() * kBlocksPerSm / kGroup;
      n = clusters < wanted ? clusters : wanted;
      n = n > 1 ? n : 1;  // a cluster that does not fit fails at launch
    } else {
      int per_sm = 0;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem);
      n = int64_t(per_sm < kBlocksPerSm ? per_sm : kBlocksPerSm) * cg_expert::sm_count() / kGroup;
    }
    return n < rows ? n : rows;
  }();
  if (groups < 1) return;
  const int grid = static_cast<int>(groups * kGroup);
  if constexpr (kExtended) {
    cudaLaunchConfig_t config = config_for(grid);
    cudaLaunchKernelEx(&config, kernel, x, out, weight, bias, ws, rows, extent, chunk, vectorized);
  } else {
    kernel<<<grid, kThreads, smem, stream>>>(x, out, weight, bias, ws, rows, extent, chunk, vectorized);
  }
}
