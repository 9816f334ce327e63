// The main GEMM kernel: persistent and warp-specialized.
//
// One CTA per SM (clusters of ClusterM x ClusterN), three warpgroups:
//   warpgroup 0 (producer): gives most of its registers back (setmaxnreg.dec) and one thread (the
//     mainloop's ProducerThreads) streams the loads of every tile the scheduler hands this CTA, as
//     far ahead as the pipeline's stages allow, across tile boundaries;
//   warpgroups 1-2 (consumers): take the registers (setmaxnreg.inc), run wgmma over the stages
//     and store each finished tile through the epilogue, while the producer already loads the next.
// Config::MmaWarpgroups picks how the consumers share work:
//   2 (cooperative): both compute every tile, each half of its rows;
//   1 (ping-pong): they take turns, tile by tile. A named barrier hands the tensor cores over: a
//     warpgroup starts its mainloop only once the other finished its own, so one's epilogue runs
//     under the other's mainloop. That order is also what makes skipping the other's stages safe:
//     by the time a warpgroup waits on a stage, every earlier fill of it has completed, so the
//     barrier's phase parity cannot alias.
#pragma once

#include <cute/arch/cluster_sm90.hpp>
#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>
#include <cutlass/arch/reg_reconfig.h>
#include <cutlass/pipeline/sm90_pipeline.hpp>

#include "gemm_arguments.cuh"

namespace cutegen::gemm {

// Params_ names the mainloop, epilogue and scheduler (GemmParams: a GEMM's; kernels/conv: a
// convolution's implicit GEMM, same consumers and pipeline, its own loads and stores).
template <class Config_, class Functor, class Params_ = GemmParams<Config_, Functor>>
struct GemmWarpSpecialized {
  using Config = Config_;
  using Arguments = GemmArguments<Config, Functor>;
  using Params = Params_;
  using Mainloop = typename Params::Mainloop;
  using Epilogue = typename Params::Epilogue;
  using Scheduler = typename Params::Scheduler;
  using Pipeline = typename Mainloop::Pipeline;

  static constexpr bool Persistent = true;
  static constexpr int ConsumerWarpgroups = 2;
  static constexpr int Teams = ConsumerWarpgroups / Config::MmaWarpgroups;  // consumer groups with tiles of their own
  static constexpr int Threads = cutlass::NumThreadsPerWarpGroup * (1 + ConsumerWarpgroups);
  // setmaxnreg moves registers within the CTA's launch allocation (168 a thread at 384 threads, the
  // most __launch_bounds__ gives one CTA an SM): the consumers' increase waits until the producer's
  // decrease has freed enough, so P + 2 * C must stay within 3 * 168 = 504, or they wait forever.
  // The consumers want 232 for 128x256 fp32 accumulators (128 a thread) plus addressing, which a
  // 40-register producer leaves them; a producer that needs more (Mainloop::ProducerRegisters: a
  // warpgroup that gathers or splits, or one thread issuing many boxes) leaves them less.
  static constexpr uint32_t LaunchRegisters = 64 * 1024 / Threads / 8 * 8;
  static constexpr uint32_t ProducerRegisters = Mainloop::ProducerRegisters;
  static constexpr uint32_t ConsumerRegisters = (3 * LaunchRegisters - ProducerRegisters) / 2 / 8 * 8;
  static_assert(ProducerRegisters + 2 * ConsumerRegisters <= 3 * LaunchRegisters, "setmaxnreg would wait forever");

  static constexpr bool StagedEpilogue = EpilogueSmem<Epilogue>::Staged;

  struct SharedStorage {
    typename Mainloop::TensorStorage tensors;
    typename Pipeline::SharedStorage pipeline;
    typename EpilogueSmem<Epilogue>::type epilogue;
  };
  static constexpr int SharedBytes = int(sizeof(SharedStorage));

  CUTE_DEVICE void operator()(Params const& params, char* smem) const {
    using namespace cute;
    auto& shared = *reinterpret_cast<SharedStorage*>(smem);
    int warp_group = cutlass::canonical_warp_group_idx();
    int thread_in_group = int(threadIdx.x) % cutlass::NumThreadsPerWarpGroup;
    if (threadIdx.x == 0) {
      Mainloop::prefetch_descriptors(params.mainloop);
    }

    typename Pipeline::Params pipeline_params;
    pipeline_params.transaction_bytes = Mainloop::TransactionBytes;
    pipeline_params.role = warp_group == 0 ? Pipeline::ThreadCategory::Producer : Pipeline::ThreadCategory::Consumer;
    pipeline_params.is_leader = warp_group == 0 && thread_in_group == 0;
    pipeline_params.num_consumers = Mainloop::MmaThreads;
    Pipeline pipeline(shared.pipeline, pipeline_params,
                      typename Config::ClusterShape{});  // warp 0 initializes the barriers

    // Every CTA of the cluster must see initialized barriers before a peer multicasts or arrives on them.
    if constexpr (Config::ClusterM * Config::ClusterN > 1) {
      cute::cluster_arrive_relaxed();
      cute::cluster_wait();
    } else {
      __syncthreads();
    }

    typename Scheduler::Walk walk(params.scheduler);
    if (warp_group == 0) {
      cutlass::arch::warpgroup_reg_dealloc<ProducerRegisters>();
      if (thread_in_group < Mainloop::ProducerThreads) {
        auto write = cutlass::make_producer_start_state<Pipeline>();
        for (; walk.valid(); walk.advance()) {
          TileCoord tile = walk.tile();
          KSpan k = params.k_span(tile, walk.k_begin(), walk.k_count());
          Mainloop::load(params.mainloop, pipeline, write, tile.m, tile.n, tile.batch, k.begin, k.count,
                         shared.tensors);
        }
        // Stay until every consumer of the cluster released every stage: no peer may still arrive
        // on this CTA's barriers after it exits. One thread's tail, spelled so that a one-thread
        // producer has no branch here (one cost the bf16 TMA-store consumers a 4-byte spill).
        if (Mainloop::ProducerThreads == 1 || thread_in_group == 0) pipeline.producer_tail(write);
      }
    } else {
      cutlass::arch::warpgroup_reg_alloc<ConsumerRegisters>();
      int team = (warp_group - 1) / Config::MmaWarpgroups;
      int team_thread = (int(threadIdx.x) - cutlass::NumThreadsPerWarpGroup) % Mainloop::MmaThreads;
      typename Mainloop::TiledMma tiled_mma;
      typename Mainloop::PipelineState read;
      for (int position = 0; walk.valid(); walk.advance(), ++position) {
        TileCoord tile = walk.tile();
        int const k_count = params.k_span(tile, walk.k_begin(), walk.k_count()).count;
        if (position % Teams != team) {  // the other team's tile: its stages are not ours to read
          read.advance(k_count * Mainloop::StagesPerKTile);
          continue;
        }
        Tensor accum = partition_fragment_C(tiled_mma, take<0, 2>(typename Config::TileShape{}));  // (MMA,MMA_M,MMA_N)
        if constexpr (Teams > 1) {
          if (position > 0) cutlass::arch::NamedBarrier::sync(2 * Mainloop::MmaThreads, team);
        }
        if constexpr (Mainloop::MmaReadsParams)
          Mainloop::mma(params.mainloop, pipeline, read, accum, k_count, team_thread, shared.tensors, [](int) {});
        else
          Mainloop::mma(pipeline, read, accum, k_count, team_thread, shared.tensors, [](int) {});
        if constexpr (Teams > 1) {
          if (walk.has_next()) cutlass::arch::NamedBarrier::arrive(2 * Mainloop::MmaThreads, 1 - team);
        }
        if constexpr (StagedEpilogue) {  // never split-K (launch_gemm refuses it)
          Epilogue::store(params.epilogue, tiled_mma, accum, tile, team_thread, shared.epilogue, warp_group - 1);
        } else if (params.scheduler.splits > 1) {
          params.partials.store(tiled_mma, accum, tile, team_thread);
        } else {
          Epilogue::store(params.epilogue, tiled_mma, accum, tile, team_thread);
        }
      }
      if constexpr (StagedEpilogue) Epilogue::finish(team_thread);
    }
  }
};

}  // namespace cutegen::gemm
