// CuTeGen ABI for task 'gelu_tanh' (generated from /work/main/tasks/gelu_tanh.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order; parameters that
// Model's constructor leaves constant get random values, so read them, never assume them.
//
// Model was constructed as Model(*init_args) with:
//   (no init args)
#ifndef CUTEGEN_ABI_GELU_TANH_H_
#define CUTEGEN_ABI_GELU_TANH_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [4096, 65536] strides [65536, 1]
    float* out,  // output out: float32 [4096, 65536] strides [65536, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 268435456;
constexpr int64_t x_dim0 = 4096;
constexpr int64_t x_dim1 = 65536;
constexpr int64_t out_numel = 268435456;
constexpr int64_t out_dim0 = 4096;
constexpr int64_t out_dim1 = 65536;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_GELU_TANH_H_

