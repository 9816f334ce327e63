// Runners: turn a GemmCall into a kernel launch, one runner per way of feeding the kernel.
//   HalfRunner     bf16/fp16 operands straight to TMA; an operand whose leading dimension or
//                  base is not 16-byte aligned (K = 2049, say) is first copied to a padded buffer.
//   Fp32Runner     fp32 operands to the kernels that split them in the mainloop (3xTF32 with
//                  per-k-tile promotion); an operand that is not K-major (or not aligned) is first
//                  written K-major by the pre-pass.
//   Split3xTf32Runner  the old 3xTF32, kept as the comparison: fp32 operands split into
//                  K-concatenated tf32 operands by the pre-pass, then one tf32 GEMM over K' = 3 * k_padded.
// The first two use split-K when the output has too few tiles for the GPU (GemmCall::splits 0),
// or the caller's split count.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "gemm_launch.cuh"
#include "split_tf32_kernel.cuh"
#include "variant_registry.cuh"

namespace cutegen::gemm::bench {

constexpr int kLayoutMismatch = -2;
constexpr int kWorkspaceTooSmall = -3;

template <class Functor>
Functor make_functor(GemmCall const&);
template <>
inline IdentityEpilogue make_functor<IdentityEpilogue>(GemmCall const&) {
  return {};
}
template <>
inline BiasReluEpilogue make_functor<BiasReluEpilogue>(GemmCall const& c) {
  return {c.bias};
}

inline int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// One operand as stored: `outer` lines of `contiguous` elements, `ld` apart, per batch.
struct StoredOperand {
  void const* ptr;
  int64_t ld, batch_stride, contiguous, outer;
  int batches;  // 1 when broadcast (batch_stride 0)

  int64_t padded_ld(int element_bytes) const { return round_up(contiguous, 16 / element_bytes); }
  int64_t padded_bytes(int element_bytes) const {
    return tma_aligned(ptr, ld, batch_stride, element_bytes)
               ? 0
               : round_up(padded_ld(element_bytes) * outer * batches * element_bytes, 256);
  }
  // Copies into `dst` with padded leading dimension; returns the copy's batch stride.
  cudaError_t copy_padded(void* dst, int element_bytes, cudaStream_t stream) const {
    int64_t pld = padded_ld(element_bytes);
    for (int l = 0; l < batches; ++l) {
      cudaError_t e =
          cudaMemcpy2DAsync(static_cast<char*>(dst) + l * pld * outer * element_bytes, pld * element_bytes,
                            static_cast<char const*>(ptr) + l * batch_stride * element_bytes, ld * element_bytes,
                            contiguous * element_bytes, outer, cudaMemcpyDeviceToDevice, stream);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  }
};

// A is M x K, B is K x N; `col_major` says which of the two is contiguous.
inline StoredOperand stored_a(GemmCall const& c) {
  return {c.a,
          c.lda,
          c.batch_stride_a,
          c.a_col_major ? c.m : c.k,
          c.a_col_major ? c.k : c.m,
          c.batch_stride_a == 0 ? 1 : c.batch};
}
inline StoredOperand stored_b(GemmCall const& c) {
  return {c.b,
          c.ldb,
          c.batch_stride_b,
          c.b_col_major ? c.k : c.n,
          c.b_col_major ? c.n : c.k,
          c.batch_stride_b == 0 ? 1 : c.batch};
}

inline int sm_count() {
  static int const sms = [] {
    int device = 0, n = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device);
    return n > 0 ? n : 1;
  }();
  return sms;
}

// The split-K count of a call: the caller's, or suggest_splits over the kernel's tiles.
template <class Kernel>
int choose_splits(GemmCall const& c) {
  if (c.splits > 0) return c.splits;
  using Config = typename Kernel::Config;
  typename Kernel::Arguments args{};
  args.shape = {c.m, c.n, c.k, c.batch};
  auto s = Kernel::Params::make_scheduler(args);
  int tiles = Kernel::Scheduler::total_cluster_tiles(s) * Config::ClusterM * Config::ClusterN;
  return suggest_splits(tiles, s.k_tiles, sm_count());
}

// Arguments without operands: shape, C, epilogue, rasterization, split count (its workspace unset).
template <class Kernel>
typename Kernel::Arguments base_arguments(GemmCall const& c) {
  using Config = typename Kernel::Config;
  typename Kernel::Arguments args{};
  args.shape = {c.m, c.n, c.k, c.batch};
  args.splits = choose_splits<Kernel>(c);
  args.c = static_cast<typename Config::ElementC*>(c.c);
  args.ldc = c.ldc;
  args.batch_stride_c = c.batch_stride_c;
  args.functor = make_functor<typename Kernel::Epilogue::FunctorType>(c);
  args.swizzle = c.swizzle;
  return args;
}

template <class Kernel>
int64_t split_k_bytes(GemmCall const& c) {
  return round_up(int64_t(gemm_workspace_bytes<Kernel>(base_arguments<Kernel>(c))), 256);
}

// How the pre-passes read an fp32 operand as (rows, K): A is (M, K); B is seen as (N, K), the math's
// B transposed.
struct Fp32Operand {
  float const* ptr;
  int64_t stride_row, stride_k, batch_stride;
  int rows, batches;
  bool k_major;

  static Fp32Operand a(GemmCall const& c) {
    return {static_cast<float const*>(c.a),
            c.a_col_major ? 1 : c.lda,
            c.a_col_major ? c.lda : 1,
            c.batch_stride_a,
            c.m,
            c.batch_stride_a == 0 ? 1 : c.batch,
            !c.a_col_major};
  }
  static Fp32Operand b(GemmCall const& c) {
    return {static_cast<float const*>(c.b),
            c.b_col_major ? c.ldb : 1,
            c.b_col_major ? 1 : c.ldb,
            c.batch_stride_b,
            c.n,
            c.batch_stride_b == 0 ? 1 : c.batch,
            bool(c.b_col_major)};
  }
  int64_t leading_dim() const { return k_major ? stride_row : stride_k; }
  // The kernels read it as given when it is K-major and TMA-aligned; otherwise the pre-pass writes it.
  bool direct() const { return k_major && tma_aligned(ptr, leading_dim(), batch_stride, 4); }
  template <SplitParts Parts>
  int64_t copy_bytes(int k) const {
    return round_up(int64_t(batches) * rows * split_row_length<Parts>(k) * int64_t(sizeof(float)), 256);
  }
};

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
    return stored_a(c).padded_bytes(Bytes) + stored_b(c).padded_bytes(Bytes) + split_k_bytes<Kernel>(c);
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
    args.workspace = scratch;
    return int(launch_gemm<Kernel>(args, stream));
  }
};

template <class Kernel>
struct Fp32Runner {
  using Config = typename Kernel::Config;
  static_assert(Config::Fp32Via3xTf32, "fp32 operands, split in the mainloop");

  static std::string name() { return variant_name<Kernel>("f32", "any"); }
  static int64_t workspace_bytes(GemmCall const& c) {
    Fp32Operand a = Fp32Operand::a(c), b = Fp32Operand::b(c);
    return (a.direct() ? 0 : a.copy_bytes<SplitParts::Whole>(c.k)) +
           (b.direct() ? 0 : b.copy_bytes<SplitParts::Whole>(c.k)) + split_k_bytes<Kernel>(c);
  }
  static int run(GemmCall const& c) {
    if (uint64_t(workspace_bytes(c)) > c.workspace_bytes) return kWorkspaceTooSmall;
    auto stream = static_cast<cudaStream_t>(c.stream);
    auto args = base_arguments<Kernel>(c);
    char* scratch = static_cast<char*>(c.workspace);
    // Each operand as the kernel reads it: the caller's, or its K-major copy.
    auto place = [&](Fp32Operand const& op, float const*& ptr, int64_t& ld, int64_t& batch_stride) -> cudaError_t {
      ptr = op.ptr, ld = op.leading_dim(), batch_stride = op.batch_stride;
      if (op.direct()) return cudaSuccess;
      auto* out = reinterpret_cast<float*>(scratch);
      ptr = out, ld = split_k_padded(c.k), batch_stride = op.batches == 1 ? 0 : ld * op.rows;
      scratch += op.copy_bytes<SplitParts::Whole>(c.k);
      return split_operand<SplitParts::Whole>(op.ptr, op.stride_row, op.stride_k, op.batch_stride, op.rows, c.k,
                                              op.batches, out, stream);
    };
    cudaError_t e = place(Fp32Operand::a(c), args.a, args.lda, args.batch_stride_a);
    if (e == cudaSuccess) e = place(Fp32Operand::b(c), args.b, args.ldb, args.batch_stride_b);
    if (e != cudaSuccess) return int(e);
    args.workspace = scratch;
    return int(launch_gemm<Kernel>(args, stream));
  }
};

template <class Kernel>
struct Split3xTf32Runner {
  using Config = typename Kernel::Config;
  static_assert(std::is_same_v<typename Config::ElementA, cute::tfloat32_t> &&
                    std::is_same_v<typename Config::LayoutA, RowMajor> &&
                    std::is_same_v<typename Config::LayoutB, ColMajor>,
                "the split writes K-major tf32 operands");

  static std::string name() { return variant_name<Kernel>("3xtf32", "any"); }
  // The call as the tf32 GEMM sees it: K three parts long.
  static GemmCall tf32_call(GemmCall c) {
    c.k = int(split_row_length<SplitParts::HiLoHi>(c.k));
    return c;
  }
  static int64_t workspace_bytes(GemmCall const& c) {
    return Fp32Operand::a(c).copy_bytes<SplitParts::HiLoHi>(c.k) +
           Fp32Operand::b(c).copy_bytes<SplitParts::LoHiHi>(c.k) + split_k_bytes<Kernel>(tf32_call(c));
  }
  static int run(GemmCall const& c) {
    if (uint64_t(workspace_bytes(c)) > c.workspace_bytes) return kWorkspaceTooSmall;
    auto stream = static_cast<cudaStream_t>(c.stream);
    Fp32Operand a = Fp32Operand::a(c), b = Fp32Operand::b(c);
    char* scratch = static_cast<char*>(c.workspace);
    float* a_split = reinterpret_cast<float*>(scratch);
    scratch += a.copy_bytes<SplitParts::HiLoHi>(c.k);
    float* b_split = reinterpret_cast<float*>(scratch);
    scratch += b.copy_bytes<SplitParts::LoHiHi>(c.k);
    cudaError_t e = split_operand<SplitParts::HiLoHi>(a.ptr, a.stride_row, a.stride_k, a.batch_stride, a.rows, c.k,
                                                      a.batches, a_split, stream);
    if (e == cudaSuccess)
      e = split_operand<SplitParts::LoHiHi>(b.ptr, b.stride_row, b.stride_k, b.batch_stride, b.rows, c.k, b.batches,
                                            b_split, stream);
    if (e != cudaSuccess) return int(e);

    int64_t k3 = split_row_length<SplitParts::HiLoHi>(c.k);
    auto args = base_arguments<Kernel>(tf32_call(c));
    args.a = reinterpret_cast<cute::tfloat32_t const*>(a_split);
    args.lda = k3;
    args.batch_stride_a = a.batches == 1 ? 0 : c.m * k3;
    args.b = reinterpret_cast<cute::tfloat32_t const*>(b_split);
    args.ldb = k3;
    args.batch_stride_b = b.batches == 1 ? 0 : c.n * k3;
    args.workspace = scratch;
    return int(launch_gemm<Kernel>(args, stream));
  }
};

}  // namespace cutegen::gemm::bench
