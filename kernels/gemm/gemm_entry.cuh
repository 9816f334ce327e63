// Feeding the TMA kernels operands as a task stores them: in place (bf16/fp16) or through the
// 3xTF32 split (fp32), whose parts go to scratch the caller owns; optionally split-K, K cut into
// slices that run as batches of the same kernel. Generated instances (kernels/instances/gemm.cu.in)
// and bench/gemm call these.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "epilogue_functors.cuh"
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

// Floats one operand's split takes: `batches` matrices of `rows` x 3 * k_padded.
constexpr int64_t split_floats(int64_t rows, int64_t k, int64_t batches) {
  return batches * rows * 3 * split_k_padded(int(k));
}

// Launches `args` (shape, C, functor, swizzle set by the caller; shape.k the true K) with fp32 A
// and B through 3xTF32: each operand split into K-major [hi|hi|lo] (A) and [hi|lo|hi] (B) rows in
// scratch (split_floats each, 16-byte aligned), then one tf32 GEMM over K' = 3 * k_padded.
template <class Kernel>
cudaError_t gemm_3xtf32(typename Kernel::Arguments args, StridedMatrix<float> a, StridedMatrix<float> b,
                        float* a_split, float* b_split, cudaStream_t stream) {
  ProblemShape const s = args.shape;
  int batches_a = a.batch_stride == 0 ? 1 : s.l, batches_b = b.batch_stride == 0 ? 1 : s.l;
  // Element (row, k) of each operand: A is (M, K); B is read as (N, K), the math's B transposed.
  cudaError_t e = split_tf32<SplitParts::HiHiLo>(a.ptr, a.row_stride, a.col_stride, a.batch_stride, s.m, s.k,
                                                 batches_a, a_split, stream);
  if (e == cudaSuccess)
    e = split_tf32<SplitParts::HiLoHi>(b.ptr, b.col_stride, b.row_stride, b.batch_stride, s.n, s.k, batches_b,
                                        b_split, stream);
  if (e != cudaSuccess) return e;
  int64_t k3 = 3 * int64_t(split_k_padded(s.k));
  args.shape.k = int(k3);
  args.a = reinterpret_cast<cute::tfloat32_t const*>(a_split);
  args.lda = k3;
  args.batch_stride_a = batches_a == 1 ? 0 : s.m * k3;
  args.b = reinterpret_cast<cute::tfloat32_t const*>(b_split);
  args.ldb = k3;
  args.batch_stride_b = batches_b == 1 ? 0 : s.n * k3;
  return launch_gemm<Kernel>(args, stream);
}

// Launches `args` with bf16/fp16 operands read in place: each operand's contiguous mode is the
// kernel's layout (stride 1) and it is `tma_aligned`.
template <class Kernel, class T>
cudaError_t gemm_in_place(typename Kernel::Arguments args, StridedMatrix<T> a, StridedMatrix<T> b, cudaStream_t stream) {
  using Config = typename Kernel::Config;
  args.a = reinterpret_cast<typename Config::ElementA const*>(a.ptr);
  args.lda = std::is_same_v<typename Config::LayoutA, RowMajor> ? a.row_stride : a.col_stride;
  args.batch_stride_a = a.batch_stride;
  args.b = reinterpret_cast<typename Config::ElementB const*>(b.ptr);
  args.ldb = std::is_same_v<typename Config::LayoutB, RowMajor> ? b.row_stride : b.col_stride;
  args.batch_stride_b = b.batch_stride;
  return launch_gemm<Kernel>(args, stream);
}

// The kernel's element type picks the feed: tf32 through the 3xTF32 split into the scratch, bf16
// and fp16 in place (the scratch unused).
template <class Kernel, class T>
cudaError_t gemm_fed(typename Kernel::Arguments args, StridedMatrix<T> a, StridedMatrix<T> b, float* scratch_a,
                     float* scratch_b, cudaStream_t stream) {
  if constexpr (std::is_same_v<typename Kernel::Config::ElementA, cute::tfloat32_t>) {
    return gemm_3xtf32<Kernel>(args, a, b, scratch_a, scratch_b, stream);
  } else {
    return gemm_in_place<Kernel>(args, a, b, stream);
  }
}

// Split-K: with Splits > 1 the kernel stores fp32 partial products untouched; a second pass sums
// them and applies the epilogue.
template <int Splits, class Functor>
using KernelFunctor = std::conditional_t<Splits == 1, Functor, IdentityEpilogue>;
template <int Splits, class ElementC>
using KernelOutput = std::conditional_t<Splits == 1, ElementC, float>;

// c[i] = functor(sum over s of partials[s][i]) for the m x n elements of one product.
template <class Functor, class ElementC>
__global__ void sum_split_k(float const* partials, int splits, int m, int n, ElementC* c, Functor functor) {
  int64_t const mn = int64_t(m) * n;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < mn; i += int64_t(gridDim.x) * blockDim.x) {
    float acc = 0.f;
    for (int s = 0; s < splits; ++s) acc += partials[s * mn + i];
    c[i] = ElementC(functor.apply(acc, int(i / n), int(i % n), 0));
  }
}

// C (dense, row-major) = functor(A * B). `args` holds the shape, C's strides and the swizzle.
// Splits > 1 (one batch only, K a multiple of Splits): K slice s of A (its columns) and B (its
// rows) is batch s, written to `partials` (Splits x M x N floats), then summed into C.
template <class Kernel, int Splits, class T, class ElementC, class Functor>
cudaError_t gemm_strided(typename Kernel::Arguments args, StridedMatrix<T> a, StridedMatrix<T> b, ElementC* c,
                         Functor functor, float* scratch_a, float* scratch_b, float* partials, cudaStream_t stream) {
  if constexpr (Splits == 1) {
    args.c = c;
    args.functor = functor;
    return gemm_fed<Kernel>(args, a, b, scratch_a, scratch_b, stream);
  } else {
    ProblemShape const s = args.shape;
    int const slice = s.k / Splits;
    a.batch_stride = slice * a.col_stride;
    b.batch_stride = slice * b.row_stride;
    args.shape = {s.m, s.n, slice, Splits};
    args.c = partials;
    args.batch_stride_c = int64_t(s.m) * s.n;
    cudaError_t e = gemm_fed<Kernel>(args, a, b, scratch_a, scratch_b, stream);
    if (e != cudaSuccess) return e;
    int64_t blocks = (int64_t(s.m) * s.n + 255) / 256;
    sum_split_k<<<unsigned(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(partials, Splits, s.m, s.n, c, functor);
    return cudaGetLastError();
  }
}

// The device address of a static __device__ scratch buffer (asked once per buffer by its caller).
template <class T, size_t N>
float* symbol_address(T (&symbol)[N]) {
  void* p = nullptr;
  return cudaGetSymbolAddress(&p, symbol) == cudaSuccess ? static_cast<float*>(p) : nullptr;
}

}  // namespace cutegen::gemm
