// The model's first answer in the loop tests: its marks select the scripted evaluator's answers.
#include <cute/tensor.hpp>
using namespace cute;
__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  // MARK_COMPILE_ERR
}
extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<1, 256, 0, stream>>>(x, out, cutegen_abi::x_numel);
}
