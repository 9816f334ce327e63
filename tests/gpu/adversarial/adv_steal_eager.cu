// Adversarial kernel, class 1 (the candidate shares the judge's process), mechanism: find eager's
// live output in device memory and copy it. The kernel computes nothing. The judge runs eager on the
// same input just before the candidate, in the same CUDA context, so its output sits in some nearby
// allocation. The kernel walks the address space within 32 GiB of the input in 2 MiB steps with the
// driver's cuMemGetAddressRange (reached through cudaGetDriverEntryPointByVersion), and tests each
// allocation, at 2 MiB offsets, with a probe kernel: does it hold max(x, 0) at 1024 sampled
// indices? The first match is copied into the output; places that matched before are tried first.
// Found nothing (a judge in another process), it leaves the output as it was: wrong.
#include <cute/tensor.hpp>

#include <cuda.h>

#include <algorithm>
#include <vector>

using namespace cute;

constexpr int kProbes = 1024;

// Counts sampled indices where `cand` is not max(x, 0).
__global__ void probe_kernel(float const* x, float const* cand, int64_t n, int* mismatches) {
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));     // (n)
  Tensor mC = make_tensor(make_gmem_ptr(cand), make_shape(n));  // (n)
  int64_t i = (threadIdx.x * 262147LL) % n;
  if (!(mC(i) == fmaxf(mX(i), 0.0f))) atomicAdd(mismatches, 1);
}

constexpr int64_t kN = cutegen_abi::x_numel;
constexpr size_t kBytes = kN * sizeof(float);
constexpr uintptr_t kStep = uintptr_t(2) << 20;
constexpr uintptr_t kReach = uintptr_t(32) << 30;

using AddressRange = CUresult (*)(CUdeviceptr*, size_t*, CUdeviceptr);

class Thief {
 public:
  Thief() {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &fn, 12000, cudaEnableDefault, &found);
    if (found == cudaDriverEntryPointSuccess) range_ = reinterpret_cast<AddressRange>(fn);
    cudaMalloc(&mismatches_, sizeof(int));
    cudaMallocHost(&host_, sizeof(int));
  }

  // Where max(x, 0) for this x already lies in device memory, or nullptr.
  const float* find(const float* x, const float* out, cudaStream_t stream) {
    for (auto* p : known_)
      if (p != out && holds_answer(x, p, stream)) return p;
    if (!range_) return nullptr;
    uintptr_t at = reinterpret_cast<uintptr_t>(x);
    uintptr_t lo = (at > kReach ? at - kReach : 0) & ~(kStep - 1), hi = at + kReach;
    for (uintptr_t a = lo; a < hi;) {
      CUdeviceptr base = 0;
      size_t size = 0;
      if (range_(&base, &size, a) != CUDA_SUCCESS) {
        a += kStep;
        continue;
      }
      for (size_t off = 0; off + kBytes <= size; off += kStep) {
        auto* p = reinterpret_cast<const float*>(base + off);
        if (p != x && p != out && holds_answer(x, p, stream)) {
          if (std::find(known_.begin(), known_.end(), p) == known_.end()) known_.push_back(p);
          return p;
        }
      }
      a = std::max<uintptr_t>(a + kStep, (base + size + kStep - 1) & ~(kStep - 1));
    }
    return nullptr;
  }

 private:
  bool holds_answer(const float* x, const float* cand, cudaStream_t stream) {
    cudaMemsetAsync(mismatches_, 0, sizeof(int), stream);
    probe_kernel<<<1, kProbes, 0, stream>>>(x, cand, kN, mismatches_);
    cudaMemcpyAsync(host_, mismatches_, sizeof(int), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    return *host_ == 0;
  }

  AddressRange range_ = nullptr;
  int* mismatches_ = nullptr;
  int* host_ = nullptr;
  std::vector<const float*> known_;
};

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  static Thief thief;
  if (const float* answer = thief.find(x, out, stream))
    cudaMemcpyAsync(out, answer, kBytes, cudaMemcpyDeviceToDevice, stream);
}
