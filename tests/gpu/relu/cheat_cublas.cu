// Cheating kernel for tasks/relu.py (the evaluator must catch it): Hands the work to cuBLAS, declared by hand so no
// header gives it away.
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

extern "C" int cublasCreate_v2(void** handle);
extern "C" int cublasSetStream_v2(void* handle, cudaStream_t stream);
extern "C" int cublasScopy_v2(void* handle, int n, const float* x, int incx, float* y, int incy);

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  static void* handle = nullptr;
  if (!handle) cublasCreate_v2(&handle);
  cublasSetStream_v2(handle, stream);
  cublasScopy_v2(handle, static_cast<int>(kN), x, 1, out, 1);
  relu_kernel<<<1024, 256, 0, stream>>>(out, out, 0, kN, 1);
}
