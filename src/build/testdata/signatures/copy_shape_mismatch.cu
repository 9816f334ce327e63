// A register fragment whose shape does not match the partition it is copied from: (1,8) values
// copied into a (1,4) fragment through a copy atom.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void load(const float* x, float* y) {
  Tensor src = make_tensor(make_gmem_ptr(x), make_shape(_1{}, _8{}));  // (1,8)
  Tensor dst = make_tensor<float>(make_shape(_1{}, _4{}));             // (1,4)
  copy(Copy_Atom<UniversalCopy<float>, float>{}, src, dst);
  y[threadIdx.x] = dst(0);
}
