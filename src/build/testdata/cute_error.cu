// A deliberate CuTe mistake: composing a rank-2 layout with a rank-3 shape in make_tensor.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void broken(float* p) {
  Tensor t = make_tensor(make_gmem_ptr(p), make_layout(make_shape(Int<4>{}, Int<8>{})));
  Tensor u = local_tile(t, make_shape(Int<2>{}, Int<2>{}, Int<2>{}), make_coord(0, 0));
  auto v = u(0, 0) + make_layout(Int<3>{});  // no operator+ for float and Layout
  p[0] = v;
}
