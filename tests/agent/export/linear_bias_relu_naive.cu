// A deliberately plain kernel for tasks/linear_bias_relu.py (out = relu(x @ W^T + b)): one thread
// per output element, no CuTe, so the export tests can compile it with the real nvcc in seconds.
// The task's ABI header (cutegen_abi::x_dim0, ...) is inlined above it by `cutegen export`.
#include <cuda_runtime.h>

namespace {

using namespace cutegen_abi;

__global__ void linear_bias_relu(const float* x, const float* w, const float* b, float* out) {
  const int64_t row = blockIdx.y, col = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= linear_weight_dim0) return;
  float acc = b[col];
  for (int64_t k = 0; k < x_dim1; ++k)
    acc += x[row * x_dim1 + k] * w[col * linear_weight_dim1 + k];
  out[row * out_dim1 + col] = acc > 0.f ? acc : 0.f;
}

}  // namespace

extern "C" void cutegen_forward(const float* x, const float* linear_weight, const float* linear_bias, float* out,
                                cudaStream_t stream) {
  constexpr int kThreads = 256;
  dim3 grid((linear_weight_dim0 + kThreads - 1) / kThreads, x_dim0);
  linear_bias_relu<<<grid, kThreads, 0, stream>>>(x, linear_weight, linear_bias, out);
}
