// The ping-pong schedule of the warp-specialized kernel (each consumer warpgroup its own tile), bf16.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM>
using PingPong = HalfRunner<GemmWarpSpecialized<GemmConfig<cute::bfloat16_t, cute::bfloat16_t, cute::bfloat16_t,
                                                           RowMajor, RowMajor, TileM, TileN, Stages, ClusterM, 1, 1>,
                                                IdentityEpilogue>>;

Register<PingPong<128, 128, 6, 1>, PingPong<128, 128, 6, 2>, PingPong<64, 256, 4, 1>> registered;

}  // namespace
}  // namespace cutegen::gemm::bench
