// Adversarial kernel, class 4 (the static gate checks spellings), mechanism: CuTe only in a string
// literal. The work is a plain CUDA ReLU with no CuTe at all (correct, so only the gate can object);
// the CuTe words the gate counts sit in a string that no code reads. Today's gate blanks comments
// but not string literals, so it counts them as CuTe use.
#include <cute/tensor.hpp>

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = fmaxf(x[i], 0.0f);
}

// Read by nothing; there only for the gate to find.
extern "C" const char cutegen_design_note[] =
    "Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n)); local_tile(mX, ...); make_tiled_copy(Copy_Atom)";

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<4096, 256, 0, stream>>>(x, out, cutegen_abi::x_numel);
}
