// fp16 in and out; bf16 in with fp32 out; bf16 with the bias+relu epilogue functor.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <class In, class Out, int ClusterM, class Functor = IdentityEpilogue>
using Ws = HalfRunner<GemmWarpSpecialized<GemmConfig<In, In, Out, RowMajor, RowMajor, 128, 256, 4, ClusterM>, Functor>>;

Register<Ws<cute::half_t, cute::half_t, 1>, Ws<cute::half_t, cute::half_t, 2>, Ws<cute::bfloat16_t, float, 1>,
         Ws<cute::bfloat16_t, cute::bfloat16_t, 1, BiasReluEpilogue>>
    registered;

}  // namespace
}  // namespace cutegen::gemm::bench
