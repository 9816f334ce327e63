// A register (owning) tensor given a runtime extent: CuTe needs its shape static.
#include <cute/tensor.hpp>

__global__ void sum(const float* x, float* out, int n) {
  auto frag = cute::make_tensor<float>(cute::make_shape(n));
  cute::clear(frag);
  out[threadIdx.x] = frag(0) + x[0];
}
