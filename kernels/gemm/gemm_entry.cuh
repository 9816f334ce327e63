// Feeding the TMA kernels operands as a task stores them, for generated instances
// (kernels/instances/gemm.cu.in): bf16/fp16 operands in place; fp32 operands for 3xTF32 split in the
// mainloop in place where K-major and aligned, else first written K-major by the pre-pass into
// scratch the caller owns (for the register split, B split ahead into two parts there); fp32 operands for a tf32 kernel
// always split ahead by the pre-pass into that scratch (three parts per k-tile, or two where
// Config::PairedParts), for an fp16x3 kernel into three fp16 parts; split-K's partials in the caller's workspace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "gemm_launch.cuh"
#include "split_tf32_kernel.cuh"

namespace cutegen::gemm {

// A matrix as stored: element (batch, row, col) at ptr[batch * batch_stride + row * row_stride +
// col * col_stride]; batch_stride 0 reads one matrix for every batch. A is (M, K), B is (K, N).
template <class T>
struct StridedMatrix {
  T const* ptr;
  int64_t row_stride, col_stride, batch_stride;
};

// fp16x3's functor: the task's, given the accumulator scaled back by the operands' powers of two
// (2^-ka, then 2^-kb: each representable where their product might not be; fp16_split.cuh), which
// their splits wrote to `unscale` (set by gemm_strided). Tile masking passes through.
template <class F>
struct Fp16x3Unscale {
  F f;
  float const* unscale = nullptr;
  static constexpr bool MasksTiles = functor_masks_tiles<F>::value;
  CUTE_DEVICE float apply(float acc, int row, int col, int batch) const {
    return f.apply(acc * unscale[0] * unscale[1], row, col, batch);
  }
};

// Memory a call may use besides its operands.
struct GemmScratch {
  float* copy_a;  // K-major copies of fp32 operands the kernel cannot read in place
  float* copy_b;
  void* workspace;  // split-K's partials
  size_t copy_a_bytes, copy_b_bytes, workspace_bytes;
  Fp16x3Scales* scales = nullptr;  // fp16x3: the two operands' scales
};

// An fp32 operand written into `copy` by the pre-pass in the layout `Parts` names (split_tf32_kernel.cuh):
// K-major whole, or split ahead into tf32 (Part float) or fp16 parts, two or three k-tiles per k-tile.
// fp16 parts are of the operand scaled by its largest magnitude, which is first measured into
// scales->absmax[operand]; the split writes the scale's inverse to scales->unscale[operand].
template <SplitParts Parts, class Part = float>
cudaError_t split_fp32(float const* ptr, int64_t stride_row, int64_t stride_k, int64_t batch_stride, int rows, int k,
                       int batches, float* copy, size_t copy_bytes, Part const*& placed, int64_t& ld,
                       int64_t& placed_batch_stride, cudaStream_t stream, Fp16x3Scales* scales = nullptr,
                       int operand = 0) {
  int copies = batch_stride == 0 ? 1 : batches;
  ld = split_row_length<Parts, Part>(k);
  if (size_t(copies) * rows * ld * sizeof(Part) > copy_bytes) return cudaErrorInvalidValue;
  Part* parts = reinterpret_cast<Part*>(copy);
  placed = parts, placed_batch_stride = copies == 1 ? 0 : ld * rows;
  if constexpr (sizeof(Part) == 2) {
    uint32_t* absmax = &scales->absmax[operand];
    cudaError_t e = cudaMemsetAsync(absmax, 0, sizeof *absmax, stream);
    if (e == cudaSuccess) e = measure_operand(ptr, stride_row, stride_k, batch_stride, rows, k, copies, absmax, stream);
    if (e == cudaSuccess)
      e = split_operand<Parts, Part>(ptr, stride_row, stride_k, batch_stride, rows, k, copies, parts, stream, absmax,
                                     &scales->unscale[operand]);
    return e;
  }
  return split_operand<Parts, Part>(ptr, stride_row, stride_k, batch_stride, rows, k, copies, parts, stream);
}

// An fp32 operand as the kernel reads it: rows (M of A, N of B) by K, K contiguous. Where the
// stored one is not (or is not TMA-aligned), the pre-pass writes a K-major copy to `copy`.
inline cudaError_t place_fp32(float const* ptr, int64_t stride_row, int64_t stride_k, int64_t batch_stride, int rows,
                              int k, int batches, float* copy, size_t copy_bytes, float const*& placed, int64_t& ld,
                              int64_t& placed_batch_stride, cudaStream_t stream) {
  if (stride_k == 1 && tma_aligned(ptr, stride_row, batch_stride, 4)) {
    placed = ptr, ld = stride_row, placed_batch_stride = batch_stride;
    return cudaSuccess;
  }
  return split_fp32<SplitParts::Whole>(ptr, stride_row, stride_k, batch_stride, rows, k, batches, copy, copy_bytes,
                                       placed, ld, placed_batch_stride, stream);
}

// An fp32 operand read MN-major as stored (its M or N contiguous: `unit_stride` 1), which the
// register split's consumers load element by element and the producer's split transposes: only TMA's
// alignment to check.
inline cudaError_t place_mn_major(float const* ptr, int64_t unit_stride, int64_t ld, int64_t batch_stride,
                                  float const*& placed, int64_t& placed_ld, int64_t& placed_batch_stride) {
  if (unit_stride != 1 || !tma_aligned(ptr, ld, batch_stride, 4)) return cudaErrorInvalidValue;
  placed = ptr, placed_ld = ld, placed_batch_stride = batch_stride;
  return cudaSuccess;
}

// Launches `args` (shape, C, functor, swizzle, splits set by the caller) over A and B as stored.
template <class Kernel, class T>
cudaError_t gemm_strided(typename Kernel::Arguments args, StridedMatrix<T> a, StridedMatrix<T> b, GemmScratch scratch,
                         cudaStream_t stream) {
  using Config = typename Kernel::Config;
  args.workspace = scratch.workspace;
  if (gemm_workspace_bytes<Kernel>(args) > scratch.workspace_bytes) return cudaErrorInvalidValue;
  if constexpr (Config::RegisterSplit) {
    // A read as stored (K-major, else copied so; or MN-major as stored, which the consumers load
    // element by element all the same), B split ahead into its lo and hi parts, or read as stored too
    // where the kernel splits it (K-major, else copied so; or MN-major as stored, which the kernel's
    // split transposes).
    ProblemShape const s = args.shape;
    constexpr bool a_mn = Config::MajorA == cute::GMMA::Major::MN, b_mn = Config::MajorB == cute::GMMA::Major::MN;
    cudaError_t e =
        a_mn ? place_mn_major(a.ptr, a.row_stride, a.col_stride, a.batch_stride, args.a, args.lda, args.batch_stride_a)
             : place_fp32(a.ptr, a.row_stride, a.col_stride, a.batch_stride, s.m, s.k, s.l, scratch.copy_a,
                          scratch.copy_a_bytes, args.a, args.lda, args.batch_stride_a, stream);
    if (e == cudaSuccess && Config::SplitBInKernel && b_mn)
      e = place_mn_major(b.ptr, b.col_stride, b.row_stride, b.batch_stride, args.b, args.ldb, args.batch_stride_b);
    else if (e == cudaSuccess && Config::SplitBInKernel)
      e = place_fp32(b.ptr, b.col_stride, b.row_stride, b.batch_stride, s.n, s.k, s.l, scratch.copy_b,
                     scratch.copy_b_bytes, args.b, args.ldb, args.batch_stride_b, stream);
    else if (e == cudaSuccess)
      e = split_fp32<SplitParts::LoHi>(b.ptr, b.col_stride, b.row_stride, b.batch_stride, s.n, s.k, s.l, scratch.copy_b,
                                       scratch.copy_b_bytes, args.b, args.ldb, args.batch_stride_b, stream);
    if (e != cudaSuccess) return e;
  } else if constexpr (Config::Fp32Via3xTf32) {
    ProblemShape const s = args.shape;
    // A is (M, K); B is read as (N, K), the math's B transposed.
    cudaError_t e = place_fp32(a.ptr, a.row_stride, a.col_stride, a.batch_stride, s.m, s.k, s.l, scratch.copy_a,
                               scratch.copy_a_bytes, args.a, args.lda, args.batch_stride_a, stream);
    if (e == cudaSuccess)
      e = place_fp32(b.ptr, b.col_stride, b.row_stride, b.batch_stride, s.n, s.k, s.l, scratch.copy_b,
                     scratch.copy_b_bytes, args.b, args.ldb, args.batch_stride_b, stream);
    if (e != cudaSuccess) return e;
  } else if constexpr (Config::PromoteSpan > 0) {
    static_assert(std::is_same_v<T, float>, "tf32 and fp16x3 kernels read fp32 operands split ahead");
    ProblemShape const s = args.shape;
    // Three parts per k-tile for a plain tf32 (or fp16) GEMM over them, or two whose products cross stages.
    constexpr SplitParts PartsA = Config::PairedParts ? SplitParts::HiLo : SplitParts::HiLoHi;
    constexpr SplitParts PartsB = Config::PairedParts ? SplitParts::LoHi : SplitParts::LoHiHi;
    using Part = cute::conditional_t<Config::HalfParts, cutlass::half_t, float>;
    if constexpr (Config::HalfParts) {
      // The epilogue undoes the operands' scales (Fp16x3Unscale).
      if (scratch.scales == nullptr) return cudaErrorInvalidValue;
      args.functor.unscale = scratch.scales->unscale;
    }
    Part const *a_parts, *b_parts;
    cudaError_t e = split_fp32<PartsA, Part>(a.ptr, a.row_stride, a.col_stride, a.batch_stride, s.m, s.k, s.l,
                                             scratch.copy_a, scratch.copy_a_bytes, a_parts, args.lda,
                                             args.batch_stride_a, stream, scratch.scales, 0);
    if (e == cudaSuccess)
      e = split_fp32<PartsB, Part>(b.ptr, b.col_stride, b.row_stride, b.batch_stride, s.n, s.k, s.l, scratch.copy_b,
                                   scratch.copy_b_bytes, b_parts, args.ldb, args.batch_stride_b, stream, scratch.scales,
                                   1);
    if (e != cudaSuccess) return e;
    args.a = reinterpret_cast<typename Config::ElementA const*>(a_parts);
    args.b = reinterpret_cast<typename Config::ElementB const*>(b_parts);
    args.shape.k = int(split_row_length<PartsA, Part>(s.k));  // the parts, as the GEMM's K
  } else {
    // 16-bit operands: the kernel's layouts are the stored ones (stride 1 along the contiguous mode).
    args.a = reinterpret_cast<typename Config::ElementA const*>(a.ptr);
    args.lda = std::is_same_v<typename Config::LayoutA, RowMajor> ? a.row_stride : a.col_stride;
    args.batch_stride_a = a.batch_stride;
    args.b = reinterpret_cast<typename Config::ElementB const*>(b.ptr);
    args.ldb = std::is_same_v<typename Config::LayoutB, RowMajor> ? b.row_stride : b.col_stride;
    args.batch_stride_b = b.batch_stride;
  }
  return launch_gemm<Kernel>(args, stream);
}

}  // namespace cutegen::gemm
