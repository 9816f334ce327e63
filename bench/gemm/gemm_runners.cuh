// Runners: turn a GemmCall into a kernel launch, one runner per way of feeding the kernel.
//   HalfRunner     bf16/fp16 operands straight to TMA; an operand whose leading dimension or
//                  base is not 16-byte aligned (K = 2049, say) is first copied to a padded buffer.
//   Split3xTf32Runner  fp32 operands (any layouts) split into K-concatenated tf32 operands by the
//                  pre-pass, then one tf32 GEMM over K' = 3 * k_padded.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "gemm_entry.cuh"
#include "variant_registry.cuh"

namespace cutegen::gemm::bench {

constexpr int kLayoutMismatch = -2;
constexpr int kWorkspaceTooSmall = -3;

template <class Functor> Functor make_functor(GemmCall const&);
template <> inline IdentityEpilogue make_functor<IdentityEpilogue>(GemmCall const&) { return {}; }
template <> inline BiasReluEpilogue make_functor<BiasReluEpilogue>(GemmCall const& c) { return {c.bias}; }

inline int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// One operand as stored: `outer` lines of `contiguous` elements, `ld` apart, per batch.
struct StoredOperand {
  void const* ptr;
  int64_t ld, batch_stride, contiguous, outer;
  int batches;  // 1 when broadcast (batch_stride 0)

  int64_t padded_ld(int element_bytes) const { return round_up(contiguous, 16 / element_bytes); }
  int64_t padded_bytes(int element_bytes) const {
    return tma_aligned(ptr, ld, batch_stride, element_bytes) ? 0
           : round_up(padded_ld(element_bytes) * outer * batches * element_bytes, 256);
  }
  // Copies into `dst` with padded leading dimension; returns the copy's batch stride.
  cudaError_t copy_padded(void* dst, int element_bytes, cudaStream_t stream) const {
    int64_t pld = padded_ld(element_bytes);
    for (int l = 0; l < batches; ++l) {
      cudaError_t e = cudaMemcpy2DAsync(static_cast<char*>(dst) + l * pld * outer * element_bytes, pld * element_bytes,
                                        static_cast<char const*>(ptr) + l * batch_stride * element_bytes,
                                        ld * element_bytes, contiguous * element_bytes, outer, cudaMemcpyDeviceToDevice,
                                        stream);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  }
};

// A is M x K, B is K x N; `col_major` says which of the two is contiguous.
inline StoredOperand stored_a(GemmCall const& c) {
  return {c.a, c.lda, c.batch_stride_a, c.a_col_major ? c.m : c.k, c.a_col_major ? c.k : c.m,
          c.batch_stride_a == 0 ? 1 : c.batch};
}
inline StoredOperand stored_b(GemmCall const& c) {
  return {c.b, c.ldb, c.batch_stride_b, c.b_col_major ? c.k : c.n, c.b_col_major ? c.n : c.k,
          c.batch_stride_b == 0 ? 1 : c.batch};
}

template <class Kernel>
typename Kernel::Arguments base_arguments(GemmCall const& c) {
  using Config = typename Kernel::Config;
  typename Kernel::Arguments args{};
  args.shape = {c.m, c.n, c.k, c.batch};
  args.c = static_cast<typename Config::ElementC*>(c.c);
  args.ldc = c.ldc;
  args.batch_stride_c = c.batch_stride_c;
  args.functor = make_functor<typename Kernel::Epilogue::FunctorType>(c);
  args.swizzle = c.swizzle;
  return args;
}

template <class Kernel>
struct HalfRunner {
  using Config = typename Kernel::Config;
  using ElementA = typename Config::ElementA;
  static constexpr int Bytes = int(sizeof(ElementA));
  static constexpr bool ColA = std::is_same_v<typename Config::LayoutA, ColMajor>;
  static constexpr bool ColB = std::is_same_v<typename Config::LayoutB, ColMajor>;

  static std::string name() {
    return variant_name<Kernel>(type_label<ElementA>, std::string{ColA ? 'c' : 'r', ColB ? 'c' : 'r'});
  }
  static int64_t workspace_bytes(GemmCall const& c) {
    return stored_a(c).padded_bytes(Bytes) + stored_b(c).padded_bytes(Bytes);
  }
  static int run(GemmCall const& c) {
    if (bool(c.a_col_major) != ColA || bool(c.b_col_major) != ColB) return kLayoutMismatch;
    if (uint64_t(workspace_bytes(c)) > c.workspace_bytes) return kWorkspaceTooSmall;
    auto stream = static_cast<cudaStream_t>(c.stream);
    auto args = base_arguments<Kernel>(c);
    char* scratch = static_cast<char*>(c.workspace);
    // Each operand as the kernel sees it: the caller's, or its padded copy.
    auto place = [&](StoredOperand const& s, void const*& ptr, int64_t& ld, int64_t& batch_stride) -> cudaError_t {
      ptr = s.ptr, ld = s.ld, batch_stride = s.batch_stride;
      int64_t bytes = s.padded_bytes(Bytes);
      if (bytes == 0) return cudaSuccess;
      cudaError_t e = s.copy_padded(scratch, Bytes, stream);
      ptr = scratch, ld = s.padded_ld(Bytes), batch_stride = s.batches == 1 ? 0 : ld * s.outer;
      scratch += bytes;
      return e;
    };
    void const *a, *b;
    cudaError_t e = place(stored_a(c), a, args.lda, args.batch_stride_a);
    if (e == cudaSuccess) e = place(stored_b(c), b, args.ldb, args.batch_stride_b);
    if (e != cudaSuccess) return int(e);
    args.a = static_cast<ElementA const*>(a);
    args.b = static_cast<typename Config::ElementB const*>(b);
    return int(launch_gemm<Kernel>(args, stream));
  }
};

template <class Kernel>
struct Split3xTf32Runner {
  using Config = typename Kernel::Config;
  static_assert(std::is_same_v<typename Config::ElementA, cute::tfloat32_t> &&
                std::is_same_v<typename Config::LayoutA, RowMajor> && std::is_same_v<typename Config::LayoutB, ColMajor>,
                "the split writes K-major tf32 operands");

  static std::string name() { return variant_name<Kernel>("3xtf32", "any"); }
  static int64_t split_bytes(int rows, int k, int batches) {
    return round_up(split_floats(rows, k, batches) * int64_t(sizeof(float)), 256);
  }
  static int64_t workspace_bytes(GemmCall const& c) {
    return split_bytes(c.m, c.k, c.batch_stride_a == 0 ? 1 : c.batch) +
           split_bytes(c.n, c.k, c.batch_stride_b == 0 ? 1 : c.batch);
  }
  static int run(GemmCall const& c) {
    if (uint64_t(workspace_bytes(c)) > c.workspace_bytes) return kWorkspaceTooSmall;
    auto strided = [](void const* p, bool col_major, int64_t ld, int64_t batch_stride) {
      return StridedMatrix<float>{static_cast<float const*>(p), col_major ? 1 : ld, col_major ? ld : 1, batch_stride};
    };
    float* a_split = static_cast<float*>(c.workspace);
    float* b_split = reinterpret_cast<float*>(static_cast<char*>(c.workspace) +
                                              split_bytes(c.m, c.k, c.batch_stride_a == 0 ? 1 : c.batch));
    return int(gemm_3xtf32<Kernel>(base_arguments<Kernel>(c), strided(c.a, c.a_col_major, c.lda, c.batch_stride_a),
                                   strided(c.b, c.b_col_major, c.ldb, c.batch_stride_b), a_split, b_split,
                                   static_cast<cudaStream_t>(c.stream)));
  }
};

}  // namespace cutegen::gemm::bench
