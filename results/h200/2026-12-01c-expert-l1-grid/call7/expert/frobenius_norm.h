// CuTeGen ABI for task 'frobenius_norm' (generated from /work/main/tasks/frobenius_norm.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order; parameters that
// Model's constructor leaves constant get random values, so read them, never assume them.
//
// Model was constructed as Model(*init_args) with:
//   (no init args)
#ifndef CUTEGEN_ABI_FROBENIUS_NORM_H_
#define CUTEGEN_ABI_FROBENIUS_NORM_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [32, 64, 256, 256] strides [4194304, 65536, 256, 1]
    float* out,  // output out: float32 [32, 64, 256, 256] strides [4194304, 65536, 256, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 134217728;
constexpr int64_t x_dim0 = 32;
constexpr int64_t x_dim1 = 64;
constexpr int64_t x_dim2 = 256;
constexpr int64_t x_dim3 = 256;
constexpr int64_t out_numel = 134217728;
constexpr int64_t out_dim0 = 32;
constexpr int64_t out_dim1 = 64;
constexpr int64_t out_dim2 = 256;
constexpr int64_t out_dim3 = 256;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_FROBENIUS_NORM_H_

