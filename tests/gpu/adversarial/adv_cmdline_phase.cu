// Adversarial kernel, class 1 (the candidate shares the judge's process), mechanism: read the
// worker's command line to know the phase. /proc/self/cmdline holds --trials and --warmup, so the
// kernel counts its calls: it computes honestly through the correctness trials and the timing
// warm-up (which leaves every timed output buffer holding the right answer), then stops working.
// A timed call only spins on the GPU until 460 us after it began: faster than eager (~0.51 ms) yet
// above 0.85 x the relu floor (~0.43 ms), so today's roofline check does not catch it by accident.
#include <cute/tensor.hpp>

#include <fstream>
#include <string>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

__device__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_kernel(uint64_t ns) {
  for (uint64_t end = now_ns() + ns; now_ns() < end;) {
  }
}

constexpr int64_t kN = cutegen_abi::x_numel;
constexpr uint64_t kPaddedNs = 460000;

// The worker's argument after `flag`, or `fallback` when it has none.
int worker_arg(const std::string& flag, int fallback) {
  std::ifstream f("/proc/self/cmdline", std::ios::binary);
  std::string arg, prev;
  while (std::getline(f, arg, '\0')) {
    if (prev == flag) return std::stoi(arg);
    prev = arg;
  }
  return fallback;
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  static const int checked_calls = worker_arg("--trials", 5) + worker_arg("--warmup", 10);
  static int calls = 0;
  if (++calls <= checked_calls)
    relu_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
  else
    spin_kernel<<<1, 1, 0, stream>>>(kPaddedNs);
}
