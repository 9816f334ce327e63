// Host side of a GEMM kernel: the __global__ entry, the grid (persistent: as many clusters as fit
// on the GPU at once, asked of the occupancy calculator; otherwise one cluster per cluster tile),
// the cluster launch attribute and the dynamic shared memory opt-in.
#pragma once

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "gemm_arguments.cuh"

namespace cutegen::gemm {

template <class Kernel>
__global__ void __launch_bounds__(Kernel::Threads, 1) gemm_kernel(CUTE_GRID_CONSTANT typename Kernel::Params const params) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ __align__(1024) char smem[];
  Kernel{}(params, smem);
#endif
}

// Launches C = epilogue(A * B). The operands must satisfy `tma_aligned`.
template <class Kernel>
cudaError_t launch_gemm(typename Kernel::Arguments const& args, cudaStream_t stream) {
  using Config = typename Kernel::Config;
  using Scheduler = typename Kernel::Scheduler;
  auto params = Kernel::Params::make(args);
  auto* entry = &gemm_kernel<Kernel>;
  cudaError_t status = cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, Kernel::SharedBytes);
  if (status != cudaSuccess) return status;

  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = Config::ClusterM;
  cluster.val.clusterDim.y = Config::ClusterN;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t launch{};
  launch.blockDim = dim3(Kernel::Threads);
  launch.dynamicSmemBytes = size_t(Kernel::SharedBytes);
  launch.stream = stream;
  launch.attrs = &cluster;
  launch.numAttrs = 1;

  int tiles = Scheduler::total_cluster_tiles(params.scheduler);
  if (tiles == 0) return cudaSuccess;
  int clusters = tiles;
  if constexpr (Kernel::Persistent) {
    launch.gridDim = Scheduler::grid(tiles);
    int resident = 0;
    status = cudaOccupancyMaxActiveClusters(&resident, entry, &launch);
    if (status != cudaSuccess) return status;
    if (resident < 1) return cudaErrorInvalidConfiguration;
    clusters = resident < tiles ? resident : tiles;
  }
  launch.gridDim = Scheduler::grid(clusters);
  return cudaLaunchKernelEx(&launch, entry, params);
}

}  // namespace cutegen::gemm
