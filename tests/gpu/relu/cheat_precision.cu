// Cheating kernel for tasks/relu.py (the evaluator must catch it): Rounds through fp16: within 1e-2, but far less
// accurate than eager (which is exact).
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

#include <cuda_fp16.h>

__global__ void relu_half_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = __half2float(__float2half(fmaxf(mX(i), 0.0f)));
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_half_kernel<<<1024, 256, 0, stream>>>(x, out, kN);
}
