// The consumers' tiled wgmma with both operands in shared memory (SS): the atom CuTe selects for the
// tile's element types and majors, one 64-row column of atoms per consumer warpgroup of a tile. Its
// own header so that host tests can lay out its accumulator and fragments (no pipeline or TMA
// headers here).
#pragma once

#include <cute/tensor.hpp>  // first: the sm90 atom header below needs what it declares
#include <cute/atom/mma_traits_sm90_gmma.hpp>

namespace cutegen::gemm {

// B split in the kernel is written K-major whatever its stored major; A split in registers is read by
// the RS form (below), whatever its major, and the register split does not run this one.
template <class Config>
using SsTiledMma = decltype(cute::make_tiled_mma(
    cute::GMMA::ss_op_selector < typename Config::MmaElementA, typename Config::MmaElementB, float,
    typename Config::TileShape, Config::RegisterSplit ? cute::GMMA::Major::K : Config::MajorA,
    Config::SplitBInKernel ? cute::GMMA::Major::K : Config::MajorB > (),
    cute::Layout<cute::Shape<cute::Int<Config::MmaWarpgroups>, cute::_1, cute::_1>>{}));

// The same with A from registers (RS), tf32 (mainloop_register_split.cuh, and the convolution over
// its channels-first input, kernels/conv/mainloop_conv_nchw.cuh).
template <class Config>
using RsTf32TiledMma = decltype(cute::make_tiled_mma(
    cute::GMMA::rs_op_selector<cute::tfloat32_t, cute::tfloat32_t, float, typename Config::TileShape,
                               cute::GMMA::Major::K, cute::GMMA::Major::K>(),
    cute::Layout<cute::Shape<cute::Int<Config::MmaWarpgroups>, cute::_1, cute::_1>>{}));

}  // namespace cutegen::gemm
