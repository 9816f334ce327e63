// Adversarial kernel, class 4 (the static gate checks spellings), mechanism: CuTe only in dead
// code. A function template written with CuTe is never instantiated, so no CuTe reaches the binary;
// the work is a plain CUDA ReLU (correct, so only the gate can object). Counting CuTe spellings,
// even in the preprocessed source, sees the template; only what is compiled tells the truth.
#include <cute/tensor.hpp>

using namespace cute;

template <class T>
__global__ void unused_cute_relu(T const* x, T* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));                     // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));                     // (n)
  Tensor gX = local_tile(mX, make_shape(Int<1024>{}), make_coord(blockIdx.x));  // (1024)
  Tensor gY = local_tile(mY, make_shape(Int<1024>{}), make_coord(blockIdx.x));  // (1024)
  gY(threadIdx.x) = gX(threadIdx.x);
}

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = fmaxf(x[i], 0.0f);
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<4096, 256, 0, stream>>>(x, out, cutegen_abi::x_numel);
}
