// What the mainloops that promote a tensor-core partial share (mainloop_3xtf32.cuh,
// mainloop_promoting.cuh, mainloop_paired_parts.cuh): walking the k-tiles in spans, and releasing
// stages behind them.
#pragma once

#include <cute/arch/mma_sm90_desc.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/config.hpp>

namespace cutegen::gemm {

// Calls step(i, opens, closes) for k-tiles 0 .. k_count-1: whole spans of Span k-tiles, their loop
// unrolled so that `opens` and `closes` are constants (a branch around a promotion makes ptxas
// serialize the wgmmas), then the last k-tiles, fewer than a span, as spans of one.
template <int Span, class Step>
CUTE_DEVICE void for_each_k_tile_in_spans(int k_count, Step&& step) {
  int whole_spans_end = k_count / Span * Span;
  for (int i = 0; i < whole_spans_end; i += Span) {
    CUTE_UNROLL
    for (int j = 0; j < Span; ++j)
      step(i + j, j == 0, j == Span - 1);
  }
  for (int i = whole_spans_end; i < k_count; ++i)
    step(i, true, true);
}

// Releases the pipeline's stages in k-tile order (StagesPerKTile each), through a given k-tile once
// its wgmmas retired; `after_release(i)` runs after k-tile i-1's stages were released (the
// mainloops' contract).
template <class Pipeline, class PipelineState, class AfterRelease, int StagesPerKTile = 1>
struct StageReleaser {
  Pipeline& pipeline;
  PipelineState state;  // the first stage not yet released
  AfterRelease& after_release;
  int released = 0;

  CUTE_DEVICE void through(int last) {
    for (; released <= last; ++released) {
      for (int s = 0; s < StagesPerKTile; ++s, ++state)
        pipeline.consumer_release(state);
      after_release(released + 1);
    }
  }
};

// The end of a span: every wgmma into the partial retired, the partial added to the fp32
// accumulator by FADDs (rounded to nearest, where the tensor cores truncate).
template <class Accumulator, class Partial>
CUTE_DEVICE void promote(Accumulator& accum, Partial& partial) {
  cute::warpgroup_wait<0>();
  cute::warpgroup_fence_operand(partial);
  CUTE_UNROLL
  for (int j = 0; j < cute::size(accum); ++j)
    accum(j) += partial(j);
}

// The mma of the mainloops that only issue wgmmas into a partial (mainloop_promoting.cuh,
// mainloop_paired_parts.cuh), with MainloopTmaWgmma::mma's contract: `accum` cleared, then per
// k-tile (StagesPerKTile stages each, released together) `issue(opens, partial)` waits for its
// stages and commits its wgmmas into `partial` (zeroed where the k-tile opens a span). One batch
// stays in flight: k-tile i-1's stages go back once its batch retired, also before a span's last
// k-tile is drained into the accumulator, so the producer has stages to fill during the drain; then
// that k-tile's own go back.
template <int Span, int StagesPerKTile, class Pipeline, class PipelineState, class Accumulator, class AfterRelease,
          class Issue>
CUTE_DEVICE void promote_in_spans(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                                  AfterRelease& after_release, Issue&& issue) {
  auto partial = cute::make_fragment_like(accum);
  cute::clear(accum);
  if (k_count == 0) return;
  StageReleaser<Pipeline, PipelineState, AfterRelease, StagesPerKTile> release{pipeline, read, after_release};
  for_each_k_tile_in_spans<Span>(k_count, [&](int i, bool opens, bool closes) {
    issue(opens, partial);
    if (!opens) {
      cute::warpgroup_wait<1>();
      cute::warpgroup_fence_operand(partial);
      release.through(i - 1);
    }
    if (closes) {
      promote(accum, partial);
      release.through(i);
    }
  });
}

}  // namespace cutegen::gemm
