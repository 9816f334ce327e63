// A kernel in an anonymous namespace beside `using namespace cute;` at file scope: the device code
// compiles, then the host stub nvcc generates cannot name the kernel's namespace unambiguously.
#include <cute/tensor.hpp>

using namespace cute;

namespace {
__global__ void fill(float* p) { p[threadIdx.x] = 1.0f; }
}  // namespace

extern "C" void launch(float* p, cudaStream_t stream) { fill<<<1, 32, 0, stream>>>(p); }
