// Row normalization, rows streamed through 128-bit tiled copies: whole, one block per row (kSplit =
// 1: statistics, block reduction, then the normalizing pass), or cut into kSplit tile-aligned chunks
// whose partial statistics meet in a workspace, over two launches or one (kOneLaunch).
#pragma once

#include "rownorm/stats.cuh"

// Statistics of row elements [begin, end): whole tiles through the tiled copy, then a predicated tail.
template <class Norm, class TIn, int kThreads, int kVec, int kUnroll, class RowTensor>
__device__ __forceinline__ Stat chunk_stats(RowTensor const& mRow, int64_t begin, int64_t end, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  auto tiled_copy = cg_expert::vec_tiled_copy<TIn, kThreads, kVec>();
  auto thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
  Stat st = Norm::identity();
  int64_t t0 = begin / Tile{}, full = vectorized ? (end - begin) / Tile{} : 0;
  for (int64_t t = t0; t < t0 + full; ++t) {
    Tensor tXgX = thr_copy.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
    Tensor tXrX = make_fragment_like(tXgX);
    copy(tiled_copy, tXgX, tXrX);
    // The tile's statistic by the norm's partial (LayerNorm's in two walks, with no division per
    // element), joined to the running one.
    st = Norm::combine(st, Norm::partial([&](auto&& f) {
                         CUTE_UNROLL
                         for (int i = 0; i < size(tXrX); ++i)
                           f(cg_expert::to_f(tXrX(i)));
                       }));
  }
  for (int64_t i = begin + full * Tile{} + threadIdx.x; i < end; i += kThreads)
    Norm::update(st, cg_expert::to_f(mRow(i)));
  return st;
}

// Writes the normalized row elements [begin, end).
template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kUnroll, class InTensor, class OutTensor>
__device__ __forceinline__ void chunk_apply(InTensor const& mRow, OutTensor& mOutRow, int64_t begin, int64_t end,
                                            bool vectorized, Stat st, float const* weight, float const* bias) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  auto copy_in = cg_expert::vec_tiled_copy<TIn, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<TOut, kThreads, kVec>();
  auto copy_param = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(threadIdx.x);
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);
  int64_t t0 = begin / Tile{}, full = vectorized ? (end - begin) / Tile{} : 0;
  for (int64_t t = t0; t < t0 + full; ++t) {
    Tensor tXgX = thr_in.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));      // (CPY, kUnroll)
    Tensor tYgY = thr_out.partition_D(local_tile(mOutRow, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
    Tensor tXrX = make_fragment_like(tXgX);
    Tensor tYrY = make_fragment_like(tYgY);
    copy(copy_in, tXgX, tXrX);
    // Weight and bias as vectors too (as scalars, 8 loads per vector of x).
    auto [tWrW, tBrB] = cg_norm::param_tiles<Norm>(copy_param, weight, bias, size(mRow), make_shape(Tile{}), t, true);
    CUTE_UNROLL
    for (int i = 0; i < size(tXrX); ++i)
      tYrY(i) = cg_expert::from_f<TOut>(Norm::apply_to(cg_expert::to_f(tXrX(i)), st, tWrW(i), tBrB(i)));
    copy(copy_out, tYrY, tYgY);
  }
  for (int64_t i = begin + full * Tile{} + threadIdx.x; i < end; i += kThreads)
    mOutRow(i) = cg_expert::from_f<TOut>(cg_norm::apply<Norm>(cg_expert::to_f(mRow(i)), i, st, weight, bias));
}

// The split rows' shared state: chunks' partial statistics, per row the count of chunks done and
// (two launches) the finalized statistic, and the ticket counter of the one-launch order. Allocated
// once per process (sizes are fixed per task); the counters are zeroed on every call.
struct SplitWorkspace {
  unsigned long long* ticket;
  unsigned* done;   // [rows]
  Stat* partials;   // [rows * kSplit]
  Stat* row_stats;  // [rows]
};

// Tiles in each of the `split` tile-aligned chunks a row is cut into (the last one may be shorter).
template <int64_t kTile, int kSplit>
__host__ __device__ constexpr int64_t chunk_tiles(int64_t extent) {
  return ((extent + kSplit - 1) / kSplit + kTile - 1) / kTile;
}

// A split row's statistic: its chunks' partials, combined in the same order by every block.
template <class Norm, int kThreads, int kSplit>
__device__ __forceinline__ Stat combined_partials(SplitWorkspace const& ws, int64_t row, Stat* smem) {
  Stat st = Norm::identity();
  for (int i = threadIdx.x; i < kSplit; i += kThreads)
    st = Norm::combine(st, cg_norm::load_cg(&ws.partials[row * kSplit + i]));
  return cg_expert::block_reduce<kThreads>(st, Norm::combine, smem);
}

// One work item per block: the statistics (pass 1) or the normalization (pass 2) of one chunk.
// split == 1: both at once, one item per row. kOneLaunch: items are numbered by a ticket taken at run
// time in the order stats(0), stats(1), norm(0), stats(2), norm(1), ..., norm(rows - 1), so a
// normalizing block rarely waits and re-reads its chunk from L2; every item a block waits for holds
// a smaller ticket, taken by a block already running, so the wait always ends. Otherwise two
// launches: this kernel's pass 1, where a row's last chunk to finish finalizes the row's statistic,
// then norm_tiles (or norm_cols).
template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kUnroll, int kSplit, bool kOneLaunch>
__global__ void __launch_bounds__(kThreads)
    norm_rows(TIn const* __restrict__ x, TOut* __restrict__ out, float const* weight, float const* bias,
              SplitWorkspace ws, int64_t rows, int64_t extent, bool vectorized) {
  __shared__ Stat smem[32];
  __shared__ unsigned long long ticket;
  Tensor mX = make_tensor(make_gmem_ptr(x),
                          make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));  // (extent, rows)
  Tensor mY = make_tensor(make_gmem_ptr(out),
                          make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));  // (extent, rows)
  constexpr int64_t kTile = kThreads * kVec * kUnroll;
  int64_t chunk = chunk_tiles<kTile, kSplit>(extent) * kTile;
  int64_t item = blockIdx.x;
  if (kOneLaunch) {
    if (threadIdx.x == 0) ticket = atomicAdd(ws.ticket, 1ull);
    __syncthreads();
    item = static_cast<int64_t>(ticket);
  }
  int64_t row = item / kSplit, s = item % kSplit;
  int pass = kSplit == 1 ? 0 : 1;  // 0: statistics and normalization together
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
    st = cg_expert::block_reduce<kThreads>(
        chunk_stats<Norm, TIn, kThreads, kVec, kUnroll>(mRow, begin, end, vectorized), Norm::combine, smem);
    if (pass == 1) {
      __shared__ bool last;
      if (threadIdx.x == 0) {
        ws.partials[row * kSplit + s] = st;
        __threadfence();  // the partial is visible before the count says so
        last = atomicAdd(&ws.done[row], 1u) == unsigned(kSplit - 1);
      }
      if (kOneLaunch) return;
      __syncthreads();
      if (!last) return;
      __threadfence();  // the other chunks' partials, published before their counts, are seen
      st = combined_partials<Norm, kThreads, kSplit>(ws, row, smem);
      if (threadIdx.x == 0) ws.row_stats[row] = Norm::finalize(st);
      return;
    }
  } else {  // pass 2 of the one launch
    if (threadIdx.x == 0) {
      while (*reinterpret_cast<volatile unsigned*>(&ws.done[row]) < unsigned(kSplit))
        __nanosleep(64);
      __threadfence();
    }
    __syncthreads();
    st = combined_partials<Norm, kThreads, kSplit>(ws, row, smem);
  }
  chunk_apply<Norm, TIn, TOut, kThreads, kVec, kUnroll>(mRow, mYRow, begin, end, vectorized, Norm::finalize(st), weight,
                                                        bias);
}

// Pass 2 of two launches: one tile per block, normalized by the row's finalized statistic. Blocks
// are numbered chunk by chunk as pass 1 cut the rows, and within a chunk row by row, so that running
// blocks read contiguous stretches of a few rows (on the H200, numbering by position across 16 rows
// 16 MB apart crowded one DRAM channel: 1.37 TB/s). There a block per chunk looping over its tiles
// ran this pass at 90% of the copy ceiling (Frobenius norm, 3.96 ms; torch.compile's 3.52). The row
// count and extent are compile-time constants, so a block finds its tile without 64-bit divisions.
// The row's statistic, written by the launch before, is read through L1: read past it (ld.cg) by
// every warp of 1.8M blocks, that one address in L2 held the Frobenius norm at 5.23 ms (5.16 now;
// torch.compile 5.16).
template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kUnroll, int kSplit, int64_t kRows,
          int64_t kExtent>
__global__ void __launch_bounds__(kThreads)
    norm_tiles(TIn const* __restrict__ x, TOut* __restrict__ out, float const* weight, float const* bias,
               Stat const* row_stats, bool vectorized) {
  Tensor mX = make_tensor(make_gmem_ptr(x),
                          make_layout(make_shape(kExtent, kRows), make_stride(Int<1>{}, kExtent)));  // (extent, rows)
  Tensor mY = make_tensor(make_gmem_ptr(out),
                          make_layout(make_shape(kExtent, kRows), make_stride(Int<1>{}, kExtent)));  // (extent, rows)
  constexpr int64_t kTile = kThreads * kVec * kUnroll, per_chunk = chunk_tiles<kTile, kSplit>(kExtent);
  int64_t t = blockIdx.x % per_chunk, row = blockIdx.x / per_chunk % kRows, s = blockIdx.x / per_chunk / kRows;
  int64_t begin = (s * per_chunk + t) * kTile;
  if (begin >= kExtent) return;  // past a short last chunk
  int64_t end = begin + kTile < kExtent ? begin + kTile : kExtent;
  Tensor mYRow = mY(_, row);
  chunk_apply<Norm, TIn, TOut, kThreads, kVec, kUnroll>(mX(_, row), mYRow, begin, end, vectorized,
                                                        cg_norm::load_nc(&row_stats[row]), weight, bias);
}

// Pass 2 of two launches where the norm has a weight or a bias: one block per tile of columns, for
// every row, kRowsAtOnce rows' loads in flight at once. The block loads its columns' weight and bias
// once; norm_tiles' block per (row, tile) reads them again for each row (LayerNorm #40: 512 MB read
// from L2 beside x's 268). On the H200, LayerNorm #40 took 0.2173 ms against 0.2220 by tiles (2 rows
// at once 0.2181, 8 rows 0.2177). Without the launch bounds' block count, ptxas issued each row's
// loads just before their use (40 registers), one row in flight at a time.
template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kUnroll, int kRowsAtOnce, int64_t kRows,
          int64_t kExtent>
__global__ void __launch_bounds__(kThreads, 1024 / kThreads)
    norm_cols(TIn const* __restrict__ x, TOut* __restrict__ out, float const* weight, float const* bias,
              Stat const* row_stats, bool vectorized) {
  static_assert(kRows % kRowsAtOnce == 0, "whole groups of rows");
  Tensor mX = make_tensor(make_gmem_ptr(x),
                          make_layout(make_shape(kExtent, kRows), make_stride(Int<1>{}, kExtent)));  // (extent, rows)
  Tensor mY = make_tensor(make_gmem_ptr(out),
                          make_layout(make_shape(kExtent, kRows), make_stride(Int<1>{}, kExtent)));  // (extent, rows)
  using Tile = Int<kThreads * kVec * kUnroll>;
  const int64_t t = blockIdx.x, begin = t * Tile{};
  if (!vectorized || begin + Tile{} > kExtent) {  // unaligned, or a short last tile: scalars, row by row
    for (int64_t row = 0; row < kRows; ++row) {
      const Stat st = cg_norm::load_nc(&row_stats[row]);
      for (int64_t i = begin + threadIdx.x; i < begin + Tile{} && i < kExtent; i += kThreads)
        mY(i, row) = cg_expert::from_f<TOut>(cg_norm::apply<Norm>(cg_expert::to_f(mX(i, row)), i, st, weight, bias));
    }
    return;
  }
  auto copy_in = cg_expert::vec_tiled_copy<TIn, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<TOut, kThreads, kVec>();
  auto copy_param = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto [tWrW, tBrB] =
      cg_norm::param_tiles<Norm>(copy_param, weight, bias, kExtent, make_shape(Tile{}), t, true);  // (CPY, kUnroll)
  CUTE_NO_UNROLL
  for (int g = 0; g < kRows / kRowsAtOnce; ++g) {
    auto tile = [&](auto& m) { return local_tile(m, make_shape(Tile{}, Int<kRowsAtOnce>{}), make_coord(t, g)); };
    Tensor tXgX = copy_in.get_thread_slice(threadIdx.x).partition_S(tile(mX));   // (CPY, kUnroll, kRowsAtOnce)
    Tensor tYgY = copy_out.get_thread_slice(threadIdx.x).partition_D(tile(mY));  // (CPY, kUnroll, kRowsAtOnce)
    Tensor tXrX = make_fragment_like(tXgX);
    Tensor tYrY = make_fragment_like(tYgY);
    copy(copy_in, tXgX, tXrX);
    CUTE_UNROLL
    for (int r = 0; r < kRowsAtOnce; ++r) {
      const Stat st = cg_norm::load_nc(&row_stats[g * kRowsAtOnce + r]);
      const int n = size(tWrW);  // this thread's elements of the tile in one row
      CUTE_UNROLL
      for (int i = 0; i < n; ++i)
        tYrY(r * n + i) =
            cg_expert::from_f<TOut>(Norm::apply_to(cg_expert::to_f(tXrX(r * n + i)), st, tWrW(i), tBrB(i)));
    }
    copy(copy_out, tYrY, tYgY);
  }
}

// Rows of `extent` elements, each in kSplit chunks (kSplit = 1: whole) of tiles of kThreads x kVec x
// kUnroll elements; with kSplit > 1, in one launch (kOneLaunch) or two.
template <class Norm, int kThreads, int kVec, int kUnroll, int kSplit, bool kOneLaunch, int64_t rows, int64_t extent,
          class TIn, class TOut>
void launch_norm_streamed(TIn const* x, TOut* out, float const* weight, float const* bias, cudaStream_t stream) {
  static_assert(kSplit > 1 || !kOneLaunch, "one launch applies to split rows");
  // Pass 2 of two launches: one tile per block. On the H200 that beat a block per chunk looping over
  // its tiles: the Frobenius norm 5.32 against 5.58 ms (1 row in 4096 chunks; 0.394 against 0.421 in
  // 512), LayerNorm #40 0.2218 against 0.2371 (16 rows x 32 chunks), once weight and bias loaded as
  // vectors (with scalar loads, 0.296 against 0.234).
  // Its tiles are 128 threads x 2 vectors whatever pass 1's shape: for the Frobenius norm 5.27 ms
  // (5.25 with compile-time divisors), against 5.34 in pass 1's 256 x 4, 5.35 in 128 x 4, 5.36 in
  // 256 x 2 and 5.83 in 256 x 1.
  bool vectorized = cg_expert::aligned_to(x, 16) && cg_expert::aligned_to(out, 16) && extent % kVec == 0 &&
                    cg_norm::params_aligned<Norm>(weight, bias);
  constexpr int kTileThreads = 128, kTileUnroll = 2;
  constexpr int64_t kTile = int64_t(kTileThreads) * kVec * kTileUnroll;
  constexpr int64_t tiles = rows * kSplit * chunk_tiles<kTile, kSplit>(extent);  // norm_tiles' blocks
  static_assert(rows * kSplit * 2 < (int64_t(1) << 31) && tiles < (int64_t(1) << 31), "one block per work item");
  // With a weight or a bias, norm_cols in its place where the rows come in groups of 2 or 4.
  constexpr int kRowsAtOnce = rows % 4 == 0 ? 4 : rows % 2 == 0 ? 2 : 1;
  constexpr bool kByColumns = (Norm::kWeight || Norm::kBias) && kRowsAtOnce > 1;
  constexpr int64_t column_tiles = chunk_tiles<kTile, 1>(extent);  // norm_cols' blocks
  constexpr size_t counter_bytes = (8 + sizeof(unsigned) * rows + 15) / 16 * 16;
  char* memory = nullptr;
  if (kSplit > 1 && !(memory = cg_expert::device_workspace(counter_bytes + sizeof(Stat) * rows * (kSplit + 1)))) return;
  SplitWorkspace ws{reinterpret_cast<unsigned long long*>(memory), reinterpret_cast<unsigned*>(memory + 8),
                    reinterpret_cast<Stat*>(memory + counter_bytes),
                    reinterpret_cast<Stat*>(memory + counter_bytes) + rows * kSplit};
  if (kSplit > 1 && cudaMemsetAsync(memory, 0, counter_bytes, stream) != cudaSuccess) return;  // tickets, counts
  auto kernel = norm_rows<Norm, TIn, TOut, kThreads, kVec, kUnroll, kSplit, kOneLaunch>;
  const int items = static_cast<int>(rows * kSplit);
  if (kSplit == 1 || kOneLaunch) {
    kernel<<<kOneLaunch ? 2 * items : items, kThreads, 0, stream>>>(x, out, weight, bias, ws, rows, extent, vectorized);
  } else {
    kernel<<<items, kThreads, 0, stream>>>(x, out, weight, bias, ws, rows, extent, vectorized);
    if constexpr (kByColumns) {
      norm_cols<Norm, TIn, TOut, kTileThreads, kVec, kTileUnroll, kRowsAtOnce, rows, extent>
          <<<static_cast<int>(column_tiles), kTileThreads, 0, stream>>>(x, out, weight, bias, ws.row_stats, vectorized);
    } else {
      norm_tiles<Norm, TIn, TOut, kTileThreads, kVec, kTileUnroll, kSplit, rows, extent>
          <<<static_cast<int>(tiles), kTileThreads, 0, stream>>>(x, out, weight, bias, ws.row_stats, vectorized);
    }
  }
}
