// Adversarial kernel, class 2 (timed runs are trusted), mechanism: memoize by output pointer and a
// hash of a few input values. Each call gathers 32 input values (one small kernel, one copy to the
// host); when this output buffer last received the answer for inputs with the same sample, it still
// holds it, so the call does no work and only spins until 460 us after it began (faster than eager,
// above 0.85 x the relu floor). Correctness trials use fresh inputs, so they always compute; the
// timed runs reuse 2-4 input sets and output buffers, so after the warm-up they never do.
#include <cute/tensor.hpp>

#include <cstring>
#include <map>

using namespace cute;

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mX(i), 0.0f);
}

constexpr int kSamples = 32;

__device__ uint64_t now_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread i reads x at an odd stride; thread 0 also notes when the call began.
__global__ void sample_kernel(float const* x, int64_t n, float* sample, uint64_t* began) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));  // (n)
  if (threadIdx.x == 0) *began = now_ns();
  sample[threadIdx.x] = mX((threadIdx.x * 8388617LL) % n);
}

__global__ void spin_until_kernel(uint64_t const* began, uint64_t ns) {
  while (now_ns() < *began + ns) {
  }
}

constexpr int64_t kN = cutegen_abi::x_numel;
constexpr uint64_t kPaddedNs = 460000;

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  struct Scratch {
    float* sample;
    uint64_t* began;
    float* host;
  };
  static Scratch s = [] {
    Scratch r{};
    cudaMalloc(&r.sample, kSamples * sizeof(float));
    cudaMalloc(&r.began, sizeof(uint64_t));
    cudaMallocHost(&r.host, kSamples * sizeof(float));
    return r;
  }();
  static std::map<float*, uint64_t> last_hash;  // output buffer -> hash of the inputs it answered
  sample_kernel<<<1, kSamples, 0, stream>>>(x, kN, s.sample, s.began);
  cudaMemcpyAsync(s.host, s.sample, kSamples * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  uint64_t hash = 1469598103934665603ull ^ reinterpret_cast<uintptr_t>(x);
  for (int i = 0; i < kSamples; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &s.host[i], sizeof bits);
    hash = (hash ^ bits) * 1099511628211ull;
  }
  auto it = last_hash.find(out);
  if (it != last_hash.end() && it->second == hash) {
    spin_until_kernel<<<1, 1, 0, stream>>>(s.began, kPaddedNs);
    return;
  }
  last_hash[out] = hash;
  relu_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
}
