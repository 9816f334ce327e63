// Cheat: no CuTe at all; the names only appear in a string, a raw string, comments and #if 0.
#include <cute/tensor.hpp>

// make_tensor(make_gmem_ptr(x), make_shape(n)); make_tiled_copy
static const char* kClaim = "Tensor t = make_tensor(make_gmem_ptr(x), make_layout(make_shape(n)));";
static const char* kRaw = R"cute(local_tile(mX, make_shape(Tile{}), make_coord(t)); "Copy_Atom")cute";

__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    y[i] = fmaxf(x[i], 0.0f);
}

#if 0
__global__ void cute_kernel(float const* x, float* y, int64_t n) {
  cute::Tensor mX = cute::make_tensor(cute::make_gmem_ptr(x), cute::make_shape(n));
}
#endif

extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  (void)kClaim;
  (void)kRaw;
  relu_kernel<<<1024, 256, 0, stream>>>(x, out, cutegen_abi::x_numel);
}
