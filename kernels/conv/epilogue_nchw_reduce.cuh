// The convolution's epilogue where a level-2 chain's first stage, a reduction, is fused into it
// (fused_reduction.cuh): each element goes through the functor as the store's would (epilogue_nchw_
// store.cuh), and the reduction of the values, not the values, is written. The output the chain's
// next kernel reads is then 1 / (output pixels) or 1 / (output channels) of the convolution's.
//
// The wgmma accumulator of a consumer thread is ((2 columns, 2 rows 8 apart, TileN / 8 column
// groups), 64-row atoms, 1): a warp's 16 rows of an atom span all of the tile's columns, its lanes
// of equal lane % 4 holding the same columns, the four lanes of a quad the same rows.
//   kPixels: a thread sums its rows per column, the warp's lanes of equal columns add theirs by
//     shuffles, the warpgroup's four warps theirs in shared memory, and one atomic add per column
//     and tile (each warpgroup's rows) adds the tile's share into (image, channel).
//   kStats: each element stored as the store's, and its value and square summed as kPixels sums
//     one, the warps' fp32 sums added in double (a variance from the two sums then keeps its digits
//     where the mean is much larger than the spread).
//   kChannels: a thread reduces its columns per row, the quad's lanes theirs by shuffles, and one
//     lane writes the pixel; merged W phases (MergeW 2 or 4) keep the phases apart, a column's
//     phase being (lane % 4 x 2 + c) % MergeW.
//   kPool: with TileQ 8 (windows of 2) a thread's rows 8 apart are vertical neighbours and lanes 4
//     apart horizontal ones; with TileQ 4 (windows of 4) its rows are 2 image rows apart, lanes 16
//     apart 1 row, lanes 4 and 8 apart 1 and 2 columns: a window is the thread's two rows combined,
//     then shuffles, and one lane of the window writes each of its columns.
#pragma once

#include <cstdint>

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>

#include "conv_shape.cuh"
#include "epilogue_nchw_store.cuh"
#include "fused_reduction.cuh"
#include "reduce_lanes.cuh"
#include "gemm/tile_scheduler.cuh"

namespace cutegen::conv {

template <class Config, int TileP, int TileQ, class Functor, int MergeW = 1, bool Flat = false>
struct EpilogueNchwReduce {
  using Reduction = typename ReductionOf<Functor>::type;
  using ElementC = typename Config::ElementC;
  using Tile = NchwTile<TileP, TileQ, Config::TileN, MergeW, Flat>;
  using Params = typename EpilogueNchwStore<Config, TileP, TileQ, Functor, MergeW, Flat>::Params;
  static constexpr int ConsumerWarpgroups = 2, WarpsPerGroup = 4;  // GemmWarpSpecialized's
  static_assert(Reduction::Dims == ReduceDims::kPixels || MergeW == 1 || MergeW == 2 || MergeW == 4);
  static_assert(Reduction::Dims != ReduceDims::kPool ||
                    (MergeW == 1 && TileQ == ReduceLanes::pool_tile_q(Reduction::Window) &&
                     TileP * TileQ == Config::TileM),
                "a pool's windows in one warp's rows, output pixels in place");

  // kPixels, kStats: sums per column (the value; kStats also its square).
  static constexpr int Sums = Reduction::Dims == ReduceDims::kStats ? 2 : 1;
  struct SharedStorage {  // kPixels, kStats: each warp's column sums, per consumer warpgroup
    float partial[ConsumerWarpgroups][WarpsPerGroup][Sums][Config::TileN];
  };

  // The tile's accumulators of consumer warpgroup `warpgroup` (0 or 1).
  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& params, TiledMma const& tiled_mma, Accumulator const& accum,
                                gemm::TileCoord tile, int consumer_thread, SharedStorage& shared, int warpgroup) {
    using namespace cute;
    static_assert(decltype(size<2>(accum))::value == 1 && decltype(size<0, 2>(accum))::value == Config::TileN / 8 &&
                  decltype(size<1>(accum))::value == Atoms);
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    Tile const t(params.shape, params.phase, tile);
    if (t.past_the_end(params.shape)) return;  // the whole warpgroup: its barriers are not reached
    // Element (c, half, group) of atom `atom`: the value, the functor applied; its row and column.
    auto element = [&](int c, int half, int group, int atom) {
      return make_coord(make_coord(c, half, group), atom, 0);
    };
    auto row_of = [&](int half, int atom) { return get<0>(tCcC(element(0, half, 0, atom))); };
    int const col0 = get<1>(tCcC(element(0, 0, 0, 0)));  // lane % 4 x 2
    auto value = [&](int c, int half, int group, int atom) {
      return t.apply(params.functor, accum(element(c, half, group, atom)), row_of(half, atom), col0 + 8 * group + c);
    };
    if constexpr (Reduction::Dims == ReduceDims::kPixels || Reduction::Dims == ReduceDims::kStats)
      sum_pixels(params, t, value, row_of, col0, consumer_thread, shared.partial[warpgroup], warpgroup);
    else if constexpr (Reduction::Dims == ReduceDims::kChannels)
      reduce_channels(params, t, value, row_of, col0);
    else
      pool(params, t, value, row_of, col0, consumer_thread % 32);
  }

  CUTE_DEVICE static void finish(int) {}

 private:
  static constexpr int Groups = Config::TileN / 8;                          // a thread's column pairs
  static constexpr int Atoms = Config::TileM / 64 / Config::MmaWarpgroups;  // its 64-row atoms
  // What an element outside the output (or past the group's channels) contributes: nothing.
  static constexpr float Identity = Reduction::Op == ReduceOp::kSum   ? 0.f
                                    : Reduction::Op == ReduceOp::kMin ? INFINITY
                                                                      : -INFINITY;

  template <class Value, class RowOf>
  CUTE_DEVICE static void sum_pixels(Params const& params, Tile const& t, Value const& value, RowOf const& row_of,
                                     int col0, int consumer_thread,
                                     float (&partial)[WarpsPerGroup][Sums][Config::TileN], int warpgroup) {
    constexpr bool Stats = Reduction::Dims == ReduceDims::kStats;
    ElementC* const first = params.out + t.first(params.shape.k / MergeW);  // kStats: the output's store
    float sum[Groups][2][Sums];
    CUTE_UNROLL
    for (int group = 0; group < Groups; ++group) {
      CUTE_UNROLL
      for (int c = 0; c < 2; ++c) {
        float s[Sums] = {};
        int const col = col0 + 8 * group + c;
        CUTE_UNROLL
        for (int atom = 0; atom < Atoms; ++atom) {
          CUTE_UNROLL
          for (int half = 0; half < 2; ++half) {
            int const row = row_of(half, atom);
            if (!t.inside(row, col)) continue;
            float const v = value(c, half, group, atom);
            s[0] += v;
            if constexpr (Stats) {
              s[Sums - 1] += v * v;
              first[t.element(row, col)] = ElementC(v);
            }
          }
        }
        CUTE_UNROLL
        for (int i = 0; i < Sums; ++i) {
          CUTE_UNROLL
          for (int mask = 1; mask < 32; mask *= 2)
            if (ReduceLanes::kPixelMasks & mask) s[i] += __shfl_xor_sync(0xffffffffu, s[i], mask);
          sum[group][c][i] = s[i];
        }
      }
    }
    int const wg_thread = consumer_thread % cutlass::NumThreadsPerWarpGroup, lane = wg_thread % 32;
    int const barrier = 2 + warpgroup;                                            // 0 and 1 order the ping-pong teams
    cutlass::arch::NamedBarrier::sync(cutlass::NumThreadsPerWarpGroup, barrier);  // the last tile's sums are read
    if (lane < 4) {
      CUTE_UNROLL
      for (int group = 0; group < Groups; ++group) {
        CUTE_UNROLL
        for (int i = 0; i < Sums; ++i) {
          partial[wg_thread / 32][i][col0 + 8 * group] = sum[group][0][i];
          partial[wg_thread / 32][i][col0 + 8 * group + 1] = sum[group][1][i];
        }
      }
    }
    cutlass::arch::NamedBarrier::sync(cutlass::NumThreadsPerWarpGroup, barrier);
    int64_t const channel0 = int64_t(t.pixels.n) * (params.shape.k / MergeW) + t.k_first;  // (image, channel)
    for (int col = wg_thread; col < Config::TileN; col += cutlass::NumThreadsPerWarpGroup) {
      if (Tile::channel_of(col) >= t.k_valid) continue;
      if constexpr (Stats) {
        double* const stats = params.functor.stats + 2 * (channel0 + Tile::channel_of(col));
        CUTE_UNROLL
        for (int i = 0; i < Sums; ++i)
          atomicAdd(stats + i,
                    double(partial[0][i][col]) + partial[1][i][col] + partial[2][i][col] + partial[3][i][col]);
      } else {
        atomicAdd(
            params.out + channel0 + Tile::channel_of(col),
            (partial[0][0][col] + partial[1][0][col] + partial[2][0][col] + partial[3][0][col]) * Reduction::Scale);
      }
    }
  }

  template <class Value, class RowOf>
  CUTE_DEVICE static void pool(Params const& params, Tile const& t, Value const& value, RowOf const& row_of, int col0,
                               int lane) {
    constexpr int W = Reduction::Window;
    ConvShape const& s = params.shape;
    int const pooled_p = s.p / W, pooled_q = s.q / W;  // floor mode: a whole window's pixels are all inside
    bool const writer = ReduceLanes::pool_writer(W, lane);
    CUTE_UNROLL
    for (int atom = 0; atom < Atoms; ++atom) {
      int const row = row_of(0, atom);  // the window's first row (W == 2) or one of its first two (W == 4)
      int const pp = (t.p_first + row / TileQ) / W, pq = (t.q_first + row % TileQ) / W;
      ElementC* const out = params.out + ((int64_t(t.pixels.n) * s.k + t.k_first) * pooled_p + pp) * pooled_q + pq;
      bool const stored = writer && pp < pooled_p && pq < pooled_q;
      CUTE_UNROLL
      for (int group = 0; group < Groups; ++group) {
        CUTE_UNROLL
        for (int c = 0; c < 2; ++c) {
          int const col = col0 + 8 * group + c;
          float v = combine(t.inside(row, col) ? value(c, 0, group, atom) : Identity,
                            t.inside(row_of(1, atom), col) ? value(c, 1, group, atom) : Identity);
          v = across<ReduceLanes::pool_masks(W)>(v, [](float a, float b) { return combine(a, b); });
          if (stored && Tile::channel_of(col) < t.k_valid)
            out[int64_t(Tile::channel_of(col)) * pooled_p * pooled_q] = ElementC(v * Reduction::Scale);
        }
      }
    }
  }

  CUTE_DEVICE static float combine(float a, float b) {
    if constexpr (Reduction::Op == ReduceOp::kSum) return a + b;
    if constexpr (Reduction::Op == ReduceOp::kMin) return fminf(a, b);
    return fmaxf(a, b);  // kMax, and kLogSumExp's maximum
  }
  // v's combine over the lanes of the masks.
  template <int Masks, class Combine>
  CUTE_DEVICE static float across(float v, Combine const& f) {
    CUTE_UNROLL
    for (int mask = 1; mask < 32; mask *= 2)
      if (Masks & mask) v = f(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
  }

  template <class Value, class RowOf>
  CUTE_DEVICE static void reduce_channels(Params const& params, Tile const& t, Value const& value, RowOf const& row_of,
                                          int col0) {
    constexpr int Slots = MergeW > 1 ? 2 : 1;  // merged: a thread's columns c = 0, 1 are two W phases
    ElementC* const first = params.out + t.first(1);
    constexpr int Masks = ReduceLanes::channel_masks(MergeW);
    bool const writer = ReduceLanes::channel_writer(MergeW, col0 / 2);  // col0 / 2: lane % 4
    CUTE_UNROLL
    for (int atom = 0; atom < Atoms; ++atom) {
      CUTE_UNROLL
      for (int half = 0; half < 2; ++half) {
        int const row = row_of(half, atom);
        float v[Groups][2], r[Slots];
        CUTE_UNROLL
        for (int slot = 0; slot < Slots; ++slot)
          r[slot] = Identity;
        CUTE_UNROLL
        for (int group = 0; group < Groups; ++group) {
          CUTE_UNROLL
          for (int c = 0; c < 2; ++c) {
            int const col = col0 + 8 * group + c;
            v[group][c] = t.inside(row, col) ? value(c, half, group, atom) : Identity;
            r[c % Slots] = combine(r[c % Slots], v[group][c]);
          }
        }
        CUTE_UNROLL
        for (int slot = 0; slot < Slots; ++slot) {
          float result = across<Masks>(r[slot], [](float a, float b) { return combine(a, b); });
          if constexpr (Reduction::Op == ReduceOp::kLogSumExp) {     // the maximum, then the sum of exp(v - max)
            float const shift = result == -INFINITY ? 0.f : result;  // no channel: exp(-inf - 0) = 0, no NaN
            float s = 0.f;
            CUTE_UNROLL
            for (int group = 0; group < Groups; ++group) {
              CUTE_UNROLL
              for (int c = 0; c < 2; ++c)
                if (c % Slots == slot) s += expf(v[group][c] - shift);
            }
            result = shift + logf(across<Masks>(s, [](float a, float b) { return a + b; }));
          }
          int const col = col0 + slot;
          if (writer && t.pixel_inside(row, col)) first[t.offset(row, col)] = ElementC(result * Reduction::Scale);
        }
      }
    }
  }
};

}  // namespace cutegen::conv
