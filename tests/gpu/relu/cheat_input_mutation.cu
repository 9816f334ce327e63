// Cheating kernel for tasks/relu.py (the evaluator must catch it): Rectifies the input in place, then copies it: right
// output, clobbered input.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t begin, int64_t end, int64_t step) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(end));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(end));  // (n)
  for (int64_t i = begin + (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * step; i < end;
       i += int64_t(gridDim.x) * blockDim.x * step)
    mY(i) = fmaxf(mX(i), 0.0f);
}

constexpr int64_t kN = int64_t(4096) * 65536;

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<1024, 256, 0, stream>>>(x, const_cast<float*>(x), 0, kN, 1);
  cudaMemcpyAsync(out, x, kN * sizeof(float), cudaMemcpyDeviceToDevice, stream);
}
