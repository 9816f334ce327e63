// Adversarial kernel, class 2 (timed runs are trusted), mechanism: write NaN into the input after
// the trials. Inputs are checked for mutation only in the correctness trials, and the timed outputs
// are compared with NaN counted equal to NaN. So once the trials are over (their count read from
// /proc/self/cmdline), the kernel overwrites each timing input set with NaN the first time it sees
// it and never writes its output again: the output keeps its NaN poison, eager turns the NaN input
// into NaN, and the two "agree". A call spins until 460 us after it began, faster than eager yet
// above 0.85 x the relu floor.
#include <cute/tensor.hpp>

#include <fstream>
#include <set>
#include <string>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

__global__ void fill_nan_kernel(float* x, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mX(i) = __int_as_float(0x7fc00000);
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
  static const int trials = worker_arg("--trials", 5);
  static int calls = 0;
  static std::set<const float*> spoiled;
  if (++calls <= trials) {
    relu_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
    return;
  }
  if (spoiled.insert(x).second) {
    fill_nan_kernel<<<4096, 256, 0, stream>>>(const_cast<float*>(x), kN);
    return;
  }
  spin_kernel<<<1, 1, 0, stream>>>(kPaddedNs);
}
