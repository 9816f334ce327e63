// CuTeGen ABI for task '37_FrobeniusNorm_' (generated from /work/main/.kb/level1/37_FrobeniusNorm_.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order.
//
// Model was constructed as Model(*init_args) with:
//   (no init args)
#ifndef CUTEGEN_ABI__37_FROBENIUSNORM__H_
#define CUTEGEN_ABI__37_FROBENIUSNORM__H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [112, 64, 512, 512] strides [16777216, 262144, 512, 1]
    float* out,  // output out: float32 [112, 64, 512, 512] strides [16777216, 262144, 512, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 1879048192;
constexpr int64_t x_dim0 = 112;
constexpr int64_t x_dim1 = 64;
constexpr int64_t x_dim2 = 512;
constexpr int64_t x_dim3 = 512;
constexpr int64_t out_numel = 1879048192;
constexpr int64_t out_dim0 = 112;
constexpr int64_t out_dim1 = 64;
constexpr int64_t out_dim2 = 512;
constexpr int64_t out_dim3 = 512;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI__37_FROBENIUSNORM__H_

