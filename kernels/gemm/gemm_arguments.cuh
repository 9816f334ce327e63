// What a caller hands a GEMM (C = epilogue(A * B), batched), and the kernel parameters built from it.
//
// Leading dimensions are BLAS-style: the stride, in elements, of the matrix mode that is not
// contiguous (a row-major A's row stride, a column-major A's column stride). Batch strides are
// in elements too; 0 broadcasts one operand to every batch. fp32 operands (3xTF32) must be K-major:
// A row-major, B column-major.
#pragma once

#include <cstdint>

#include "epilogue_direct_store.cuh"
#include "epilogue_tma_store.cuh"
#include "gemm_config.cuh"
#include "mainloop_3xtf32.cuh"
#include "mainloop_paired_parts.cuh"
#include "mainloop_promoting.cuh"
#include "mainloop_register_split.cuh"
#include "mainloop_tma_wgmma.cuh"
#include "split_k.cuh"
#include "tile_scheduler.cuh"

namespace cutegen::gemm {

template <class Config, class Functor>
struct GemmArguments {
  ProblemShape shape;
  typename Config::ElementA const* a;
  int64_t lda, batch_stride_a;
  typename Config::ElementB const* b;
  int64_t ldb, batch_stride_b;
  typename Config::ElementC* c;
  int64_t ldc, batch_stride_c;  // C is row-major
  bool transposed_c = false;    // the kernel computes C^T (its M is C's columns, its N C's rows)
  Functor functor;
  int swizzle = 8;            // rasterization strip width in cluster tiles
  int splits = 1;             // split-K ranges per tile (split_k.cuh); > 1 needs the workspace
  void* workspace = nullptr;  // gemm_workspace_bytes<Kernel>(args) bytes, 16-byte aligned
  // C's triangle (torch.triu / tril of the product), whose tiles outside it the kernel skips where the
  // functor states MasksTiles; the functor zeroes the elements outside it, the mask drops whole tiles only.
  TileMask mask = {};
};

// An epilogue that stages C in shared memory (EpilogueTmaStore) declares its SharedStorage; the
// others (the direct store, the convolutions') store from registers.
template <class Epilogue, class = void>
struct EpilogueSmem {
  static constexpr bool Staged = false;
  struct type {};
};
template <class Epilogue>
struct EpilogueSmem<Epilogue, cute::void_t<typename Epilogue::SharedStorage>> {
  static constexpr bool Staged = true;
  using type = typename Epilogue::SharedStorage;
};

// A functor whose epilogue zeroes a triangle of C (torch.triu / tril of the product) says so with
// `static constexpr bool MasksTiles = true`, and the GEMM then skips the tiles outside it (TileMask).
template <class F, class = void>
struct functor_masks_tiles : cute::false_type {};
template <class F>
struct functor_masks_tiles<F, cute::void_t<decltype(F::MasksTiles)>> : cute::bool_constant<F::MasksTiles> {};

// Epilogue_: EpilogueDirectStore, or EpilogueTmaStore where C admits it (its `admits`).
template <class Config, class Functor, class Epilogue_ = EpilogueDirectStore<Config, Functor>>
struct GemmParams {
  using Mainloop = cute::conditional_t<
      Config::RegisterSplit, MainloopRegisterSplit<Config>,
      cute::conditional_t<Config::Fp32Via3xTf32, Mainloop3xTf32<Config>,
                          cute::conditional_t<Config::PairedParts, MainloopPairedParts<Config>,
                                              cute::conditional_t<(Config::PromoteSpan > 0), MainloopPromoting<Config>,
                                                                  MainloopTmaWgmma<Config>>>>>;
  using Epilogue = Epilogue_;
  using Scheduler = SwizzledTileScheduler<Config::ClusterM, Config::ClusterN, functor_masks_tiles<Functor>::value>;

  typename Mainloop::Params mainloop;
  typename Epilogue::Params epilogue;
  typename Scheduler::Params scheduler;
  SplitKPartials<Config> partials;  // used when scheduler.splits > 1

  // The k-tiles `tile` runs: the scheduler's (a convolution's params narrow them).
  CUTE_DEVICE KSpan k_span(TileCoord const&, int begin, int count) const { return {begin, count}; }

  // The mask only where the kernel's tiles are C's own, whole: not transposed, not split-K.
  static typename Scheduler::Params make_scheduler(GemmArguments<Config, Functor> const& args) {
    auto const& s = args.shape;
    TileMask const mask = args.transposed_c || args.splits > 1 ? TileMask{} : args.mask;
    return Scheduler::make_params(s.m, s.n, s.l, Config::TileM, Config::TileN, args.swizzle, Mainloop::k_tile_count(s),
                                  args.splits, mask);
  }

  static GemmParams make(GemmArguments<Config, Functor> const& args) {
    auto const& s = args.shape;
    auto scheduler = make_scheduler(args);
    return {Mainloop::make_params(s, args.a, make_operand_stride<Config::MajorA>(args.lda, args.batch_stride_a), args.b,
                                  make_operand_stride<Config::MajorB>(args.ldb, args.batch_stride_b)),
            Epilogue::make_params(EpilogueDirectStore<Config, Functor>::make_params(
                                      args.c, args.ldc, args.batch_stride_c, s.m, s.n, args.functor, args.transposed_c),
                                  s.l),
            scheduler, SplitKPartials<Config>::make(args.workspace, scheduler)};
  }
};

// TMA reads global memory in 16-byte units: base pointers, leading dimensions and batch strides
// must be multiples of 16 bytes. Operands that are not must be copied to a padded buffer first.
inline bool tma_aligned(void const* ptr, int64_t leading_dim, int64_t batch_stride, int element_bytes) {
  return reinterpret_cast<uintptr_t>(ptr) % 16 == 0 && (leading_dim * element_bytes) % 16 == 0 &&
         (batch_stride * element_bytes) % 16 == 0;
}

}  // namespace cutegen::gemm
