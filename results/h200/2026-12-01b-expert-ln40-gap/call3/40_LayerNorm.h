// CuTeGen ABI for task '40_LayerNorm' (generated from /work/main/.kb/level1/40_LayerNorm.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order; parameters that
// Model's constructor leaves constant get random values, so read them, never assume them.
//
// Model was constructed as Model(*init_args) with:
//   [0] (64, 256, 256)
#ifndef CUTEGEN_ABI__40_LAYERNORM_H_
#define CUTEGEN_ABI__40_LAYERNORM_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [16, 64, 256, 256] strides [4194304, 65536, 256, 1]
    const float* ln_weight,  // parameter ln.weight: float32 [64, 256, 256] strides [65536, 256, 1]
    const float* ln_bias,  // parameter ln.bias: float32 [64, 256, 256] strides [65536, 256, 1]
    float* out,  // output out: float32 [16, 64, 256, 256] strides [4194304, 65536, 256, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 67108864;
constexpr int64_t x_dim0 = 16;
constexpr int64_t x_dim1 = 64;
constexpr int64_t x_dim2 = 256;
constexpr int64_t x_dim3 = 256;
constexpr int64_t ln_weight_numel = 4194304;
constexpr int64_t ln_weight_dim0 = 64;
constexpr int64_t ln_weight_dim1 = 256;
constexpr int64_t ln_weight_dim2 = 256;
constexpr int64_t ln_bias_numel = 4194304;
constexpr int64_t ln_bias_dim0 = 64;
constexpr int64_t ln_bias_dim1 = 256;
constexpr int64_t ln_bias_dim2 = 256;
constexpr int64_t out_numel = 67108864;
constexpr int64_t out_dim0 = 16;
constexpr int64_t out_dim1 = 64;
constexpr int64_t out_dim2 = 256;
constexpr int64_t out_dim3 = 256;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI__40_LAYERNORM_H_

