// bf16 (row-major A and B) with 2-CTA clusters: 2x1 loads each B tile once per cluster and multicasts
// it to both CTAs (they share N, differ in M); 1x2 does the same for A.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM, int ClusterN = 1>
using Ws = HalfRunner<GemmWarpSpecialized<GemmConfig<cute::bfloat16_t, cute::bfloat16_t, cute::bfloat16_t, RowMajor,
                                                     RowMajor, TileM, TileN, Stages, ClusterM, ClusterN>,
                                          IdentityEpilogue>>;

Register<Ws<128, 256, 4, 2>, Ws<128, 256, 3, 2>, Ws<256, 128, 4, 2>, Ws<128, 128, 6, 2>, Ws<256, 128, 4, 1, 2>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
