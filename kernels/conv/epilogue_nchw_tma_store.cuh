// The convolution's epilogue through shared memory, stored by TMA in whole rows of pixels: the
// stores run on while the warpgroup stages the next sub-tile and, after the tile's last one, under
// the next tile's mainloop (EpilogueNchwStore's cannot).
//
// A consumer warpgroup's 64-row block of the tile is two runs of 32 output pixels along a row (the
// pixel tile's rows are whole runs: TileQ % 32 == 0), and goes out in sub-tiles of 32 channels: per
// run one TMA box (32 pixels, 32 channels) of the output viewed as (Q, K, P, Z, N), staged as
// nchw_staging.cuh lays it out, so that a warp's store of one accumulator register (8 pixels x 4
// channels) meets every bank once.
// TMA clips at the output's edges (pixels past Q or P, channels past K); outside them the functor
// is not applied.
//
// Preconditions (make_params says false otherwise): a forward convolution or a transposed one of
// stride 1 (the output written in place) over 2-D pixel tiles, Q a multiple of 4 (16-byte row strides), the output
// 16-byte aligned, one group or groups of whole N tiles (no tile's columns spill into the next
// group's channels), fp32 output.
#pragma once

#include <cstdint>

#include <cute/tensor.hpp>  // first: the sm90 headers below need what it declares
#include <cute/arch/copy_sm90_tma.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>  // the descriptor's data type, the driver's encode call
#include <cutlass/arch/barrier.h>

#include "epilogue_nchw_store.cuh"
#include "gemm/staging_rounds.cuh"
#include "nchw_staging.cuh"

namespace cutegen::conv {

template <class Config, int TileP, int TileQ, class Functor, int Buffers = 2>
struct EpilogueNchwTmaStore {
  using ElementC = typename Config::ElementC;
  using Tile = NchwTile<TileP, TileQ, Config::TileN, 1>;
  static_assert(sizeof(ElementC) == 4, "32 pixels a 128-byte row");
  static constexpr int Run = NchwStaging::Run, SubC = NchwStaging::SubC, BlockRows = NchwStaging::BlockRows;
  static constexpr int BoxElements = NchwStaging::BoxElements, SubElements = NchwStaging::SubElements;
  static constexpr int ConsumerWarpgroups = 2;  // GemmWarpSpecialized's
  static_assert(TileQ % Run == 0, "a pixel tile's rows are whole 32-pixel runs");
  static_assert(Config::TileN % SubC == 0, "the tile's columns are whole 32-channel sub-tiles");
  static_assert(Buffers >= 2, "one buffer filled while another is stored");
  static constexpr int SubTiles = Config::TileM / (BlockRows * Config::MmaWarpgroups) * (Config::TileN / SubC);
  using Rounds = gemm::StagingRounds<Buffers, SubTiles % Buffers == 0>;

  struct SharedStorage {
    alignas(1024) cute::array_aligned<ElementC, ConsumerWarpgroups * Buffers * SubElements, 1024> staging;
  };

  struct Params {
    ElementC* out;
    ConvShape shape;
    Functor functor;
    OutputPhase phase;
    cute::TmaDescriptor tma;  // the output as (Q, K, P, Z, N), boxes (32, 32, 1, 1, 1)
  };

  // Host side: false where the preconditions above fail or the driver refuses the descriptor.
  static bool make_params(ElementC* out, ConvShape const& s, Functor const& functor, OutputPhase const& o, Params& p) {
    bool const in_place = o.step_z == 1 && o.step_p == 1 && o.step_q == 1;
    bool const whole_tiles = s.groups == 1 || s.k_group() % Config::TileN == 0;
    bool const rows = s.pitch == 0;  // a padded copy's flat tiles are no whole runs of output rows
    if (!in_place || !whole_tiles || !rows || o.q % 4 != 0 || reinterpret_cast<uintptr_t>(out) % 16 != 0) return false;
    p = {out, s, functor, o, {}};
    uint64_t const e = sizeof(ElementC), plane = uint64_t(o.p) * o.q, channel = plane * o.z;
    uint64_t dims[5] = {uint64_t(o.q), uint64_t(s.k), uint64_t(o.p), uint64_t(o.z), uint64_t(s.n)};
    uint64_t strides[4] = {channel * e, uint64_t(o.q) * e, plane * e, channel * s.k * e};
    uint32_t box[5] = {Run, SubC, 1, 1, 1}, steps[5] = {1, 1, 1, 1, 1};
    CUresult r = CUTLASS_CUDA_DRIVER_WRAPPER_CALL(cuTensorMapEncodeTiled)(
        &p.tma, cute::TMA::to_CUtensorMapDataType<ElementC>(), 5, out, dims, strides, box, steps,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS;
  }

  // The tile's accumulators of consumer warpgroup `warpgroup`, as EpilogueTmaStore's.
  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& p, TiledMma const& tiled_mma, Accumulator const& accum,
                                gemm::TileCoord tile, int consumer_thread, SharedStorage& shared, int warpgroup) {
    using namespace cute;
    Tile const t(p.shape, p.phase, tile);
    if (t.past_the_end(p.shape)) return;
    int const wg_thread = consumer_thread % cutlass::NumThreadsPerWarpGroup;
    int const barrier = 2 + warpgroup;  // 0 and 1 order the ping-pong teams
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    // The wgmma accumulator: ((2 columns, 2 rows 8 apart, TileN/8 column groups), 64-row atoms, 1).
    static_assert(decltype(size<2>(accum))::value == 1 && decltype(size<0, 2>(accum))::value == Config::TileN / 8);
    constexpr int Atoms = decltype(size<1>(accum))::value;
    constexpr int GroupsPerSub = SubC / 8;
    ElementC* staging = shared.staging.data() + warpgroup * Buffers * SubElements;
    int sub_index = 0;
    CUTE_UNROLL
    for (int atom = 0; atom < Atoms; ++atom) {
      int const row0 = get<0>(tCcC(make_coord(make_coord(0, 0, 0), atom, 0)));  // in the tile
      int const col0 = get<1>(tCcC(make_coord(make_coord(0, 0, 0), atom, 0)));  // < 8
      int const block = row0 / BlockRows * BlockRows;                           // the atom's first row
      CUTE_UNROLL
      for (int sub = 0; sub < Config::TileN / SubC; ++sub, ++sub_index) {
        ElementC* buffer = staging + (sub_index % Buffers) * SubElements;
        Rounds::acquire(sub_index, wg_thread, barrier);
        CUTE_UNROLL
        for (int group = 0; group < GroupsPerSub; ++group) {
          CUTE_UNROLL
          for (int half = 0; half < 2; ++half) {
            CUTE_UNROLL
            for (int c = 0; c < 2; ++c) {
              int const row = row0 + 8 * half, col = col0 + 8 * (sub * GroupsPerSub + group) + c;
              auto const at = make_coord(make_coord(c, half, sub * GroupsPerSub + group), atom, 0);
              buffer[NchwStaging::offset(row - block, col % SubC)] =
                  t.inside(row, col) ? ElementC(t.apply(p.functor, accum(at), row, col)) : ElementC(0);
            }
          }
        }
        Rounds::release(wg_thread, barrier, [&] {
          CUTE_UNROLL
          for (int run = 0; run < BlockRows / Run; ++run) {
            int const row = block + run * Run;
            SM90_TMA_STORE_5D::copy(&p.tma, buffer + run * BoxElements, t.q_first + row % TileQ, t.k_first + sub * SubC,
                                    t.p_first + row / TileQ, t.z, t.pixels.n);
          }
        });
      }
    }
  }

  // Before the CTA exits: every store has read its staging buffer.
  CUTE_DEVICE static void finish(int consumer_thread) {
    Rounds::drain(consumer_thread % cutlass::NumThreadsPerWarpGroup);
  }
};

}  // namespace cutegen::conv
