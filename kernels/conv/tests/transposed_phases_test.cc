// The phase decomposition of a transposed convolution, on the host: over the phases, the forward
// convolutions' (output, input, weight tap) triples are exactly the transposed convolution's,
// counted from its definition o = i * stride - pad + k * dil, for KernelBench's strides, paddings,
// dilations and output paddings, and more.
#include "transposed_phases.cuh"

#include <set>
#include <tuple>

#include <gtest/gtest.h>

namespace cutegen::conv {
namespace {

using Triples = std::multiset<std::tuple<int, int, int>>;  // (output, input, weight tap)

// One spatial dim of a transposed convolution from its definition.
Triples by_definition(int in, int out, int kernel, int stride, int pad, int dil) {
  Triples t;
  for (int i = 0; i < in; ++i)
    for (int k = 0; k < kernel; ++k) {
      int o = i * stride - pad + k * dil;
      if (o >= 0 && o < out) t.insert({o, i, k});
    }
  return t;
}

// The same dim as its phases' forward convolutions: phase r's output o' reads input
// o' - pad' + j * dil' with its tap j, which is the weight's tap first + (taps - 1 - j) * step.
Triples by_phases(int in, int out, int kernel, int stride, int pad, int dil, int* outputs) {
  Triples t;
  *outputs = 0;
  for (int r = 0; r < stride; ++r) {
    PhaseDim p = phase_dim(out, kernel, stride, pad, dil, r);
    *outputs += p.size;
    for (int o = 0; o < p.size; ++o)
      for (int j = 0; j < p.taps; ++j) {
        int i = o - p.pad + j * p.dil;
        if (i >= 0 && i < in) t.insert({o * stride + r, i, p.first + (p.taps - 1 - j) * p.step});
      }
  }
  return t;
}

// The same dim with its phases merged (MergedW): merged output o' of phase r is o' * stride + r, reading
// input o' - pad + u for union tap u, which is phase r's tap u - shift(r) where that is one of its own.
Triples by_merged_phases(int in, int out, int kernel, int stride, int pad, int dil, int* outputs) {
  ConvShape t{};
  t.q = out, t.s = kernel, t.stride_w = stride, t.pad_w = pad, t.dil_w = dil;
  MergedW m = MergedW::of(t);
  Triples triples;
  *outputs = 0;
  for (int r = 0; r < stride; ++r) {
    PhaseDim p = MergedW::phase(t, r);
    for (int o = 0; o < m.size; ++o) {
      if (o * stride + r >= out) continue;
      ++*outputs;
      for (int u = 0; u < m.taps; ++u) {
        int j = u - m.shift(t, r), i = o - m.pad + u;
        if (j >= 0 && j < p.taps && i >= 0 && i < in)
          triples.insert({o * stride + r, i, p.first + (p.taps - 1 - j) * p.step});
      }
    }
  }
  return triples;
}

struct Dim {
  int in, kernel, stride, pad, dil, output_padding;
  int out() const { return (in - 1) * stride - 2 * pad + dil * (kernel - 1) + output_padding + 1; }
};

TEST(TransposedPhases, EachDimIsItsPhasesForwardConvolutions) {
  const Dim dims[] = {
      {12, 3, 2, 1, 1, 1},  {24, 5, 2, 2, 1, 1},  {48, 7, 2, 3, 1, 1},  // level 1's 72 (grouped, 3-D)
      {128, 3, 2, 1, 2, 0}, {256, 5, 3, 2, 1, 0},                       // level 1's 75: dilation 2, stride 3
      {16, 3, 2, 1, 2, 0},  {131, 3, 2, 1, 2, 0},                       // 77, 79: stride 2 and dilation 2
      {64, 3, 5, 1, 2, 0},                                              // 81: stride 5, dilation 2
      {32, 4, 2, 1, 1, 0},  {16, 5, 2, 2, 1, 0},  {33, 3, 2, 1, 1, 1}, {128, 4, 2, 0, 1, 0},  // level 2's
      {20, 3, 1, 1, 1, 0},  {20, 5, 1, 0, 3, 0},                                              // stride 1 (one phase)
      {9, 2, 3, 0, 1, 2},   {10, 1, 2, 0, 1, 1},  {7, 3, 4, 2, 6, 3},  {11, 6, 4, 5, 2, 1},   // odd ones
  };
  for (const Dim& d : dims) {
    int outputs = 0;
    Triples expected = by_definition(d.in, d.out(), d.kernel, d.stride, d.pad, d.dil);
    Triples got = by_phases(d.in, d.out(), d.kernel, d.stride, d.pad, d.dil, &outputs);
    EXPECT_EQ(outputs, d.out()) << "the phases cover each output once: in " << d.in << " k " << d.kernel;
    EXPECT_EQ(got, expected) << "in " << d.in << " k " << d.kernel << " s " << d.stride << " p " << d.pad << " d "
                             << d.dil << " op " << d.output_padding;
  }
}

TEST(TransposedPhases, MergedWPhasesAreTheSameConvolution) {
  const Dim dims[] = {
      {12, 3, 2, 1, 1, 1}, {24, 5, 2, 2, 1, 1}, {48, 7, 2, 3, 1, 1}, {16, 3, 2, 1, 2, 0},  {131, 3, 2, 1, 2, 0},
      {32, 4, 2, 1, 1, 0}, {16, 5, 2, 2, 1, 0}, {33, 3, 2, 1, 1, 1}, {128, 4, 2, 0, 1, 0}, {10, 1, 2, 0, 1, 1},
      {7, 3, 4, 2, 2, 3},  {11, 6, 4, 5, 1, 1}, {9, 5, 4, 0, 4, 3},  {8, 2, 2, 3, 1, 1},
  };
  int merged = 0;
  for (const Dim& d : dims) {
    ConvShape t{};
    t.q = d.out(), t.s = d.kernel, t.stride_w = d.stride, t.pad_w = d.pad, t.dil_w = d.dil;
    if (!MergedW::applies(t)) continue;
    ++merged;
    int outputs = 0;
    Triples expected = by_definition(d.in, d.out(), d.kernel, d.stride, d.pad, d.dil);
    Triples got = by_merged_phases(d.in, d.out(), d.kernel, d.stride, d.pad, d.dil, &outputs);
    EXPECT_EQ(outputs, d.out()) << "each output once: in " << d.in << " k " << d.kernel;
    EXPECT_EQ(got, expected) << "in " << d.in << " k " << d.kernel << " s " << d.stride << " p " << d.pad << " d "
                             << d.dil;
  }
  EXPECT_EQ(merged, 14) << "every dim above has dil dividing stride";
}

TEST(TransposedPhases, PhasesNoTapReachesHoldTheBiasAlone) {
  // Stride 2, dilation 2, padding 1: every tap lands on odd outputs, the even ones see none.
  PhaseDim even = phase_dim(31, 3, 2, 1, 2, 0), odd = phase_dim(31, 3, 2, 1, 2, 1);
  EXPECT_EQ(even.taps, 0);
  EXPECT_EQ(even.size, 16);
  EXPECT_EQ(odd.taps, 3);
  EXPECT_EQ(odd.dil, 1) << "taps two apart over stride 2 read neighbouring inputs";
}

TEST(TransposedPhases, AForwardShapePerPhaseWithTheWeightsTapsFlipped) {
  // Level 1's 72: (2, 2, 2) stride, kernel (3, 5, 7), padding (1, 2, 3), output padding 1.
  ConvShape t{8, 32, 32, 4, 12, 24, 48, 24, 48, 96, 3, 5, 7, 2, 2, 2, 1, 2, 3, 1, 1, 1, 1, 0, 0};
  int taps = 0;
  int64_t pixels = 0;
  for (int rz = 0; rz < 2; ++rz)
    for (int rp = 0; rp < 2; ++rp)
      for (int rq = 0; rq < 2; ++rq) {
        TransposedPhase ph = TransposedPhase::of(t, rz, rp, rq);
        ConvShape f = ph.forward(t);
        EXPECT_EQ(f.transposed, 0);
        EXPECT_EQ(f.stride_d + f.stride_h + f.stride_w, 3);
        EXPECT_EQ(f.taps(), ph.taps());
        EXPECT_EQ(int64_t(f.z) * f.p * f.q, ph.pixels());
        std::set<int> sources;
        for (int tap = 0; tap < ph.taps(); ++tap)
          sources.insert(ph.source_tap(t, tap));
        EXPECT_EQ(int(sources.size()), ph.taps()) << "distinct weight taps";
        taps += ph.taps();
        pixels += ph.pixels();
      }
  EXPECT_EQ(taps, t.taps()) << "each weight tap in exactly one phase";
  EXPECT_EQ(pixels, int64_t(t.z) * t.p * t.q);
}

}  // namespace
}  // namespace cutegen::conv
