// fp32 through 3xTF32 in the mainloop at narrow tiles (tall-skinny outputs, N = 32..64) and in the
// ping-pong schedule (each consumer warpgroup its own 64-row tile).
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int MmaWarpgroups = 2>
using Fp32 = Fp32Runner<GemmWarpSpecialized<
    GemmConfig<float, float, float, RowMajor, ColMajor, TileM, TileN, Stages, 1, 1, MmaWarpgroups>, IdentityEpilogue>>;

Register<Fp32<128, 64, 6>, Fp32<128, 32, 8>, Fp32<64, 128, 5, 1>> registered;

}  // namespace
}  // namespace cutegen::gemm::bench
