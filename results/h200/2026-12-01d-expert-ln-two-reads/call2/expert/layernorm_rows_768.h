// CuTeGen ABI for task 'layernorm_rows_768' (generated from /work/main/tasks/layernorm_rows_768.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order; parameters that
// Model's constructor leaves constant get random values, so read them, never assume them.
//
// Model was constructed as Model(*init_args) with:
//   [0] 768
//   [1] 1e-05
#ifndef CUTEGEN_ABI_LAYERNORM_ROWS_768_H_
#define CUTEGEN_ABI_LAYERNORM_ROWS_768_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [65536, 768] strides [768, 1]
    const float* norm_weight,  // parameter norm.weight: float32 [768] strides [1]
    const float* norm_bias,  // parameter norm.bias: float32 [768] strides [1]
    float* out,  // output out: float32 [65536, 768] strides [768, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 50331648;
constexpr int64_t x_dim0 = 65536;
constexpr int64_t x_dim1 = 768;
constexpr int64_t norm_weight_numel = 768;
constexpr int64_t norm_weight_dim0 = 768;
constexpr int64_t norm_bias_numel = 768;
constexpr int64_t norm_bias_dim0 = 768;
constexpr int64_t out_numel = 50331648;
constexpr int64_t out_dim0 = 65536;
constexpr int64_t out_dim1 = 768;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_LAYERNORM_ROWS_768_H_

