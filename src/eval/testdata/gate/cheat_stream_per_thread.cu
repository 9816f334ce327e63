// Cheat: launches on a stream handle made from an integer: cudaStreamPerThread.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  cudaStream_t s = cudaStreamPerThread;
  relu_kernel<<<1024, 256, 0, s>>>(x, out, cutegen_abi::x_numel);
}
