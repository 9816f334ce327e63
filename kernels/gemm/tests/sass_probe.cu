// One representative instance of every GEMM variant, compiled for sm_90a by the CI test
// (check_sass.py), which reads their SASS and ptxas's resource report. Nothing here runs.
#include "epilogue_functors.cuh"
#include "gemm_launch.cuh"
#include "kernel_pipelined.cuh"
#include "kernel_warp_specialized.cuh"
#include "gemm_entry.cuh"
#include "split_tf32_kernel.cuh"

namespace cutegen::gemm::probe {

using cute::bfloat16_t;
using cute::half_t;
using cute::tfloat32_t;

template <class LayoutA, class LayoutB>
using Bf16 = GemmConfig<bfloat16_t, bfloat16_t, bfloat16_t, LayoutA, LayoutB, 128, 256, 4>;

template <class Kernel>
cudaError_t launch(typename Kernel::Arguments const& args) {
  return launch_gemm<Kernel>(args, nullptr);
}

// The four operand layouts, warp-specialized and persistent.
template cudaError_t launch<GemmWarpSpecialized<Bf16<RowMajor, RowMajor>, IdentityEpilogue>>(
    GemmWarpSpecialized<Bf16<RowMajor, RowMajor>, IdentityEpilogue>::Arguments const&);
template cudaError_t launch<GemmWarpSpecialized<Bf16<RowMajor, ColMajor>, IdentityEpilogue>>(
    GemmWarpSpecialized<Bf16<RowMajor, ColMajor>, IdentityEpilogue>::Arguments const&);
template cudaError_t launch<GemmWarpSpecialized<Bf16<ColMajor, RowMajor>, IdentityEpilogue>>(
    GemmWarpSpecialized<Bf16<ColMajor, RowMajor>, IdentityEpilogue>::Arguments const&);
template cudaError_t launch<GemmWarpSpecialized<Bf16<ColMajor, ColMajor>, IdentityEpilogue>>(
    GemmWarpSpecialized<Bf16<ColMajor, ColMajor>, IdentityEpilogue>::Arguments const&);

// fp16 in, fp32 out, 2x1 cluster with B multicast, a fused epilogue.
using Fp16Cluster = GemmConfig<half_t, half_t, float, RowMajor, ColMajor, 128, 256, 4, 2, 1>;
template cudaError_t launch<GemmWarpSpecialized<Fp16Cluster, BiasReluEpilogue>>(
    GemmWarpSpecialized<Fp16Cluster, BiasReluEpilogue>::Arguments const&);

// The ping-pong schedule: each consumer warpgroup computes a tile of its own.
using PingPong = GemmConfig<bfloat16_t, bfloat16_t, bfloat16_t, RowMajor, RowMajor, 128, 128, 6, 1, 1, 1>;
template cudaError_t launch<GemmWarpSpecialized<PingPong, IdentityEpilogue>>(
    GemmWarpSpecialized<PingPong, IdentityEpilogue>::Arguments const&);

// The fallback: pipelined, not warp-specialized.
template cudaError_t launch<GemmPipelined<Bf16<RowMajor, RowMajor>, IdentityEpilogue>>(
    GemmPipelined<Bf16<RowMajor, RowMajor>, IdentityEpilogue>::Arguments const&);

// fp32 by 3xTF32 split in the mainloop (per-k-tile promotion), and the pre-pass that writes an
// operand K-major for it. Every launch above also instantiates its split-K reduce kernel.
using Fp32 = GemmConfig<float, float, float, RowMajor, ColMajor, 128, 128, 4>;
template cudaError_t launch<GemmWarpSpecialized<Fp32, IdentityEpilogue>>(
    GemmWarpSpecialized<Fp32, IdentityEpilogue>::Arguments const&);
// A partial spanning 4 k-tiles: the span's loop must unroll, or ptxas serializes the wgmmas.
using Fp32Span4 = GemmConfig<float, float, float, RowMajor, ColMajor, 128, 128, 4, 1, 1, 2, 4>;
template cudaError_t launch<GemmWarpSpecialized<Fp32Span4, IdentityEpilogue>>(
    GemmWarpSpecialized<Fp32Span4, IdentityEpilogue>::Arguments const&);
cudaError_t k_major_b(float const* b, float* out) {
  return split_operand<SplitParts::Whole>(b, 1, 1, 1, 1, 1, 1, out, nullptr);
}

// fp32 with A split in the consumers' registers (the wgmma RS form) and B split ahead into two parts.
using Fp32Registers = GemmConfig<float, float, float, RowMajor, ColMajor, 128, 128, 4, 1, 1, 2, 2, true>;
cudaError_t register_split(GemmWarpSpecialized<Fp32Registers, IdentityEpilogue>::Arguments const& args,
                           StridedMatrix<float> a, StridedMatrix<float> b, GemmScratch scratch) {
  return gemm_strided<GemmWarpSpecialized<Fp32Registers, IdentityEpilogue>>(args, a, b, scratch, nullptr);
}

// The same with B split in shared memory by the producer warpgroup (3 stages: its staging buffers).
using Fp32RegistersSplitB = GemmConfig<float, float, float, RowMajor, ColMajor, 128, 128, 3, 1, 1, 2, 2, 2>;
cudaError_t register_split_b_in_kernel(
    GemmWarpSpecialized<Fp32RegistersSplitB, IdentityEpilogue>::Arguments const& args, StridedMatrix<float> a,
    StridedMatrix<float> b, GemmScratch scratch) {
  return gemm_strided<GemmWarpSpecialized<Fp32RegistersSplitB, IdentityEpilogue>>(args, a, b, scratch, nullptr);
}

// The same over B as stored MN-major (N contiguous), which the split transposes into K-major parts.
using Fp32RegistersSplitBRows = GemmConfig<float, float, float, RowMajor, RowMajor, 128, 128, 3, 1, 1, 2, 2, 2>;
cudaError_t register_split_b_rows(GemmWarpSpecialized<Fp32RegistersSplitBRows, IdentityEpilogue>::Arguments const& args,
                                  StridedMatrix<float> a, StridedMatrix<float> b, GemmScratch scratch) {
  return gemm_strided<GemmWarpSpecialized<Fp32RegistersSplitBRows, IdentityEpilogue>>(args, a, b, scratch, nullptr);
}

// fp32 by 3xTF32 split ahead: the tf32 GEMM over the pre-split parts, promoting every 2 k-tiles
// of the operands (6 of the GEMM's, one unrolled span), and that split.
using Tf32 = GemmConfig<tfloat32_t, tfloat32_t, float, RowMajor, ColMajor, 128, 192, 5, 1, 1, 2, 2>;
template cudaError_t launch<GemmWarpSpecialized<Tf32, IdentityEpilogue>>(
    GemmWarpSpecialized<Tf32, IdentityEpilogue>::Arguments const&);
cudaError_t split_a(float const* a, float* out) {
  return split_operand<SplitParts::HiLoHi>(a, 1, 1, 1, 1, 1, 1, out, nullptr);
}

// The same over two parts per k-tile (A hi, lo; B lo, hi), the products crossing each pair of
// stages (mainloop_paired_parts.cuh), and A's split.
using Tf32Paired = GemmConfig<tfloat32_t, tfloat32_t, float, RowMajor, ColMajor, 128, 192, 4, 1, 1, 2, 2, false, 2>;
template cudaError_t launch<GemmWarpSpecialized<Tf32Paired, IdentityEpilogue>>(
    GemmWarpSpecialized<Tf32Paired, IdentityEpilogue>::Arguments const&);
cudaError_t split_a_in_two(float const* a, float* out) {
  return split_operand<SplitParts::HiLo>(a, 1, 1, 1, 1, 1, 1, out, nullptr);
}

// fp32 as fp16x3: the fp16 GEMM over three fp16 parts per k-tile, promoting every k-tile of the
// operands (3 of the GEMM's), its epilogue scaling the accumulator back; A's largest magnitude
// measured, and A split into fp16 parts scaled by it.
using Fp16x3 = GemmConfig<half_t, half_t, float, RowMajor, ColMajor, 128, 192, 5, 1, 1, 2, 1, false, 3, true>;
template cudaError_t launch<GemmWarpSpecialized<Fp16x3, Fp16x3Unscale<IdentityEpilogue>>>(
    GemmWarpSpecialized<Fp16x3, Fp16x3Unscale<IdentityEpilogue>>::Arguments const&);
cudaError_t measure_a(float const* a, uint32_t* absmax) {
  return measure_operand(a, 1, 1, 1, 1, 1, 1, absmax, nullptr);
}
cudaError_t split_a_fp16(float const* a, cutlass::half_t* out, Fp16x3Scales* scales) {
  return split_operand<SplitParts::HiLoHi>(a, 1, 1, 1, 1, 1, 1, out, nullptr, &scales->absmax[0], &scales->unscale[0]);
}

// C staged in shared memory and stored by TMA (bf16 out, and fp32 out of the tf32 GEMM over parts).
template <class Config>
using TmaStore = GemmWarpSpecialized<Config, IdentityEpilogue,
                                     GemmParams<Config, IdentityEpilogue, EpilogueTmaStore<Config, IdentityEpilogue>>>;
using Bf16Cluster = GemmConfig<bfloat16_t, bfloat16_t, bfloat16_t, RowMajor, RowMajor, 128, 256, 4, 2, 1>;
template cudaError_t launch<TmaStore<Bf16Cluster>>(TmaStore<Bf16Cluster>::Arguments const&);
using Tf32Cluster = GemmConfig<tfloat32_t, tfloat32_t, float, RowMajor, ColMajor, 128, 192, 4, 2, 1, 2, 2>;
template cudaError_t launch<TmaStore<Tf32Cluster>>(TmaStore<Tf32Cluster>::Arguments const&);

}  // namespace cutegen::gemm::probe
