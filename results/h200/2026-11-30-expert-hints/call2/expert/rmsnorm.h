// CuTeGen ABI for task 'rmsnorm' (generated from /work/main/tasks/rmsnorm.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order.
//
// Model was constructed as Model(*init_args) with:
//   [0] 64
//   [1] 1e-05
#ifndef CUTEGEN_ABI_RMSNORM_H_
#define CUTEGEN_ABI_RMSNORM_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [16, 64, 256, 256] strides [4194304, 65536, 256, 1]
    float* out,  // output out: float32 [16, 64, 256, 256] strides [4194304, 65536, 256, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 67108864;
constexpr int64_t x_dim0 = 16;
constexpr int64_t x_dim1 = 64;
constexpr int64_t x_dim2 = 256;
constexpr int64_t x_dim3 = 256;
constexpr int64_t out_numel = 67108864;
constexpr int64_t out_dim0 = 16;
constexpr int64_t out_dim1 = 64;
constexpr int64_t out_dim2 = 256;
constexpr int64_t out_dim3 = 256;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_RMSNORM_H_

