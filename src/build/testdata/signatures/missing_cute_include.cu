// CuTe used without including it.
using namespace cute;

__global__ void fill(float* p) {
  Tensor t = make_tensor(make_gmem_ptr(p), make_shape(Int<32>{}));
  t(threadIdx.x) = 1.0f;
}
