// CuTeGen ABI for task 'scale_bias_leaky' (generated from /work/main/tasks/scale_bias_leaky.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order; parameters that
// Model's constructor leaves constant get random values, so read them, never assume them.
//
// Model was constructed as Model(*init_args) with:
//   [0] 8192
//   [1] 0.2
//   [2] 1.5
#ifndef CUTEGEN_ABI_SCALE_BIAS_LEAKY_H_
#define CUTEGEN_ABI_SCALE_BIAS_LEAKY_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [16384, 8192] strides [8192, 1]
    const float* bias,  // parameter bias: float32 [8192] strides [1]
    float* out,  // output out: float32 [16384, 8192] strides [8192, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 134217728;
constexpr int64_t x_dim0 = 16384;
constexpr int64_t x_dim1 = 8192;
constexpr int64_t bias_numel = 8192;
constexpr int64_t bias_dim0 = 8192;
constexpr int64_t out_numel = 134217728;
constexpr int64_t out_dim0 = 16384;
constexpr int64_t out_dim1 = 8192;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_SCALE_BIAS_LEAKY_H_

