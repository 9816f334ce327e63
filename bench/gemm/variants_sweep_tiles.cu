// bf16 (row-major A and B, torch's layout) at the sweep's other tile shapes and stage counts.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM>
using Ws = HalfRunner<GemmWarpSpecialized<GemmConfig<cute::bfloat16_t, cute::bfloat16_t, cute::bfloat16_t, RowMajor,
                                                     RowMajor, TileM, TileN, Stages, ClusterM>,
                                          IdentityEpilogue>>;

Register<Ws<128, 256, 3, 1>, Ws<256, 128, 4, 1>, Ws<128, 128, 6, 1>, Ws<128, 128, 4, 1>> registered;

}  // namespace
}  // namespace cutegen::gemm::bench
