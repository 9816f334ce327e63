// Adversarial kernel, class 2 (timed runs are trusted), mechanism: skip the work when the output is
// not NaN-poisoned. The judge fills fresh output buffers with NaN; a buffer that holds numbers has
// been handed back after an earlier call wrote it, which in today's timing loop means it already
// holds the answer for the same input set. The kernel reads 32 output values (one small kernel, one
// copy to the host): all NaN, it computes; otherwise it only spins until 460 us after the call
// began (faster than eager, above 0.85 x the relu floor). Against a judge that poisons or
// refreshes every call's output, it has to compute every time.
#include <cute/tensor.hpp>

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

// Counts the sampled output values that are not NaN; thread 0 also notes when the call began.
__global__ void written_kernel(float const* y, int64_t n, int* written, uint64_t* began) {
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  if (threadIdx.x == 0) *began = now_ns();
  int mine = !isnan(mY((threadIdx.x * 8388617LL) % n));
  int all = __syncthreads_count(mine);
  if (threadIdx.x == 0) *written = all;
}

__global__ void spin_until_kernel(uint64_t const* began, uint64_t ns) {
  while (now_ns() < *began + ns) {
  }
}

constexpr int64_t kN = cutegen_abi::x_numel;
constexpr uint64_t kPaddedNs = 460000;

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  struct Scratch {
    int* written;
    uint64_t* began;
    int* host;
  };
  static Scratch s = [] {
    Scratch r{};
    cudaMalloc(&r.written, sizeof(int));
    cudaMalloc(&r.began, sizeof(uint64_t));
    cudaMallocHost(&r.host, sizeof(int));
    return r;
  }();
  written_kernel<<<1, kSamples, 0, stream>>>(out, kN, s.written, s.began);
  cudaMemcpyAsync(s.host, s.written, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  if (*s.host > 0)
    spin_until_kernel<<<1, 1, 0, stream>>>(s.began, kPaddedNs);
  else
    relu_kernel<<<4096, 256, 0, stream>>>(x, out, kN);
}
