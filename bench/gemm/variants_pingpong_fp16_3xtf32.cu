// The ping-pong schedule for fp16 and for fp32 through 3xTF32.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

using Fp16 = GemmConfig<cute::half_t, cute::half_t, cute::half_t, RowMajor, RowMajor, 128, 128, 6, 1, 1, 1>;
using Tf32 = GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, RowMajor, ColMajor, 128, 128, 6, 1, 1, 1>;

Register<HalfRunner<GemmWarpSpecialized<Fp16, IdentityEpilogue>>,
         Split3xTf32Runner<GemmWarpSpecialized<Tf32, IdentityEpilogue>>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
