// bf16 in, bf16 out, the four operand layouts: the warp-specialized kernel at its default point.
#include "gemm_runners.cuh"
#include "kernel_warp_specialized.cuh"

namespace cutegen::gemm::bench {
namespace {

template <class LayoutA, class LayoutB>
using Ws = HalfRunner<GemmWarpSpecialized<
    GemmConfig<cute::bfloat16_t, cute::bfloat16_t, cute::bfloat16_t, LayoutA, LayoutB, 128, 256, 4>, IdentityEpilogue>>;

Register<Ws<RowMajor, RowMajor>, Ws<RowMajor, ColMajor>, Ws<ColMajor, RowMajor>, Ws<ColMajor, ColMajor>> registered;

}  // namespace
}  // namespace cutegen::gemm::bench
