// A transposed convolution as forward convolutions, one per output phase. In one spatial dim, input
// pixel i and tap k reach output o = i * stride - pad + k * dil. The outputs o = o' * stride + r of
// phase r are reached by the taps k with (r + pad - k * dil) divisible by stride, an arithmetic
// progression first, first + step, ... (step = stride / gcd(dil, stride)), and tap j of it reads
// input o' + base - j * dil / gcd. Flipping the phase's taps makes that a forward convolution of
// stride 1 over the whole input: pixel o' reads input o' - pad' + j' * dil' (pad' may be negative:
// TMA's box then starts inside the input). Phases no tap reaches hold the bias alone.
// So no multiply touches an inserted zero, and a phase's k-tiles are the taps that count.
#pragma once

#include <cstdint>

#include "conv_shape.cuh"

namespace cutegen::conv {

struct PhaseDim {
  int size;         // output pixels in the phase: r, r + stride, ... below the output's size
  int taps;         // kernel taps that reach them (0: only the bias does)
  int first, step;  // those taps: first, first + step, ...
  int pad, dil;     // the forward convolution: pixel o' reads input o' - pad + j * dil for its tap j
};

CUTE_HOST_DEVICE PhaseDim phase_dim(int out, int kernel, int stride, int pad, int dil, int r) {
  int g = stride, b = dil;  // gcd(stride, dil)
  while (b) {
    int t = g % b;
    g = b, b = t;
  }
  PhaseDim p{(out - r + stride - 1) / stride, 0, 0, stride / g, 0, dil / g};
  for (int k = kernel - 1; k >= 0; --k)
    if ((r + pad - k * dil) % stride == 0) ++p.taps, p.first = k;
  int base = (r + pad - p.first * dil) / stride;  // exact: input o' + base is tap `first`'s
  p.pad = (p.taps - 1) * p.dil - base;
  return p;
}

struct TransposedPhase {
  PhaseDim d, h, w;

  // Phase (r_z, r_p, r_q) of the transposed convolution t.
  CUTE_HOST_DEVICE static TransposedPhase of(ConvShape const& t, int r_z, int r_p, int r_q) {
    return {phase_dim(t.z, t.t, t.stride_d, t.pad_d, t.dil_d, r_z),
            phase_dim(t.p, t.r, t.stride_h, t.pad_h, t.dil_h, r_p),
            phase_dim(t.q, t.s, t.stride_w, t.pad_w, t.dil_w, r_q)};
  }
  CUTE_HOST_DEVICE int64_t pixels() const { return int64_t(d.size) * h.size * w.size; }
  CUTE_HOST_DEVICE int taps() const { return d.taps * h.taps * w.taps; }
  // The weight's tap (of T x R x S) that the forward convolution's tap `tap` (of the phase's) is.
  CUTE_HOST_DEVICE int source_tap(ConvShape const& t, int tap) const {
    int js = tap % w.taps, jr = tap / w.taps % h.taps, jt = tap / (w.taps * h.taps);
    int kt = d.first + (d.taps - 1 - jt) * d.step, kr = h.first + (h.taps - 1 - jr) * h.step,
        ks = w.first + (w.taps - 1 - js) * w.step;
    return (kt * t.r + kr) * t.s + ks;
  }
  // The forward convolution over t's input that computes the phase's output pixels.
  CUTE_HOST_DEVICE ConvShape forward(ConvShape const& t) const {
    ConvShape f = t;
    f.z = d.size, f.p = h.size, f.q = w.size;
    f.t = d.taps, f.r = h.taps, f.s = w.taps;
    f.stride_d = f.stride_h = f.stride_w = 1;
    f.pad_d = d.pad, f.pad_h = h.pad, f.pad_w = w.pad;
    f.dil_d = d.dil, f.dil_h = h.dil, f.dil_w = w.dil;
    f.transposed = 0, f.pack_w = 0;
    return f;
  }
};

// The W phases r_q = 0 .. stride_w - 1 of one (r_z, r_p), merged into one forward convolution
// whose output channel n' is (k, r_q), r_q fastest: one CTA then computes every W phase of its
// output pixels, and a thread's pair of accumulator columns is a pair of neighbouring output
// pixels, so the stores cover whole sectors where separate phases would write every stride-th
// float, launches apart. Where the phases' taps read neighbouring inputs (dil' = 1: dil_w divides
// stride_w) their windows are runs, and the merged window is their union: output o' reads input
// o' - pad + u for union tap u, which is phase r_q's tap u - shift(r_q) (its weight zero outside
// its own taps).
struct MergedW {
  int taps, pad;  // the union window (taps 0: no W phase has a tap)
  int size;       // output pixels per merged row: phase 0's, the most

  CUTE_HOST_DEVICE static PhaseDim phase(ConvShape const& t, int r_q) {
    return phase_dim(t.q, t.s, t.stride_w, t.pad_w, t.dil_w, r_q);
  }
  CUTE_HOST_DEVICE static bool applies(ConvShape const& t) { return t.stride_w > 1 && t.stride_w % t.dil_w == 0; }
  CUTE_HOST_DEVICE static MergedW of(ConvShape const& t) {
    int lo = 0, hi = -1;  // the union's first and last input offset, o' - pad + u
    for (int r = 0; r < t.stride_w; ++r) {
      PhaseDim const p = phase(t, r);
      if (p.taps == 0) continue;
      int const first = -p.pad, last = -p.pad + p.taps - 1;
      if (hi < lo) lo = first, hi = last;
      lo = first < lo ? first : lo, hi = last > hi ? last : hi;
    }
    return {hi - lo + 1, -lo, phase(t, 0).size};
  }
  CUTE_HOST_DEVICE int shift(ConvShape const& t, int r_q) const { return pad - phase(t, r_q).pad; }
  // The forward convolution over t's input that computes the W phases of `dh`'s (r_z, r_p).
  CUTE_HOST_DEVICE ConvShape forward(ConvShape const& t, TransposedPhase const& dh) const {
    ConvShape f = dh.forward(t);
    f.k = t.k * t.stride_w, f.q = size, f.s = taps, f.pad_w = pad, f.dil_w = 1;
    return f;
  }
};

}  // namespace cutegen::conv
