// fp32 in and out, split into 3xTF32 in the mainloop with per-k-tile promotion: the cooperative
// warp-specialized kernel at the tiles whose fp32 accumulator and partial fit the registers
// (128x256 would need 256 per thread).
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM = 1, int PromoteEvery = 1>
using Fp32 = Fp32Runner<GemmWarpSpecialized<
    GemmConfig<float, float, float, RowMajor, ColMajor, TileM, TileN, Stages, ClusterM, 1, 2, PromoteEvery>,
    IdentityEpilogue>>;

// Promoting every 2 and 4 k-tiles beside every one: the expert's fp32 GEMMs ran at 0.77-0.82x eager
// on the H200 with one full wgmma wait per k-tile.
Register<Fp32<128, 128, 4>, Fp32<128, 128, 5>, Fp32<128, 128, 4, 2>, Fp32<128, 192, 3>, Fp32<128, 128, 5, 1, 2>,
         Fp32<128, 128, 5, 1, 4>, Fp32<128, 128, 5, 2, 4>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
