// An ABI size constant named without its namespace. The first lines stand in for the ABI header
// the harness force-includes (task/abi.cc), which declares the constants in namespace cutegen_abi.
#include <cstdint>
namespace cutegen_abi {
constexpr int64_t x_numel = 4096;
}  // namespace cutegen_abi

__global__ void relu(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < x_numel) y[i] = fmaxf(x[i], 0.0f);
}
