// The epilogue collective that stages C in shared memory and stores it with TMA.
//
// Each consumer warpgroup owns 64-row blocks of the tile (cooperative: its half of 128 rows;
// ping-pong: its whole tile). A block goes out in sub-tiles of 64 rows x one 128-byte row
// (32 fp32 or 64 16-bit columns): the warpgroup writes the sub-tile's accumulators, through the
// functor and converted to ElementC, into one of Buffers 128-byte-swizzled staging buffers (a
// fragment's column pair is one conflict-free 8- or 4-byte store), and one thread hands the buffer
// to a TMA store. The store runs on while the warpgroup fills the other buffers and, after the
// tile's last sub-tile, while it runs the next tile's mainloop: this is what the direct store
// cannot overlap. TMA clips the tile at C's edges, so edge tiles need no predicates.
//
// Preconditions (the host picks EpilogueDirectStore otherwise): C row-major and not transposed,
// its base, row stride and batch stride 16-byte aligned, no split-K.
#pragma once

#include <cstdint>

#include <cute/tensor.hpp>  // first: the sm90 atom headers below need what it declares
#include <cute/arch/copy_sm90_tma.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cutlass/arch/barrier.h>

#include "epilogue_direct_store.cuh"
#include "gemm_config.cuh"
#include "staging_rounds.cuh"
#include "tile_scheduler.cuh"

namespace cutegen::gemm {

// Buffers: staging buffers per consumer warpgroup (more keep more stores in flight, for outputs
// whose tiles take little mainloop, at the cost of pipeline stages).
template <class Config, class Functor, int Buffers_ = 2>
struct EpilogueTmaStore {
  using ElementC = typename Config::ElementC;
  using FunctorType = Functor;
  using Direct = EpilogueDirectStore<Config, Functor>;  // split-K's reduce stores through it

  static constexpr int BlockRows = 64;  // one wgmma atom's rows: a warpgroup's share of a block
  static constexpr int SubN = 128 / int(sizeof(ElementC));
  static constexpr int Buffers = Buffers_;
  static constexpr int ConsumerWarpgroups = 2;  // GemmWarpSpecialized's
  static_assert(Config::TileN % SubN == 0, "the tile's columns must be whole 128-byte sub-tiles");
  static_assert(Config::TileM % (BlockRows * Config::MmaWarpgroups) == 0, "whole 64-row blocks per warpgroup");
  static_assert(Buffers >= 2, "one buffer filled while another is stored");
  // A warpgroup's sub-tiles per tile; where Buffers divides it, every tile starts on buffer 0.
  static constexpr int SubTiles = Config::TileM / (BlockRows * Config::MmaWarpgroups) * (Config::TileN / SubN);
  static constexpr bool WholeRounds = SubTiles % Buffers == 0;
  using Rounds = StagingRounds<Buffers, WholeRounds>;

  using SmemLayout = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW128_Atom<ElementC>{},
                                                  cute::Shape<cute::Int<BlockRows>, cute::Int<SubN>>{}));
  static constexpr int BufferElements = int(cute::cosize_v<SmemLayout>);

  struct SharedStorage {
    // 1024-byte alignment: the swizzle pattern's period, as TMA assumes.
    alignas(1024) cute::array_aligned<ElementC, ConsumerWarpgroups * Buffers * BufferElements, 1024> staging;
  };

  using StrideC = cute::Stride<int64_t, cute::Int<1>, int64_t>;
  using GmemC = decltype(cute::make_tensor(cute::make_gmem_ptr(static_cast<ElementC*>(nullptr)),
                                           cute::make_layout(cute::make_shape(0, 0, 0), StrideC{})));
  using TmaC = decltype(cute::make_tma_copy(cute::SM90_TMA_STORE{}, GmemC{}, SmemLayout{}));

  struct Params {
    typename Direct::Params direct;  // C, its shape and the functor; what split-K's reduce stores through
    TmaC tma;
    int batches;
  };

  // Host side: C's TMA descriptor, from the direct store's params of the same C.
  static Params make_params(typename Direct::Params const& d, int batches) {
    int64_t stride_l = batches > 1 ? d.batch_stride : d.ldc * d.m;  // one batch: any non-zero stride
    auto mC = cute::make_tensor(cute::make_gmem_ptr(d.c), cute::make_layout(cute::make_shape(d.m, d.n, batches),
                                                                            StrideC{d.ldc, cute::Int<1>{}, stride_l}));
    return {d, cute::make_tma_copy(cute::SM90_TMA_STORE{}, mC, SmemLayout{}), batches};
  }
  static typename Direct::Params const& direct(Params const& p) { return p.direct; }
  // Whether C meets the preconditions above (launch_gemm refuses the launch otherwise).
  static bool admits(Params const& p) {
    auto const& d = p.direct;
    auto bytes = int64_t(sizeof(ElementC));
    return !d.transposed && reinterpret_cast<uintptr_t>(d.c) % 16 == 0 && (d.ldc * bytes) % 16 == 0 &&
           (d.batch_stride * bytes) % 16 == 0;
  }

  // Element offset of (row, col) in a staging buffer: SmemLayout's 128-byte swizzle written out
  // (each row's 16-byte chunks permuted by XOR with row % 8), so that a thread's offsets are one
  // base XOR a constant per column group (tests/epilogue_tma_store_test.cc checks it against CuTe's).
  CUTE_HOST_DEVICE static constexpr int staging_offset(int row, int col) {
    constexpr int ChunkElements = 16 / int(sizeof(ElementC));
    return row * SubN + (col ^ (row % 8 * ChunkElements));
  }

  // The tile's accumulators of consumer warpgroup `warpgroup` (0 or 1), `consumer_thread` being
  // its thread's index among the tile's MMA threads.
  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& p, TiledMma const& tiled_mma, Accumulator const& accum, TileCoord tile,
                                int consumer_thread, SharedStorage& shared, int warpgroup) {
    using namespace cute;
    using Pair = ElementPair<ElementC>;
    auto const& d = p.direct;
    int wg_thread = consumer_thread % cutlass::NumThreadsPerWarpGroup;
    int barrier = 2 + warpgroup;  // 0 and 1 order the ping-pong teams
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    // The wgmma accumulator: ((2 columns, 2 rows 8 apart, TileN/8 column groups), 64-row atoms, 1);
    // the thread's element (c, half, group) of an atom sits at (row0 + 8 half, col0 + 8 group + c).
    static_assert(decltype(size<2>(accum))::value == 1 && decltype(size<0, 2>(accum))::value == Config::TileN / 8);
    constexpr int Atoms = decltype(size<1>(accum))::value;
    constexpr int GroupsPerSub = SubN / 8;

    Tensor mC = p.tma.get_tma_tensor(make_shape(d.m, d.n, p.batches));  // (M,N,L)
    auto tma = p.tma.get_slice(Int<0>{});
    ElementC* staging = shared.staging.data() + warpgroup * Buffers * BufferElements;
    int sub_index = 0;
    CUTE_UNROLL
    for (int atom = 0; atom < Atoms; ++atom) {
      int row0 = get<0>(tCcC(make_coord(make_coord(0, 0, 0), atom, 0)));  // in the tile
      int col0 = get<1>(tCcC(make_coord(make_coord(0, 0, 0), atom, 0)));  // < 8
      int base = staging_offset(row0 % BlockRows, col0);
      int c_row0 = tile.m * Config::TileM + row0;
      int block_m = c_row0 / BlockRows;  // this warpgroup's 64 rows of the atom, in C
      CUTE_UNROLL
      for (int sub = 0; sub < Config::TileN / SubN; ++sub, ++sub_index) {
        ElementC* buffer = staging + (sub_index % Buffers) * BufferElements;
        Rounds::acquire(sub_index, wg_thread, barrier);
        CUTE_UNROLL
        for (int group = 0; group < GroupsPerSub; ++group) {
          CUTE_UNROLL
          for (int half = 0; half < 2; ++half) {
            auto first = make_coord(make_coord(0, half, sub * GroupsPerSub + group), atom, 0);
            auto second = make_coord(make_coord(1, half, sub * GroupsPerSub + group), atom, 0);
            int c_row = c_row0 + 8 * half, c_col = tile.n * Config::TileN + col0 + 8 * (sub * GroupsPerSub + group);
            // Outside C the functor must not read its operands; TMA drops those elements anyway.
            bool in_rows = c_row < d.m;
            *reinterpret_cast<Pair*>(buffer + ((base ^ (8 * group)) + 8 * half * SubN)) =
                Pair{in_rows && c_col < d.n ? ElementC(d.functor.apply(accum(first), c_row, c_col, tile.batch))
                                            : ElementC(0),
                     in_rows && c_col + 1 < d.n ? ElementC(d.functor.apply(accum(second), c_row, c_col + 1, tile.batch))
                                                : ElementC(0)};
          }
        }
        Rounds::release(wg_thread, barrier, [&] {
          Tensor sC = make_tensor(make_smem_ptr(buffer), SmemLayout{});  // (64,SubN)
          Tensor gC = local_tile(mC, Shape<Int<BlockRows>, Int<SubN>>{},
                                 make_coord(block_m, tile.n * (Config::TileN / SubN) + sub, tile.batch));  // (64,SubN)
          copy(p.tma, tma.partition_S(sC), tma.partition_D(gC));
        });
      }
    }
  }

  // Before the CTA exits: every store has read its staging buffer.
  CUTE_DEVICE static void finish(int consumer_thread) {
    Rounds::drain(consumer_thread % cutlass::NumThreadsPerWarpGroup);
  }
};

}  // namespace cutegen::gemm
