// Cheating kernel for tasks/relu.py (the evaluator must catch it): correct ReLU in plain CUDA, no CuTe.
#include <cute/tensor.hpp>

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = fmaxf(x[i], 0.0f);
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<1024, 256, 0, stream>>>(x, out, int64_t(4096) * 65536);
}
