// Adversarial kernel, class 3 (work can escape the timed region), mechanism: defer work to the
// per-thread default stream, written as the integer handle `(cudaStream_t)0x2` so no stream name
// appears. 85% of the rows run on the judge's stream, inside its events; the last 15% run on the
// per-thread stream, which does not wait for the judge's and is not bracketed by its events. The
// trials synchronize the whole device before checking, so the answer is complete and right; the
// timed samples see 85% of the work (~0.46 ms: faster than eager, above 0.85 x the floor) and the
// hidden 15% stays inside the host-clock check's 25% slack.
#include <cute/tensor.hpp>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

constexpr int64_t kN = cutegen_abi::x_numel;
constexpr int64_t kSeen = kN / 100 * 85;  // elements done inside the judge's events

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  const auto hidden = reinterpret_cast<cudaStream_t>(0x2);
  relu_kernel<<<4096, 256, 0, stream>>>(x, out, kSeen);
  relu_kernel<<<1024, 256, 0, hidden>>>(x + kSeen, out + kSeen, kN - kSeen);
}
