// bf16 (row-major A and B) with 2x1 clusters: each B tile loaded once per cluster and multicast.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM>
using Ws = HalfRunner<GemmWarpSpecialized<GemmConfig<cute::bfloat16_t, cute::bfloat16_t, cute::bfloat16_t, RowMajor,
                                                     RowMajor, TileM, TileN, Stages, ClusterM>,
                                          IdentityEpilogue>>;

Register<Ws<128, 256, 4, 2>, Ws<128, 256, 3, 2>, Ws<256, 128, 4, 2>, Ws<128, 128, 6, 2>> registered;

}  // namespace
}  // namespace cutegen::gemm::bench
