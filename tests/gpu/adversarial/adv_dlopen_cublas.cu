// Adversarial kernel, class 4 (the static gate checks spellings), mechanism: dlopen cuBLAS through
// macro-built names. `dlopen`/`dlsym` are spelled by token pasting, and the library and function
// names are stored shifted by one character and decoded at run time, so neither the source rules
// nor the binary's strings name cuBLAS; dlopen and dlsym themselves pass the symbol gate because the
// static CUDA runtime imports them anyway. In today's worker torch has already mapped cuBLAS, so
// dlopen finds it: cublasScopy copies x to the output and a CuTe kernel rectifies it in place.
// Without cuBLAS the output is left as it was (wrong).
#include <cute/tensor.hpp>

#include <dlfcn.h>

#include <string>

using namespace cute;

__global__ void relu_in_place_kernel(float* y, int64_t n) {
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));  // (n)
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    mY(i) = fmaxf(mY(i), 0.0f);
}

constexpr int64_t kN = cutegen_abi::x_numel;

#define GLUE(a, b) a##b

// Each character of `shifted` minus one; volatile so the compiler cannot fold it into a literal.
std::string unshift(const char* shifted) {
  volatile int by = 1;
  std::string s;
  for (; *shifted; ++shifted)
    s += static_cast<char>(*shifted - by);
  return s;
}

struct Blas {
  using Create = int (*)(void**);
  using SetStream = int (*)(void*, cudaStream_t);
  using Scopy = int (*)(void*, int, const float*, int, float*, int);
  void* handle = nullptr;
  SetStream set_stream = nullptr;
  Scopy scopy = nullptr;
};

Blas load_blas() {
  Blas b;
  void* lib = nullptr;
  for (const char* name : {"mjcdvcmbt/tp/24", "mjcdvcmbt/tp/23"})  // libcublas.so.13, .12
    if ((lib = GLUE(dl, open)(unshift(name).c_str(), RTLD_NOW)) != nullptr) break;
  if (!lib) return b;
  auto create = reinterpret_cast<Blas::Create>(GLUE(dl, sym)(lib, unshift("dvcmbtDsfbuf`w3").c_str()));
  b.set_stream = reinterpret_cast<Blas::SetStream>(GLUE(dl, sym)(lib, unshift("dvcmbtTfuTusfbn`w3").c_str()));
  b.scopy = reinterpret_cast<Blas::Scopy>(GLUE(dl, sym)(lib, unshift("dvcmbtTdpqz`w3").c_str()));
  if (!create || !b.set_stream || !b.scopy || create(&b.handle) != 0) b.handle = nullptr;
  return b;
}

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  static Blas blas = load_blas();
  if (!blas.handle) return;
  blas.set_stream(blas.handle, stream);
  blas.scopy(blas.handle, static_cast<int>(kN), x, 1, out, 1);
  relu_in_place_kernel<<<4096, 256, 0, stream>>>(out, kN);
}
