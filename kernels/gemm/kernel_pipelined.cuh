// The fallback GEMM kernel: TMA + wgmma through the same multi-stage pipeline, without warp
// specialization or persistence. One CTA per output tile, two warpgroups that all compute; thread
// 0 also issues the loads: the first `Stages` k-tiles up front, then one more each time a stage
// is released. Simpler than the warp-specialized kernel (no register reallocation, no clusters,
// no cross-tile prefetch), kept as a reference and as a working kernel if that one misbehaves.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/pipeline/sm90_pipeline.hpp>

#include "gemm_arguments.cuh"

namespace cutegen::gemm {

template <class Config_, class Functor>
struct GemmPipelined {
  using Config = Config_;
  using Arguments = GemmArguments<Config, Functor>;
  using Params = GemmParams<Config, Functor>;
  using Mainloop = typename Params::Mainloop;
  using Epilogue = typename Params::Epilogue;
  using Scheduler = typename Params::Scheduler;
  using Pipeline = typename Mainloop::Pipeline;
  static_assert(Config::ClusterM == 1 && Config::ClusterN == 1, "the fallback kernel runs without clusters");
  static_assert(Config::MmaWarpgroups == 2, "the fallback's two warpgroups share each tile");
  static_assert(Mainloop::StagesPerKTile == 1, "the fallback refills one stage per k-tile");

  static constexpr bool Persistent = false;
  static constexpr int Threads = Mainloop::MmaThreads;

  struct SharedStorage {
    typename Mainloop::TensorStorage tensors;
    typename Pipeline::SharedStorage pipeline;
  };
  static constexpr int SharedBytes = int(sizeof(SharedStorage));

  CUTE_DEVICE void operator()(Params const& params, char* smem) const {
    using namespace cute;
    auto& shared = *reinterpret_cast<SharedStorage*>(smem);
    bool issuer = threadIdx.x == 0;
    if (issuer) {
      Mainloop::prefetch_descriptors(params.mainloop);
    }
    typename Pipeline::Params pipeline_params;
    pipeline_params.transaction_bytes = Mainloop::TransactionBytes;
    pipeline_params.role = Pipeline::ThreadCategory::ProducerConsumer;
    pipeline_params.is_leader = issuer;
    pipeline_params.num_consumers = Threads;
    Pipeline pipeline(shared.pipeline, pipeline_params, typename Config::ClusterShape{});
    __syncthreads();

    typename Mainloop::TiledMma tiled_mma;
    auto write = cutlass::make_producer_start_state<Pipeline>();
    typename Mainloop::PipelineState read;
    for (typename Scheduler::Walk walk(params.scheduler); walk.valid(); walk.advance()) {
      TileCoord tile = walk.tile();
      int k_begin = walk.k_begin(), k_tiles = walk.k_count();
      int prologue = k_tiles < Config::Stages ? k_tiles : Config::Stages;
      if (issuer) {
        Mainloop::load(params.mainloop, pipeline, write, tile.m, tile.n, tile.batch, k_begin, prologue, shared.tensors);
      }
      __syncwarp();  // wgmma is warp-synchronous: warp 0 reconverges before the mainloop
      int next = prologue;
      auto refill = [&](int) {
        if (issuer && next < k_tiles) {
          Mainloop::load(params.mainloop, pipeline, write, tile.m, tile.n, tile.batch, k_begin + next, 1,
                         shared.tensors);
        }
        ++next;
        __syncwarp();
      };
      Tensor accum = partition_fragment_C(tiled_mma, take<0, 2>(typename Config::TileShape{}));  // (MMA,MMA_M,MMA_N)
      Mainloop::mma(pipeline, read, accum, k_tiles, int(threadIdx.x), shared.tensors, refill);
      if (params.scheduler.splits > 1) {
        params.partials.store(tiled_mma, accum, tile, int(threadIdx.x));
      } else {
        Epilogue::store(params.epilogue, tiled_mma, accum, tile, int(threadIdx.x));
      }
    }
  }
};

}  // namespace cutegen::gemm
