// The epilogue collective: accumulators straight from registers to a row-major C, through the
// functor, converted to ElementC, with predicated stores for tiles that cross C's edge.
//
// A wgmma accumulator fragment holds pairs of adjacent columns, so when C's rows are aligned the
// pair goes out as one vector store (4 threads cover 4 pairs = 8 contiguous columns of a row).
// A transposed C (the kernel computed C^T = B^T A^T, its operands swapped) takes the kernel's
// (row, col) as its (col, row); 8 threads then cover 8 contiguous rows of a column.
#pragma once

#include <cstdint>

#include <cute/tensor.hpp>

#include "gemm_config.cuh"
#include "tile_scheduler.cuh"

namespace cutegen::gemm {

// Two adjacent elements of C, the unit a wgmma accumulator fragment holds (one vector store).
template <class Element>
struct alignas(2 * sizeof(Element)) ElementPair {
  Element x, y;
};

template <class Config, class Functor>
struct EpilogueDirectStore {
  using ElementC = typename Config::ElementC;
  using FunctorType = Functor;

  struct Params {
    ElementC* c;
    int64_t ldc;           // row stride of C, in elements
    int64_t batch_stride;  // in elements
    int m, n;
    bool pairs_aligned;  // c, ldc and batch_stride allow a 2-element vector store at even columns
    bool transposed;     // C is stored transposed: the kernel's element (row, col) is C's (col, row)
    Functor functor;

    // The kernel's element (row, col) of batch `batch`, through the functor, into C.
    CUTE_HOST_DEVICE void put(float acc, int row, int col, int batch) const {
      if (transposed)
        c[batch * batch_stride + col * ldc + row] = ElementC(functor.apply(acc, col, row, batch));
      else
        c[batch * batch_stride + row * ldc + col] = ElementC(functor.apply(acc, row, col, batch));
    }
  };

  static Params make_params(ElementC* c, int64_t ldc, int64_t batch_stride, int m, int n, Functor functor,
                            bool transposed = false) {
    bool aligned = !transposed && reinterpret_cast<uintptr_t>(c) % (2 * sizeof(ElementC)) == 0 && ldc % 2 == 0 &&
                   batch_stride % 2 == 0;
    return {c, ldc, batch_stride, m, n, aligned, transposed, functor};
  }
  // Every epilogue is made from these params and the batch count (which a direct store does not need).
  static Params make_params(Params const& direct, int /*batches*/) { return direct; }
  static Params const& direct(Params const& p) { return p; }
  static bool admits(Params const&) { return true; }  // any C

  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& p, TiledMma const& tiled_mma, Accumulator const& accum, TileCoord tile,
                                int consumer_thread) {
    using namespace cute;
    using Pair = ElementPair<ElementC>;
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    CUTE_STATIC_ASSERT_V(size(tCcC) == size(accum));
    int row0 = tile.m * Config::TileM;
    int col0 = tile.n * Config::TileN;
    ElementC* c = p.c + tile.batch * p.batch_stride;

    CUTE_UNROLL
    for (int i = 0; i < size(accum); i += 2) {
      int r = row0 + get<0>(tCcC(i)), col = col0 + get<1>(tCcC(i));
      int r1 = row0 + get<0>(tCcC(i + 1)), col1 = col0 + get<1>(tCcC(i + 1));
      bool pair = r1 == r && col1 == col + 1;
      if (pair && p.pairs_aligned && r < p.m && col1 < p.n) {
        *reinterpret_cast<Pair*>(c + r * p.ldc + col) =
            Pair{ElementC(p.functor.apply(accum(i), r, col, tile.batch)),
                 ElementC(p.functor.apply(accum(i + 1), r, col1, tile.batch))};
      } else {
        if (r < p.m && col < p.n) p.put(accum(i), r, col, tile.batch);
        if (r1 < p.m && col1 < p.n) p.put(accum(i + 1), r1, col1, tile.batch);
      }
    }
  }
};

}  // namespace cutegen::gemm
