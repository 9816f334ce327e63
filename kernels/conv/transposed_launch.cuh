// Running a transposed convolution's output phases (transposed_phases.cuh) on the GPU: the loop
// over the phases, shared by the implicit GEMM (conv_forward.cuh) and the direct template
// (direct.cuh), and the kernel for the phases no tap reaches.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "conv_shape.cuh"
#include "fused_reduction.cuh"
#include "transposed_phases.cuh"

namespace cutegen::conv {

// A phase no tap reaches: each of its outputs is the epilogue of a zero sum (the bias and the ops
// after it). One thread per output.
template <class Functor, class ElementC>
__global__ void bias_only_phase_kernel(ElementC* out, ConvShape t, TransposedPhase phase, OutputPhase o,
                                       Functor functor) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= int64_t(t.n) * t.k * phase.pixels()) return;
  int q = int(i % phase.w.size) * o.step_q + o.r_q, p = int(i / phase.w.size % phase.h.size) * o.step_p + o.r_p;
  int64_t rest = i / (int64_t(phase.w.size) * phase.h.size);
  int z = int(rest % phase.d.size) * o.step_z + o.r_z;
  rest /= phase.d.size;
  int k = int(rest % t.k), n = int(rest / t.k);
  out[((int64_t(n) * t.k + k) * t.z + z) * t.p * t.q + int64_t(p) * t.q + q] =
      ElementC(functor.apply(0.f, n, k, z, p, q));
}

// Not under a fused reduction: its values would have to join the reduction (the expert does not
// fuse one where a phase has no taps).
template <class Functor, class ElementC>
cudaError_t bias_only_phase(ElementC* out, ConvShape const& t, TransposedPhase const& phase, OutputPhase const& o,
                            Functor const& functor, cudaStream_t stream) {
  if constexpr (fuses_reduction<Functor>) {
    return cudaErrorNotSupported;
  } else {
    int64_t n = int64_t(t.n) * t.k * phase.pixels();
    bias_only_phase_kernel<Functor, ElementC><<<unsigned((n + 255) / 256), 256, 0, stream>>>(out, t, phase, o, functor);
    return cudaGetLastError();
  }
}

// The transposed convolution t phase by phase: launch(phase, g, o) runs a phase's forward
// convolution g with its output pixels placed by o; a phase no tap reaches gets its bias alone.
// Stops at the first error.
template <class Functor, class ElementC, class Launch>
cudaError_t for_each_phase(ConvShape const& t, ElementC* out, Functor const& functor, cudaStream_t stream,
                           Launch&& launch) {
  cudaError_t err = cudaSuccess;
  for (int r_z = 0; r_z < t.stride_d; ++r_z)
    for (int r_p = 0; r_p < t.stride_h; ++r_p)
      for (int r_q = 0; r_q < t.stride_w && err == cudaSuccess; ++r_q) {
        TransposedPhase phase = TransposedPhase::of(t, r_z, r_p, r_q);
        OutputPhase o = OutputPhase::of(t, r_z, r_p, r_q);
        if (phase.pixels() == 0) continue;
        err =
            phase.taps() == 0 ? bias_only_phase(out, t, phase, o, functor, stream) : launch(phase, phase.forward(t), o);
      }
  return err;
}

}  // namespace cutegen::conv
