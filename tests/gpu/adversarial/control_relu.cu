// Control for the adversarial suite (tasks/relu.py): the plain CuTe ReLU every attack here starts
// from, with no attack. It must pass on any evaluator; if it does not, the suite's other rows mean
// nothing. Each attack file repeats this kernel because a candidate is one source file.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

constexpr int64_t kN = cutegen_abi::x_numel;

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
}
