// The fallback kernel (TMA + wgmma, pipelined, not warp-specialized): bf16, fp16 and 3xTF32.
#include "gemm_runners.cuh"
#include "kernel_pipelined.cuh"

namespace cutegen::gemm::bench {
namespace {

template <class In, class Out, class LayoutB = RowMajor>
using Config = GemmConfig<In, In, Out, RowMajor, LayoutB, 128, 256, 4>;

Register<HalfRunner<GemmPipelined<Config<cute::bfloat16_t, cute::bfloat16_t>, IdentityEpilogue>>,
         HalfRunner<GemmPipelined<Config<cute::half_t, cute::half_t>, IdentityEpilogue>>,
         Split3xTf32Runner<GemmPipelined<Config<cute::tfloat32_t, float, ColMajor>, IdentityEpilogue>>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
