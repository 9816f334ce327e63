// fp32 in and out through 3xTF32: the split pre-pass, then the warp-specialized tf32 GEMM.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM>
using Split = Split3xTf32Runner<GemmWarpSpecialized<
    GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, RowMajor, ColMajor, TileM, TileN, Stages, ClusterM>,
    IdentityEpilogue>>;

Register<Split<128, 256, 4, 1>, Split<128, 256, 4, 2>, Split<128, 128, 6, 1>> registered;

}  // namespace
}  // namespace cutegen::gemm::bench
