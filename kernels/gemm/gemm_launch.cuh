// Host side of a GEMM kernel: the __global__ entry, the grid (persistent: as many clusters as fit
// on the GPU at once, asked of the occupancy calculator; otherwise one cluster per cluster tile),
// the cluster launch attribute and the dynamic shared memory opt-in.
#pragma once

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "gemm_arguments.cuh"

namespace cutegen::gemm {

// wgmma and setmaxnreg exist only in the arch-specific sm_90a target: any other device pass would
// compile these kernels to nothing, so it is an error instead.
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "kernels/gemm needs sm_90a: compile with -gencode arch=compute_90a,code=sm_90a"
#endif

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 1)
    gemm_kernel(CUTE_GRID_CONSTANT typename Kernel::Params const params) {
  extern __shared__ __align__(1024) char smem[];
  Kernel{}(params, smem);
}

// The launch shape of one kernel: its dynamic shared memory opted in and, for a persistent kernel,
// how many of its clusters fit on the GPU at once. Asked once per process (of the current device
// at the first launch): the occupancy query costs more host time than a small GEMM takes.
struct LaunchSetup {
  cudaError_t status;
  int resident_clusters;
};

template <class Kernel>
cudaLaunchConfig_t launch_config(dim3 grid, cudaLaunchAttribute* cluster, cudaStream_t stream) {
  using Config = typename Kernel::Config;
  cluster->id = cudaLaunchAttributeClusterDimension;
  cluster->val.clusterDim.x = Config::ClusterM;
  cluster->val.clusterDim.y = Config::ClusterN;
  cluster->val.clusterDim.z = 1;
  cudaLaunchConfig_t launch{};
  launch.gridDim = grid;
  launch.blockDim = dim3(Kernel::Threads);
  launch.dynamicSmemBytes = size_t(Kernel::SharedBytes);
  launch.stream = stream;
  launch.attrs = cluster;
  launch.numAttrs = 1;
  return launch;
}

template <class Kernel>
LaunchSetup const& launch_setup() {
  static LaunchSetup const setup = [] {
    auto* entry = &gemm_kernel<Kernel>;
    LaunchSetup s{cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::SharedBytes), 0};
    if (s.status != cudaSuccess || !Kernel::Persistent) return s;
    cudaLaunchAttribute cluster;
    auto launch = launch_config<Kernel>(Kernel::Scheduler::grid(1), &cluster, nullptr);
    s.status = cudaOccupancyMaxActiveClusters(&s.resident_clusters, entry, &launch);
    if (s.status == cudaSuccess && s.resident_clusters < 1) s.status = cudaErrorInvalidConfiguration;
    return s;
  }();
  return setup;
}

// Scratch a call needs in `args.workspace`: the split-K partials, 0 without split-K.
template <class Kernel>
size_t gemm_workspace_bytes(typename Kernel::Arguments const& args) {
  auto scheduler = Kernel::Params::make_scheduler(args);
  if (scheduler.splits <= 1) return 0;
  return SplitKPartials<typename Kernel::Config>::make(nullptr, scheduler).bytes();
}

// Launches the kernel over the units its params' scheduler walks (tiles, times split-K ranges).
template <class Kernel>
cudaError_t launch_kernel(typename Kernel::Params const& params, cudaStream_t stream) {
  using Scheduler = typename Kernel::Scheduler;
  LaunchSetup const& setup = launch_setup<Kernel>();
  if (setup.status != cudaSuccess) return setup.status;
  int units = Scheduler::kept_units(params.scheduler);
  if (units == 0) return cudaSuccess;
  int clusters = Kernel::Persistent && setup.resident_clusters < units ? setup.resident_clusters : units;
  cudaLaunchAttribute cluster;
  auto launch = launch_config<Kernel>(Scheduler::grid(clusters), &cluster, stream);
  return cudaLaunchKernelEx(&launch, &gemm_kernel<Kernel>, params);
}

// Launches C = epilogue(A * B). The operands must satisfy `tma_aligned`. With split-K the partials
// go to args.workspace, then a second kernel on the same stream reduces them into C.
template <class Kernel>
cudaError_t launch_gemm(typename Kernel::Arguments const& args, cudaStream_t stream) {
  auto params = Kernel::Params::make(args);
  bool split_k = params.scheduler.splits > 1;
  if (split_k && args.workspace == nullptr) return cudaErrorInvalidValue;
  if (!Kernel::Epilogue::admits(params.epilogue) || (split_k && EpilogueSmem<typename Kernel::Epilogue>::Staged))
    return cudaErrorInvalidValue;
  cudaError_t status = cudaSuccess;
  if constexpr (Kernel::Scheduler::IsMasked) {
    if (params.scheduler.mask.kind != TileMask::kAll) {  // the tiles the kernel skips are zero
      size_t const element = sizeof(typename Kernel::Config::ElementC);
      for (int batch = 0; batch < args.shape.l && status == cudaSuccess; ++batch)
        status = cudaMemset2DAsync(args.c + batch * args.batch_stride_c, size_t(args.ldc) * element, 0,
                                   size_t(args.shape.n) * element, size_t(args.shape.m), stream);
    }
  }
  if (status == cudaSuccess) status = launch_kernel<Kernel>(params, stream);
  if (status != cudaSuccess || !split_k) return status;
  return launch_split_k_reduce<typename Kernel::Config, typename Kernel::Epilogue::FunctorType>(
      params.partials, Kernel::Epilogue::direct(params.epilogue), stream);
}

}  // namespace cutegen::gemm
