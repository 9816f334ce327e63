// How an operand of C = A * B sits in global and shared memory.
//
// CuTe indexes A as (M,K,L) and B as (N,K,L) (B transposed against the math's (K,N)), so a
// layout tag maps to which of the two matrix modes is contiguous: the GMMA "major" mode.
//   A row-major (M x K, K contiguous)   -> K-major     A col-major -> M-major
//   B row-major (K x N, N contiguous)   -> N-major     B col-major -> K-major
// Batches are a third mode with its own stride (0 broadcasts one matrix to every batch).
#pragma once

#include <cstdint>

#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/tensor.hpp>

namespace cutegen::gemm {

struct RowMajor {};
struct ColMajor {};

template <class Layout>
inline constexpr cute::GMMA::Major major_of_A =
    cute::is_same_v<Layout, RowMajor> ? cute::GMMA::Major::K : cute::GMMA::Major::MN;
template <class Layout>
inline constexpr cute::GMMA::Major major_of_B =
    cute::is_same_v<Layout, ColMajor> ? cute::GMMA::Major::K : cute::GMMA::Major::MN;

// Stride of a (rows, K, L) operand view: the contiguous mode is a static 1, so TMA and the
// swizzled shared layout are chosen at compile time.
template <cute::GMMA::Major Major>
using OperandStride = cute::conditional_t<Major == cute::GMMA::Major::K, cute::Stride<int64_t, cute::Int<1>, int64_t>,
                                          cute::Stride<cute::Int<1>, int64_t, int64_t>>;

template <cute::GMMA::Major Major>
CUTE_HOST_DEVICE OperandStride<Major> make_operand_stride(int64_t leading_dim, int64_t batch_stride) {
  if constexpr (Major == cute::GMMA::Major::K) {
    return OperandStride<Major>{leading_dim, cute::Int<1>{}, batch_stride};
  } else {
    return OperandStride<Major>{cute::Int<1>{}, leading_dim, batch_stride};
  }
}

// Shared memory for one operand across all pipeline stages: (Rows, BlockK, Stages), built from the
// 128-byte-swizzle GMMA atom of its major mode (the widest swizzle: conflict-free wgmma reads and
// full 128-byte TMA rows). The tiling order follows the atom so each stage is one contiguous block.
template <class Element, cute::GMMA::Major Major, int Rows, int BlockK, int Stages>
struct OperandSmem {
  using Atom = cute::conditional_t<Major == cute::GMMA::Major::K, cute::GMMA::Layout_K_SW128_Atom<Element>,
                                   cute::GMMA::Layout_MN_SW128_Atom<Element>>;
  using Order = cute::conditional_t<Major == cute::GMMA::Major::K, cute::Step<cute::_1, cute::_2, cute::_3>,
                                    cute::Step<cute::_2, cute::_1, cute::_3>>;
  using Layout = decltype(cute::tile_to_shape(
      Atom{}, cute::make_shape(cute::Int<Rows>{}, cute::Int<BlockK>{}, cute::Int<Stages>{}), Order{}));
  static_assert(Rows % cute::size<0>(Atom{}) == 0 && BlockK % cute::size<1>(Atom{}) == 0,
                "the tile must be a whole number of swizzle atoms");
};

}  // namespace cutegen::gemm
