// CuTeGen ABI for task '88_MinGPTNewGelu' (generated from /work/main/.kb/level1/88_MinGPTNewGelu.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order.
//
// Model was constructed as Model(*init_args) with:
//   (no init args)
#ifndef CUTEGEN_ABI__88_MINGPTNEWGELU_H_
#define CUTEGEN_ABI__88_MINGPTNEWGELU_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [8192, 8192] strides [8192, 1]
    float* out,  // output out: float32 [8192, 8192] strides [8192, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 67108864;
constexpr int64_t x_dim0 = 8192;
constexpr int64_t x_dim1 = 8192;
constexpr int64_t out_numel = 67108864;
constexpr int64_t out_dim0 = 8192;
constexpr int64_t out_dim1 = 8192;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI__88_MINGPTNEWGELU_H_

