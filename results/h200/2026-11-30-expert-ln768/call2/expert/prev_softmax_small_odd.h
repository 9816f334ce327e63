// CuTeGen ABI for task 'softmax_small_odd' (generated from /work/main/tasks/softmax_small_odd.py, seed 0).
// Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in
// elements. Parameters and buffers hold Model's values, in state_dict order.
//
// Model was constructed as Model(*init_args) with:
//   (no init args)
#ifndef CUTEGEN_ABI_SOFTMAX_SMALL_ODD_H_
#define CUTEGEN_ABI_SOFTMAX_SMALL_ODD_H_

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" void cutegen_forward(
    const float* x,  // input x: float32 [37, 1001] strides [1001, 1]
    float* out,  // output out: float32 [37, 1001] strides [1001, 1]
    cudaStream_t stream);

namespace cutegen_abi {
constexpr int64_t x_numel = 37037;
constexpr int64_t x_dim0 = 37;
constexpr int64_t x_dim1 = 1001;
constexpr int64_t out_numel = 37037;
constexpr int64_t out_dim0 = 37;
constexpr int64_t out_dim1 = 1001;
}  // namespace cutegen_abi

#endif  // CUTEGEN_ABI_SOFTMAX_SMALL_ODD_H_

