__global__ void fused(const float* x, const float* w, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i] * w[i] + b[i % 4096], 0.0f);
}
extern "C" void cutegen_forward(const float* x, const float* linear_weight, const float* linear_bias, float* out,
                                cudaStream_t stream) {
  int n = 4096 * 4096;
  fused<<<(n + 255) / 256, 256, 0, stream>>>(x, linear_weight, linear_bias, out, n);
}
