// CuTeGen ABI for task 'layernorm_long_ragged' (generated from /work/main/tasks/layernorm_long_ragged.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order; parameters that
// Model's constructor leaves constant get random values, so read them, never assume them.
//
// Model was constructed as Model(*init_args) with:
//   [0] (4, 786433)
#ifndef CUTEGEN_ABI_LAYERNORM_LONG_RAGGED_H_
#define CUTEGEN_ABI_LAYERNORM_LONG_RAGGED_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [8, 4, 786433] strides [3145732, 786433, 1]
    const float* norm_weight,  // parameter norm.weight: float32 [4, 786433] strides [786433, 1]
    const float* norm_bias,  // parameter norm.bias: float32 [4, 786433] strides [786433, 1]
    float* out,  // output out: float32 [8, 4, 786433] strides [3145732, 786433, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 25165856;
constexpr int64_t x_dim0 = 8;
constexpr int64_t x_dim1 = 4;
constexpr int64_t x_dim2 = 786433;
constexpr int64_t norm_weight_numel = 3145732;
constexpr int64_t norm_weight_dim0 = 4;
constexpr int64_t norm_weight_dim1 = 786433;
constexpr int64_t norm_bias_numel = 3145732;
constexpr int64_t norm_bias_dim0 = 4;
constexpr int64_t norm_bias_dim1 = 786433;
constexpr int64_t out_numel = 25165856;
constexpr int64_t out_dim0 = 8;
constexpr int64_t out_dim1 = 4;
constexpr int64_t out_dim2 = 786433;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_LAYERNORM_LONG_RAGGED_H_

