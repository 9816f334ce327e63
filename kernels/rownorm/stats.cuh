// A row normalization's statistic and the hooks every strategy kernel calls on a norm: out =
// apply(x, finalize(statistic of the row)). A norm is a struct of static hooks (norms.cuh); the
// strategy kernels take it as their `Norm` template parameter. NormHooks<Norm> gives the hooks a norm
// may leave out, in terms of the five it must have:
//   identity()          the statistic of no elements
//   update(st, x)       st joined with one element
//   combine(p, q)       two statistics of disjoint elements joined
//   finalize(st)        the row's statistic as apply takes it
//   apply_to(x, st, w, b)  the normalized value of x, w and b the weight and bias at its position
// and kWeight, kBias: whether the norm has a weight and a bias (elementwise affine).
#pragma once

#include "common/prelude.cuh"

namespace cg_norm {

struct Stat {
  float a, b, c;
};

// Another block's published statistics, read past L1, which is not coherent.
__device__ __forceinline__ Stat load_cg(Stat const* p) { return Stat{__ldcg(&p->a), __ldcg(&p->b), __ldcg(&p->c)}; }
// Statistics an earlier launch wrote, read through L1 (the same few addresses in every warp).
__device__ __forceinline__ Stat load_nc(Stat const* p) { return Stat{__ldg(&p->a), __ldg(&p->b), __ldg(&p->c)}; }

// What stands in for a weight and a bias where the norm has none.
constexpr float kNoWeight = 1.0f, kNoBias = 0.0f;

template <class Norm>
struct NormHooks {
  static constexpr bool kWeight = false, kBias = false;
  // The unfinalized statistic of this thread's elements of a chunk held in shared memory: for_each(f)
  // calls f(x) on each of them, and may be called again.
  template <class ForEach>
  __device__ __forceinline__ static Stat partial(ForEach for_each) {
    Stat st = Norm::identity();
    for_each([&](float x) { Norm::update(st, x); });
    return st;
  }
  // The unfinalized statistic (as combine takes it) of a block's share of a row held in registers,
  // for_each, reduce, tree and PerThread as for held_stats below; x is left as it is.
  template <class ForEach, class Reduce, class Tree, class PerThread>
  __device__ __forceinline__ static Stat held_partial(ForEach for_each, Reduce reduce, Tree tree, PerThread) {
    return reduce(Norm::partial(for_each), Norm::combine);
  }
  // The finalized statistic of a row held in registers: for_each(f) calls f(float& x) on each of
  // this thread's elements of the row (f may rewrite x for held_apply_to); reduce(v, op) combines one
  // value per thread over the row's threads and gives every thread the result. tree(v, op) does the
  // same as a balanced tree, each op joining two equal numbers of threads; PerThread::value is the
  // count of elements every thread holds where that makes each side of a join stand for as many
  // elements, else 0 (and then tree must not be called).
  template <class ForEach, class Reduce, class Tree, class PerThread>
  __device__ __forceinline__ static Stat held_stats(ForEach for_each, Reduce reduce, Tree tree, PerThread) {
    return Norm::finalize(reduce(Norm::partial(for_each), Norm::combine));
  }
  // The normalized value of an element of a held row, x as held_stats left it, w and b as for apply_to.
  __device__ __forceinline__ static float held_apply_to(float x, Stat st, float w, float b) {
    return Norm::apply_to(x, st, w, b);
  }
  // combine for two statistics of equal counts (for the Welford statistic, without a division).
  __device__ __forceinline__ static Stat join(Stat p, Stat q) { return Norm::combine(p, q); }
  // A statistic as two words, and back, `count` being the number of elements it covers: the count,
  // where the statistic holds one, is known to every reader, so an 8-byte slot holds it for one load.
  __device__ __forceinline__ static float2 to_slot(Stat st) { return make_float2(st.a, st.b); }
  __device__ __forceinline__ static Stat from_slot(float2 s, float count) {
    (void)count;
    return Stat{s.x, s.y, 0.0f};
  }
};

// The weight and the bias at position j of a row.
template <class Norm>
__device__ __forceinline__ float weight_at(float const* weight, int64_t j) {
  return Norm::kWeight ? weight[j] : kNoWeight;
}
template <class Norm>
__device__ __forceinline__ float bias_at(float const* bias, int64_t j) {
  return Norm::kBias ? bias[j] : kNoBias;
}
// The normalized value of x at position j of its row.
template <class Norm>
__device__ __forceinline__ float apply(float x, int64_t j, Stat st, float const* weight, float const* bias) {
  return Norm::apply_to(x, st, weight_at<Norm>(weight, j), bias_at<Norm>(bias, j));
}
// Whether weight and bias, where the norm has them, allow 16-byte vectors.
template <class Norm>
inline bool params_aligned(float const* weight, float const* bias) {
  return (!Norm::kWeight || cg_expert::aligned_to(weight, 16)) && (!Norm::kBias || cg_expert::aligned_to(bias, 16));
}
// This thread's shares of tile t (of a row `extent` long) of the weight and of the bias, loaded as
// vectors by `copy`, a tiled copy of floats laid out as the one that loads x, where `load`; else, or
// where the norm has none, their stand-ins everywhere.
template <class Norm, class TiledCopy, class TileShape>
__device__ __forceinline__ auto param_tiles(TiledCopy const& copy, float const* weight, float const* bias,
                                            int64_t extent, TileShape tile, int64_t t, bool load) {
  auto share = [&](float const* p, bool has, float none) {
    Tensor g = copy.get_thread_slice(threadIdx.x)
                   .partition_S(local_tile(make_tensor(make_gmem_ptr(p), make_shape(extent)), tile, make_coord(t)));
    Tensor r = make_fragment_like(g);
    if (has && load)
      cute::copy(copy, g, r);
    else
      fill(r, none);
    return r;
  };
  return cute::make_tuple(share(weight, Norm::kWeight, kNoWeight), share(bias, Norm::kBias, kNoBias));
}

}  // namespace cg_norm
using cg_norm::Stat;
