// A representative forward convolution (fp32 in TF32, 128 x 128 tiles of 8 x 16 pixels, a fused
// per-channel bias and ReLU) and the channels-last copy, compiled for sm_90a by the CI test
// (kernels/gemm/tests/check_sass.py --expect conv), which reads their SASS and ptxas's resource
// report. Nothing here runs.
#include "conv/conv_forward.cuh"

namespace cutegen::conv::probe {

struct BiasRelu {
  float const* bias;
  CUTE_DEVICE float apply(float acc, int, int k, int, int, int) const {
    float v = acc + bias[k];
    return v > 0.f ? v : 0.f;
  }
};

using Tf32 = gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, 128, 5>;
using Conv = ConvForward<Tf32, 8, 16, BiasRelu>;

cudaError_t run(float const* x, float const* w, float* out, ConvShape const& s, BiasRelu f, char* workspace) {
  return Conv::run(x, w, out, s, f, workspace, nullptr);
}

}  // namespace cutegen::conv::probe
