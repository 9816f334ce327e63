// fp32 in and out through 3xTF32 split ahead: the pre-pass writes each operand's hi and lo parts,
// three tf32 k-tiles per k-tile, then the warp-specialized tf32 GEMM promotes its tensor-core partial
// every PromoteEvery k-tiles of the operands (mainloop_promoting.cuh). Tiles whose accumulator and
// partial fit the registers (128x256 would need 256 per thread).
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <int TileM, int TileN, int Stages, int ClusterM, int PromoteEvery>
using Split =
    Split3xTf32Runner<GemmWarpSpecialized<GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, RowMajor, ColMajor,
                                                     TileM, TileN, Stages, ClusterM, 1, 2, PromoteEvery>,
                                          IdentityEpilogue>>;

Register<Split<128, 192, 5, 1, 1>, Split<128, 192, 5, 1, 2>, Split<128, 192, 5, 1, 4>, Split<128, 192, 5, 2, 2>,
         Split<128, 128, 6, 1, 1>, Split<128, 128, 6, 1, 2>, Split<128, 128, 6, 1, 4>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
