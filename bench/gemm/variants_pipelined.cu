// The fallback kernel (TMA + wgmma, pipelined, not warp-specialized): bf16, fp16 and 3xTF32.
#include "gemm_runners.cuh"
#include "kernel_pipelined.cuh"

namespace cutegen::gemm::bench {
namespace {

template <class In, class Out>
using Config = GemmConfig<In, In, Out, RowMajor, RowMajor, 128, 256, 4>;

// 3xTF32 keeps an accumulator and a partial: 128x128, as in the warp-specialized variants.
using Tf32 = GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, RowMajor, ColMajor, 128, 128, 6>;

Register<HalfRunner<GemmPipelined<Config<cute::bfloat16_t, cute::bfloat16_t>, IdentityEpilogue>>,
         HalfRunner<GemmPipelined<Config<cute::half_t, cute::half_t>, IdentityEpilogue>>,
         Split3xTf32Runner<GemmPipelined<Tf32, IdentityEpilogue>>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
