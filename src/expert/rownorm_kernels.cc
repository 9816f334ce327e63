// The row-normalization kernels as CUDA text with $variables (see rownorm_template.cc, which
// prepends the statistic's code, namespace cg_norm, and fills the variables).
#include "expert/rownorm_kernels.h"

namespace cutegen {

const char* const kRowNormStreamed = R"(
// Statistics of row elements [begin, end): whole tiles through the tiled copy, then a predicated tail.
template <int kThreads, int kVec, int kUnroll, class RowTensor>
__device__ __forceinline__ Stat chunk_stats(RowTensor const& mRow, int64_t begin, int64_t end, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  auto tiled_copy = cg_expert::vec_tiled_copy<$in_type, kThreads, kVec>();
  auto thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
  Stat st = cg_norm::identity();
  int64_t t0 = begin / Tile{}, full = vectorized ? (end - begin) / Tile{} : 0;
  for (int64_t t = t0; t < t0 + full; ++t) {
    Tensor tXgX = thr_copy.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
    Tensor tXrX = make_fragment_like(tXgX);
    copy(tiled_copy, tXgX, tXrX);
    CUTE_UNROLL
    for (int i = 0; i < size(tXrX); ++i) cg_norm::update(st, cg_expert::to_f(tXrX(i)));
  }
  for (int64_t i = begin + full * Tile{} + threadIdx.x; i < end; i += kThreads) cg_norm::update(st, cg_expert::to_f(mRow(i)));
  return st;
}

// Writes the normalized row elements [begin, end).
template <int kThreads, int kVec, int kUnroll, class InTensor, class OutTensor>
__device__ __forceinline__ void chunk_apply(InTensor const& mRow, OutTensor& mOutRow, int64_t begin, int64_t end,
                                            bool vectorized, Stat st, float const* weight, float const* bias) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  auto copy_in = cg_expert::vec_tiled_copy<$in_type, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<$out_type, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(threadIdx.x);
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);
  Tensor cRow = make_identity_tensor(shape(mRow));  // (extent) -> position in the row
  int64_t t0 = begin / Tile{}, full = vectorized ? (end - begin) / Tile{} : 0;
  for (int64_t t = t0; t < t0 + full; ++t) {
    Tensor tXgX = thr_in.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));      // (CPY, kUnroll)
    Tensor tYgY = thr_out.partition_D(local_tile(mOutRow, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
    Tensor tXcX = thr_in.partition_S(local_tile(cRow, make_shape(Tile{}), make_coord(t)));
    Tensor tXrX = make_fragment_like(tXgX);
    Tensor tYrY = make_fragment_like(tYgY);
    copy(copy_in, tXgX, tXrX);
    CUTE_UNROLL
    for (int i = 0; i < size(tXrX); ++i)
      tYrY(i) = cg_expert::from_f<$out_type>(cg_norm::apply(cg_expert::to_f(tXrX(i)), get<0>(tXcX(i)), st, weight, bias));
    copy(copy_out, tYrY, tYgY);
  }
  for (int64_t i = begin + full * Tile{} + threadIdx.x; i < end; i += kThreads)
    mOutRow(i) = cg_expert::from_f<$out_type>(cg_norm::apply(cg_expert::to_f(mRow(i)), i, st, weight, bias));
}

// The split rows' shared state: chunks' partial statistics, per row the count of chunks done, and
// the ticket counter of the one-launch order. Allocated once per process (sizes are fixed per task).
struct Workspace {
  unsigned long long* ticket;
  unsigned* done;  // [rows]
  Stat* partials;  // [rows * kSplit]
};

// One work item per block: the statistics (pass 1) or the normalization (pass 2) of one chunk.
// split == 1: both at once, one item per row. kOneLaunch: items are numbered by a ticket taken at run
// time in the order stats(0), stats(1), norm(0), stats(2), norm(1), ..., norm(rows - 1), so a
// normalizing block rarely waits and re-reads its chunk from L2; every item a block waits for holds
// a smaller ticket, taken by a block already running, so the wait always ends. Otherwise two
// launches, pass 1 then pass 2.
template <int kThreads, int kVec, int kUnroll, int kSplit, bool kOneLaunch>
__global__ void __launch_bounds__(kThreads) norm_rows($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                      float const* weight, float const* bias, Workspace ws,
                                                      int64_t rows, int64_t extent, int launch_pass, bool vectorized) {
  __shared__ Stat smem[32];
  __shared__ unsigned long long ticket;
  Tensor mX = make_tensor(make_gmem_ptr(x), make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));    // (extent, rows)
  Tensor mY = make_tensor(make_gmem_ptr(out), make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));  // (extent, rows)
  constexpr int64_t kTile = kThreads * kVec * kUnroll;
  int64_t chunk = ((extent + kSplit - 1) / kSplit + kTile - 1) / kTile * kTile;  // tile-aligned chunk length
  int64_t item = blockIdx.x;
  if (kOneLaunch) {
    if (threadIdx.x == 0) ticket = atomicAdd(ws.ticket, 1ull);
    __syncthreads();
    item = static_cast<int64_t>(ticket);
  }
  int64_t row = item / kSplit, s = item % kSplit;
  int pass = kSplit == 1 ? 0 : launch_pass;  // 0: statistics and normalization together
  if (kOneLaunch) {
    int64_t g = item / kSplit, k = (g + 1) / 2;
    pass = (g == 0 || (g % 2 == 1 && k < rows)) ? 1 : 2;
    row = g == 0 ? 0 : pass == 1 ? k : g % 2 == 1 ? rows - 1 : k - 1;
  }
  int64_t begin = s * chunk < extent ? s * chunk : extent, end = begin + chunk < extent ? begin + chunk : extent;
  Tensor mRow = mX(_, row);   // (extent)
  Tensor mYRow = mY(_, row);  // (extent)
  Stat st;
  if (pass != 2) {
    st = cg_expert::block_reduce<kThreads>(chunk_stats<kThreads, kVec, kUnroll>(mRow, begin, end, vectorized), cg_norm::combine, smem);
    if (pass == 1) {
      if (threadIdx.x == 0) {
        ws.partials[row * kSplit + s] = st;
        __threadfence();  // the partial is visible before the count says so
        atomicAdd(&ws.done[row], 1u);
      }
      return;
    }
  } else {
    if (kOneLaunch && threadIdx.x == 0) {
      while (*reinterpret_cast<volatile unsigned*>(&ws.done[row]) < unsigned(kSplit)) __nanosleep(64);
      __threadfence();
    }
    __syncthreads();
    st = cg_norm::identity();
    for (int i = threadIdx.x; i < kSplit; i += kThreads) st = cg_norm::combine(st, cg_norm::load_cg(&ws.partials[row * kSplit + i]));
    st = cg_expert::block_reduce<kThreads>(st, cg_norm::combine, smem);
  }
  chunk_apply<kThreads, kVec, kUnroll>(mRow, mYRow, begin, end, vectorized, cg_norm::finalize(st), weight, bias);
}

$signature {
  constexpr int kThreads = $threads, kVec = $vec, kUnroll = $unroll, kSplit = $split;
  constexpr bool kOneLaunch = kSplit > 1 && $passes == 1;
  constexpr int64_t rows = $outer, extent = $extent;
  bool vectorized = cg_expert::aligned_to($in_name, 16) && cg_expert::aligned_to($out_name, 16) && extent % kVec == 0;
  static_assert(rows * kSplit * 2 < (int64_t(1) << 31), "one block per work item");
  constexpr size_t counter_bytes = (8 + sizeof(unsigned) * rows + 15) / 16 * 16;
  char* memory = nullptr;
  if (kSplit > 1 && !(memory = cg_expert::device_workspace(counter_bytes + sizeof(Stat) * rows * kSplit))) return;
  Workspace ws{reinterpret_cast<unsigned long long*>(memory), reinterpret_cast<unsigned*>(memory + 8),
               reinterpret_cast<Stat*>(memory + counter_bytes)};
  if (kOneLaunch && cudaMemsetAsync(memory, 0, counter_bytes, stream) != cudaSuccess) return;  // tickets, counts
  auto kernel = norm_rows<kThreads, kVec, kUnroll, kSplit, kOneLaunch>;
  const int items = static_cast<int>(rows * kSplit);
  if (kSplit == 1) {
    kernel<<<items, kThreads, 0, stream>>>($in_name, $out_name, $weight, $bias, ws, rows, extent, 0, vectorized);
  } else if (kOneLaunch) {
    kernel<<<2 * items, kThreads, 0, stream>>>($in_name, $out_name, $weight, $bias, ws, rows, extent, 0, vectorized);
  } else {
    for (int pass = 1; pass <= 2; ++pass)
      kernel<<<items, kThreads, 0, stream>>>($in_name, $out_name, $weight, $bias, ws, rows, extent, pass, vectorized);
  }
}
)";

const char* const kRowNormHeld = R"(
#include <cooperative_groups.h>
#include <cutlass/arch/barrier.h>

// A group of kGroup CTAs holds a row in shared memory and reads it from DRAM once: CTA `rank` owns
// elements [rank * chunk, ...). One thread starts a bulk copy (TMA) of every tile of the chunk's
// 16-byte-aligned body at once, each tile landing on its own mbarrier, while the threads fold each
// landed tile into their statistics (a scalar head and tail around the body are loaded directly).
// The group's statistics meet either in a thread-block cluster's distributed shared memory
// (kInCluster) or, for a group larger than a cluster, in a global workspace with a per-row arrival
// count (the grid is then launched cooperatively, so every CTA of a group is resident). With
// kPersistent the groups walk rows rows apart by the grid, and a tile's next bulk copy starts as
// soon as every thread has read the tile, so loads overlap the math and stores. With kStages = 2 a
// CTA holds two rows' chunks: row k+1 loads while row k's statistics are combined across the group
// (with one buffer, nothing of this CTA's is in flight during that wait).
struct Workspace {
  unsigned* arrived;  // [rows]: CTAs whose partial statistics are published
  Stat* partials;     // [rows * kGroup]
};

template <int kThreads, int kVec, int kUnroll, int kGroup, int kTiles, int kStages, bool kPersistent, bool kInCluster>
__global__ void $cluster_dims __launch_bounds__(kThreads)
norm_rows_held($in_type const* __restrict__ x, $out_type* __restrict__ out, float const* weight, float const* bias,
               Workspace ws, int64_t rows, int64_t extent, int64_t chunk, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  constexpr uint32_t kTileBytes = Tile{} * sizeof($in_type);
  static_assert(kVec * sizeof($in_type) == 16, "bulk copies move whole 16-byte vectors");
  extern __shared__ __align__(128) unsigned char smem_bytes[];
  __shared__ Stat red[32];
  __shared__ Stat cta_stat[2];         // by row parity, so one cluster barrier per row suffices
  __shared__ uint64_t landed[kStages * kTiles];  // one mbarrier per buffer and body tile, one phase per load
  static_assert(kStages * kTiles <= 64, "one phase bit per tile");
  uint64_t phase = 0;                  // the phase bit each tile's next wait expects
  const int rank = static_cast<int>(blockIdx.x % kGroup);  // a cluster's block rank too (1-D clusters)
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<$in_type*>(smem_bytes)), make_shape(kStages * (chunk + kVec)));
  auto copy_in = cg_expert::vec_tiled_copy<$in_type, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<$out_type, kThreads, kVec>();
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
  auto body_of = [&](Share const& s, int b) {  // the body's shared copy in buffer b
    return make_tensor(make_smem_ptr(&sX(b * (chunk + kVec) + s.body - s.base)), make_shape(s.tiles * Tile{}));
  };
  auto start_load = [&](Share const& s, int b, int64_t t) {  // thread 0 only
    uint64_t& bar = landed[b * kTiles + t];
    cute::set_barrier_transaction_bytes(bar, kTileBytes);
    SM90_BULK_COPY_G2S::copy(x + s.body + t * Tile{}, &bar, &body_of(s, b)(t * Tile{}), kTileBytes);
  };
  // The scalar head [first, body) and tail [tail, last); each element stays with one thread.
  auto for_scalars = [&](Share const& s, auto&& f) {
    for (int64_t i = s.first + threadIdx.x; i < s.body; i += kThreads) f(i);
    for (int64_t i = s.tail + threadIdx.x; i < s.last; i += kThreads) f(i);
  };
  // The row's statistics from every CTA's: all CTAs of the group combine them in the same order, so
  // all agree bit for bit.
  auto row_stats = [&](Stat st, int64_t row, int k) {
    if constexpr (kInCluster) {
      namespace cg = cooperative_groups;
      cg::cluster_group cluster = cg::this_cluster();
      if (threadIdx.x == 0) cta_stat[k & 1] = st;
      cluster.sync();
      Stat all = cg_norm::identity();
      for (int r = 0; r < kGroup; ++r) all = cg_norm::combine(all, cluster.map_shared_rank(cta_stat, r)[k & 1]);
      return all;
    } else {
      if (threadIdx.x == 0) {
        ws.partials[row * kGroup + rank] = st;
        __threadfence();  // the partial is visible before the count says so
        atomicAdd(&ws.arrived[row], 1u);
        while (*reinterpret_cast<volatile unsigned*>(&ws.arrived[row]) < unsigned(kGroup)) __nanosleep(32);
        __threadfence();
      }
      __syncthreads();
      Stat all = cg_norm::identity();
      for (int r = threadIdx.x; r < kGroup; r += kThreads)
        all = cg_norm::combine(all, cg_norm::load_cg(&ws.partials[row * kGroup + r]));
      return cg_expert::block_reduce<kThreads>(all, cg_norm::combine, red);
    }
  };

  const int64_t row_step = kPersistent ? gridDim.x / kGroup : rows;
  int64_t row = blockIdx.x / kGroup;
  Share cur = share_of(row);
  if (threadIdx.x == 0) {
    for (int t = 0; t < kStages * kTiles; ++t) cute::initialize_barrier(landed[t], 1);
    cutlass::arch::fence_barrier_init();
    for (int b = 0; b < kStages; ++b) {  // the first row of each buffer
      if (b > 0 && row + b * row_step >= rows) break;
      Share first = b == 0 ? cur : share_of(row + b * row_step);
      for (int64_t t = 0; t < first.tiles; ++t) start_load(first, b, t);
    }
  }
  __syncthreads();
  for (int k = 0; row < rows; ++k, row += row_step) {
    const int b = k % kStages, bar0 = b * kTiles;  // this row's buffer and its first tile's mbarrier
    const int64_t offset = b * (chunk + kVec);      // the buffer in sX
    Tensor sBody = body_of(cur, b);
    Tensor gY = make_tensor(make_gmem_ptr(out + cur.body), make_shape(cur.tiles * Tile{}));
    Tensor cBody = make_identity_tensor(make_shape(cur.tiles * Tile{}));  // -> offset from `body`
    Stat st = cg_norm::identity();
    for_scalars(cur, [&](int64_t i) {
      $in_type v = x[i];
      sX(offset + i - cur.base) = v;
      cg_norm::update(st, cg_expert::to_f(v));
    });
    for (int64_t t = 0; t < cur.tiles; ++t) {
      cute::wait_barrier(landed[bar0 + t], (phase >> (bar0 + t)) & 1);
      phase ^= uint64_t(1) << (bar0 + t);
      asm volatile("" ::: "memory");  // keep the shared-memory reads below the wait
      Tensor tXsX = thr_in.partition_S(local_tile(sBody, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
      Tensor tXrX = make_fragment_like(tXsX);
      copy(copy_in, tXsX, tXrX);
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i) cg_norm::update(st, cg_expert::to_f(tXrX(i)));
    }
    st = cg_expert::block_reduce<kThreads>(st, cg_norm::combine, red);
    Stat row_st = cg_norm::finalize(row_stats(st, row, k));

    // The buffer's next row (kStages rows on) may reuse a tile's shared memory once every thread
    // has read it, when its body sits at the same offset (else it starts after the whole chunk is read).
    bool more = row + kStages * row_step < rows;
    Share next = share_of(more ? row + kStages * row_step : row);
    bool in_step = more && next.body - next.base == cur.body - cur.base && next.tiles == cur.tiles;
    for (int64_t t = 0; t < cur.tiles; ++t) {
      Tensor tXsX = thr_in.partition_S(local_tile(sBody, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
      Tensor tYgY = thr_out.partition_D(local_tile(gY, make_shape(Tile{}), make_coord(t)));   // (CPY, kUnroll)
      Tensor tXcX = thr_in.partition_S(local_tile(cBody, make_shape(Tile{}), make_coord(t)));
      Tensor tXrX = make_fragment_like(tXsX);
      Tensor tYrY = make_fragment_like(tYgY);
      copy(copy_in, tXsX, tXrX);
      if (in_step) {
        // Reads through the generic proxy, then a bulk (async proxy) write of the same bytes: the
        // proxy fence orders them; without it a pending read could see the next row.
        cutlass::arch::fence_view_async_shared();
        __syncthreads();
        if (threadIdx.x == 0) start_load(next, b, t);
      }
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i)
        tYrY(i) = cg_expert::from_f<$out_type>(
            cg_norm::apply(cg_expert::to_f(tXrX(i)), cur.body + get<0>(tXcX(i)) - cur.row_start, row_st, weight, bias));
      copy(copy_out, tYrY, tYgY);
    }
    for_scalars(cur, [&](int64_t i) {
      out[i] = cg_expert::from_f<$out_type>(
          cg_norm::apply(cg_expert::to_f(sX(offset + i - cur.base)), i - cur.row_start, row_st, weight, bias));
    });
    cutlass::arch::fence_view_async_shared();  // as above, for the next row's bulk copies
    __syncthreads();  // the chunk is read: the next row's scalars (and tiles) may overwrite it
    if (more && !in_step && threadIdx.x == 0)
      for (int64_t t = 0; t < next.tiles; ++t) start_load(next, b, t);
    if constexpr (kStages == 1) cur = next;
    else cur = share_of(row + row_step);
  }
  // No CTA may exit (releasing its shared memory) while another of its cluster still reads it.
  if constexpr (kInCluster) cooperative_groups::this_cluster().sync();
}

$signature {
  constexpr int kThreads = $threads, kVec = $vec, kUnroll = $unroll, kCluster = $cluster, kSplit = $split;
  constexpr int kBlocksPerSm = $blocks_per_sm, kStages = $stages;
  constexpr bool kInCluster = kCluster > 0, kPersistent = kBlocksPerSm > 0;
  constexpr int kGroup = kInCluster ? kCluster : kSplit;
  static_assert(kInCluster || kPersistent, "a group larger than a cluster walks rows in a persistent grid");
  constexpr int64_t rows = $outer, extent = $extent, kTile = int64_t(kThreads) * kVec * kUnroll;
  constexpr int64_t chunk = ((extent + kGroup - 1) / kGroup + kTile - 1) / kTile * kTile;
  constexpr int smem = static_cast<int>(kStages * (chunk + kVec) * sizeof($in_type));
  bool vectorized = cg_expert::aligned_to($in_name, 16) && cg_expert::aligned_to($out_name, 16);
  auto kernel = norm_rows_held<kThreads, kVec, kUnroll, kGroup, static_cast<int>(chunk / kTile), kStages, kPersistent, kInCluster>;
  // Above 48 KB of dynamic shared memory a kernel must opt in, once; so must clusters of more than 8
  // CTAs (a non-portable size, named at launch rather than by __cluster_dims__).
  static const bool ready =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem) == cudaSuccess &&
      (kCluster <= 8 || cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess);
  if (!ready) return;
  // A group larger than a cluster meets in a workspace; its arrival counts start at zero on every call.
  Workspace ws{nullptr, nullptr};
  if constexpr (!kInCluster) {
    constexpr size_t count_bytes = (sizeof(unsigned) * rows + 15) / 16 * 16;
    char* memory = cg_expert::device_workspace(count_bytes + sizeof(Stat) * rows * kGroup);
    if (memory == nullptr) return;
    ws = Workspace{reinterpret_cast<unsigned*>(memory), reinterpret_cast<Stat*>(memory + count_bytes)};
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
    cudaLaunchKernelEx(&config, kernel, $in_name, $out_name, $weight, $bias, ws, rows, extent, chunk, vectorized);
  } else {
    kernel<<<grid, kThreads, smem, stream>>>($in_name, $out_name, $weight, $bias, ws, rows, extent, chunk, vectorized);
  }
}
)";

const char* const kRowNormWarp = R"(
// A warp per row, held in registers: kIters steps of 32 lanes x kVec elements, all loaded at once
// (vectors through the tiled copy when the rows are 16-byte aligned, else coalesced scalars), then
// shuffles combine the lanes' statistics, and the normalized registers are stored. No shared memory
// and no barrier: short rows are latency-bound, and a block per row paid for both.
template <int kVec, int kIters>
__global__ void __launch_bounds__(32) norm_rows_warp($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                     float const* weight, float const* bias, int64_t extent, bool vectorized) {
  using Step = Int<32 * kVec>;
  const int lane = threadIdx.x;
  Tensor mX = make_tensor(make_gmem_ptr(x + blockIdx.x * extent), make_shape(extent));     // this row
  Tensor mY = make_tensor(make_gmem_ptr(out + blockIdx.x * extent), make_shape(extent));
  auto copy_in = cg_expert::vec_tiled_copy<$in_type, 32, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<$out_type, 32, kVec>();
  auto thr_in = copy_in.get_thread_slice(lane);
  auto thr_out = copy_out.get_thread_slice(lane);
  // Element k of step i: lane-contiguous vectors, or (scalar) lane-interleaved for coalescing.
  auto position = [&](int i, int k) -> int64_t { return vectorized ? (i * 32 + lane) * kVec + k : (i * kVec + k) * 32 + lane; };
  float v[kIters][kVec];
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tXgX = thr_in.partition_S(local_tile(mX, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tXrX = make_fragment_like(tXgX);
      if (position(i, 0) < extent) copy(copy_in, tXgX, tXrX);  // a row of whole vectors: all or none
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) v[i][k] = cg_expert::to_f(tXrX(k));
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) v[i][k] = position(i, k) < extent ? cg_expert::to_f(mX(position(i, k))) : 0.0f;
    }
  }
  Stat st = cg_norm::identity();
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i)
    CUTE_UNROLL
    for (int k = 0; k < kVec; ++k)
      if (position(i, k) < extent) cg_norm::update(st, v[i][k]);
  CUTE_UNROLL
  for (int m = 16; m > 0; m >>= 1) st = cg_norm::combine(st, cg_expert::shfl_xor(st, m));
  st = cg_norm::finalize(st);
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tYgY = thr_out.partition_D(local_tile(mY, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tYrY = make_fragment_like(tYgY);
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) tYrY(k) = cg_expert::from_f<$out_type>(cg_norm::apply(v[i][k], position(i, k), st, weight, bias));
      if (position(i, 0) < extent) copy(copy_out, tYrY, tYgY);
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        if (position(i, k) < extent) mY(position(i, k)) = cg_expert::from_f<$out_type>(cg_norm::apply(v[i][k], position(i, k), st, weight, bias));
    }
  }
}

$signature {
  constexpr int kVec = $vec;
  constexpr int64_t rows = $outer, extent = $extent;
  constexpr int kIters = int((extent + 32 * kVec - 1) / (32 * kVec));
  static_assert(rows < (int64_t(1) << 31), "a block per row");
  bool vectorized = cg_expert::aligned_to($in_name, 16) && cg_expert::aligned_to($out_name, 16) && extent % kVec == 0;
  norm_rows_warp<kVec, kIters><<<static_cast<int>(rows), 32, 0, stream>>>($in_name, $out_name, $weight, $bias, extent, vectorized);
}
)";

const char* const kRowNormColumns = R"(
// One thread per (outer, inner) column. Columns of up to 64 elements are held in registers and read
// once; longer ones are read twice (statistics, then output).
template <int kThreads, int kCache>
__global__ void __launch_bounds__(kThreads) norm_columns($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                         int64_t outer, int64_t extent, int64_t inner) {
  auto layout = make_layout(make_shape(inner, extent, outer), make_stride(Int<1>{}, inner, extent * inner));
  Tensor mX = make_tensor(make_gmem_ptr(x), layout);    // (inner, extent, outer)
  Tensor mY = make_tensor(make_gmem_ptr(out), layout);  // (inner, extent, outer)
  for (int64_t col = int64_t(blockIdx.x) * kThreads + threadIdx.x; col < outer * inner; col += int64_t(gridDim.x) * kThreads) {
    int64_t o = col / inner, j = col % inner;
    Stat st = cg_norm::identity();
    if constexpr (kCache > 0) {
      float v[kCache];
      CUTE_UNROLL
      for (int r = 0; r < kCache; ++r) v[r] = cg_expert::to_f(mX(j, r, o));  // every load in flight at once
      CUTE_UNROLL
      for (int r = 0; r < kCache; ++r) cg_norm::update(st, v[r]);
      st = cg_norm::finalize(st);
      CUTE_UNROLL
      for (int r = 0; r < kCache; ++r) mY(j, r, o) = cg_expert::from_f<$out_type>(cg_norm::apply(v[r], r, st, nullptr, nullptr));
    } else {
      for (int64_t r = 0; r < extent; ++r) cg_norm::update(st, cg_expert::to_f(mX(j, r, o)));
      st = cg_norm::finalize(st);
      for (int64_t r = 0; r < extent; ++r)
        mY(j, r, o) = cg_expert::from_f<$out_type>(cg_norm::apply(cg_expert::to_f(mX(j, r, o)), r, st, nullptr, nullptr));
    }
  }
}

$signature {
  constexpr int kThreads = $threads;
  constexpr int64_t outer = $outer, extent = $extent, inner = $inner;
  constexpr int kCache = extent <= 64 ? int(extent) : 0;
  int64_t blocks = (outer * inner + kThreads - 1) / kThreads;
  if (blocks > (int64_t(1) << 30)) blocks = int64_t(1) << 30;
  norm_columns<kThreads, kCache><<<static_cast<int>(blocks), kThreads, 0, stream>>>($in_name, $out_name, outer, extent, inner);
}
)";


}  // namespace cutegen
