// Honest kernel for tasks/layernorm_rows_768.py: one warp per row of 768, 24 elements per lane, the
// mean, then the squared deviations from it, then x's normalized value times weight plus bias.
#include <cute/tensor.hpp>

using namespace cute;

constexpr int kRows = cutegen_abi::x_dim0, kHidden = cutegen_abi::x_dim1, kPerLane = kHidden / 32;
constexpr int kWarps = 8;

__device__ float warp_sum(float v) {
  for (int m = 16; m > 0; m >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, m);
  return v;
}

__global__ void layernorm_kernel(float const* x, float const* weight, float const* bias, float* y) {
  const int row = blockIdx.x * kWarps + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= kRows) return;
  Tensor mX = make_tensor(make_gmem_ptr(x), make_layout(make_shape(kRows, kHidden), LayoutRight{}));  // (rows, hidden)
  Tensor mY = make_tensor(make_gmem_ptr(y), make_layout(make_shape(kRows, kHidden), LayoutRight{}));
  Tensor mW = make_tensor(make_gmem_ptr(weight), make_shape(kHidden));
  Tensor mB = make_tensor(make_gmem_ptr(bias), make_shape(kHidden));
  float v[kPerLane], s = 0.0f;
  for (int i = 0; i < kPerLane; ++i)
    s += v[i] = mX(row, lane + 32 * i);
  const float mean = warp_sum(s) / kHidden;
  float m2 = 0.0f;
  for (int i = 0; i < kPerLane; ++i)
    m2 += (v[i] - mean) * (v[i] - mean);
  const float rstd = rsqrtf(warp_sum(m2) / kHidden + 1e-5f);
  for (int i = 0; i < kPerLane; ++i) {
    const int c = lane + 32 * i;
    mY(row, c) = (v[i] - mean) * rstd * mW(c) + mB(c);
  }
}

extern "C" void cutegen_forward(const float* x, const float* norm_weight, const float* norm_bias, float* out,
                                cudaStream_t stream) {
  layernorm_kernel<<<(kRows + kWarps - 1) / kWarps, 32 * kWarps, 0, stream>>>(x, norm_weight, norm_bias, out);
}
