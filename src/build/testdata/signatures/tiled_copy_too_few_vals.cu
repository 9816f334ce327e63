// ldmatrix x4 copies for B of a tiled MMA built without its permutation tile: the MMA's N of 16
// gives each thread too few values for the copy atom.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void load_b() {
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{});
  auto s2r_b = make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma);
  __shared__ half_t b[64 * 32];
  Tensor sB = make_tensor(make_smem_ptr(b), make_layout(Shape<_64, _32>{}, LayoutLeft{}));
  Tensor tBsB = s2r_b.get_slice(threadIdx.x).partition_S(sB);
  b[threadIdx.x] = tBsB(0);
}
