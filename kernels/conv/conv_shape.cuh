// The geometry of a forward convolution (1-D, 2-D or 3-D: absent spatial dims have size 1) and
// the implicit GEMM it is, per group:
//   rows    = output pixels of one image and depth slice, tiled TileP x TileQ in (p, q),
//   columns = the group's output channels,
//   K       = kernel taps x the group's input channels, a k-tile being one tap and TileK channels.
// Its kernel reads channels-last copies: x as (N, D, H, W, C_pad), w as (K, taps, C/G_pad).
// A transposed convolution is one such forward convolution per output phase (transposed_phases.cuh).
#pragma once

#include <cstdint>

#include <cute/config.hpp>

namespace cutegen::conv {

struct ConvShape {
  int n, c, k, groups;  // batch, input channels, output channels (all groups)
  int d, h, w;          // input
  int z, p, q;          // output
  int t, r, s;          // kernel
  int stride_d, stride_h, stride_w;
  int pad_d, pad_h, pad_w;
  int dil_d, dil_h, dil_w;
  // 1: a transposed convolution (ConvTranspose) with its own stride, padding and dilation and a
  // (C, K/G, T, R, S) weight, run as one forward convolution per output phase.
  int transposed;
  // 1: few input channels: the copy in front packs each row's S taps into the channels (a row-wise
  // im2col at the output's width), and the implicit GEMM runs packed_w()'s geometry.
  int pack_w;
  // 0, or the rows' pitch of a padded copy (FlatRows) that the implicit GEMM reads as one row a depth
  // slice: w is then the slice's padded pixels, h 1, and output pixel (p, q) is pixel p x pitch + q of
  // the row (those with q past this->q, the padding's columns, computed and not stored).
  int pitch;

  // How far a row of taps (one kernel row further) moves a tap's read: one dilation down the input,
  // or over a padded copy's rows (pitch) a pitch times that along its one row.
  CUTE_HOST_DEVICE int tap_row_w() const { return pitch * dil_h; }
  CUTE_HOST_DEVICE int tap_row_h() const { return pitch ? 0 : dil_h; }

  CUTE_HOST_DEVICE int c_group() const { return c / groups; }
  CUTE_HOST_DEVICE int k_group() const { return k / groups; }
  CUTE_HOST_DEVICE int taps() const { return t * r * s; }
  // Channel counts of the channels-last copies: rows of 16 bytes (TMA's stride unit) for 4-byte elements.
  CUTE_HOST_DEVICE int c_padded() const { return (c + 3) / 4 * 4; }
  CUTE_HOST_DEVICE int c_group_padded() const { return (c_group() + 3) / 4 * 4; }

  // The convolution over the packed input (N, D, H, Q, G x S x C/G): channel (g, s, c) of column q
  // holds x[g * C/G + c] at column q * stride_w - pad_w + s * dil_w (zero outside the row), so the
  // W dim has one tap, stride 1 and no padding.
  CUTE_HOST_DEVICE ConvShape packed_w() const {
    ConvShape k = *this;
    k.c = c * s, k.w = q, k.s = 1, k.stride_w = 1, k.pad_w = 0, k.dil_w = 1, k.pack_w = 0;
    return k;
  }
};

// The padded copy of the input that a stride-1 forward convolution g reads with its pixels numbered
// along the copy's rows (InputRead::kCopyFlat): each depth slice as hp rows of wp columns, the input
// at (top, left) and zeros around it, as many as g's taps read past the input from its output pixels.
// Pixel tiles of 128 consecutive pixels of such a row waste only the wp - q columns past each output
// row, where 2-D tiles pad the row to a power of two (34 columns fill 60% of 16 x 8 tiles, 82% of
// flat ones at a pitch of 38).
struct FlatRows {
  int top, left, hp, wp;

  CUTE_HOST_DEVICE static FlatRows of(ConvShape const& g) {
    int const top = g.pad_h > 0 ? g.pad_h : 0, left = g.pad_w > 0 ? g.pad_w : 0;
    int const rows = g.p - g.pad_h + (g.r - 1) * g.dil_h, cols = g.q - g.pad_w + (g.s - 1) * g.dil_w;
    return {top, left, top + (rows > g.h ? rows : g.h), left + (cols > g.w ? cols : g.w)};
  }
  // The source pixel (d x h + y) x w + x of an input of h x w slices that position i of the copy holds
  // (at (d, y + top, x + left)), -1 for a zero.
  CUTE_HOST_DEVICE int source(int i, int h, int w) const {
    int const col = i % wp, slice_row = i / wp, row = slice_row % hp, d = slice_row / hp;
    int const y = row - top, x = col - left;
    return unsigned(y) < unsigned(h) && unsigned(x) < unsigned(w) ? (d * h + y) * w + x : -1;
  }
  // Whether PitchDivider divides every flat pixel index of g's output (p x wp, plus a last tile of
  // `tile`) exactly.
  CUTE_HOST_DEVICE bool exact(ConvShape const& g, int tile) const {
    return (int64_t(g.p) * wp + tile) * wp < (int64_t(1) << 32);
  }
  // g over the copy: one row of hp x wp pixels a depth slice, tap (kr, ks) of output pixel m read at
  // m - pad_w + ks x dil_w + kr x dil_h x pitch (pad_w < 0: the offset of the output's first pixel's
  // first tap); p, q, the taps and the depth dim stay g's.
  CUTE_HOST_DEVICE ConvShape gemm(ConvShape const& g) const {
    ConvShape v = g;
    v.pitch = wp, v.w = hp * wp, v.h = 1;
    v.pad_w = -((top - g.pad_h) * wp + left - g.pad_w), v.pad_h = 0;
    return v;
  }
};

// Division by a padded copy's pitch as a multiply by its reciprocal (the epilogue maps each element's
// pixel back to its output row with one, where a division costs a reciprocal and a dozen more
// instructions): f / pitch exactly while f x pitch < 2^32 (FlatRows::exact).
struct PitchDivider {
  uint64_t magic;  // 2^32 / pitch, rounded up
  CUTE_HOST_DEVICE explicit PitchDivider(int pitch)
      : magic(pitch > 0 ? (uint64_t(1) << 32) / uint32_t(pitch) + 1 : 0) {}
  CUTE_HOST_DEVICE int operator()(int f) const { return int((uint64_t(uint32_t(f)) * magic) >> 32); }
};

// Where the implicit GEMM's output pixel (z, p, q) lands in the (Z, P, Q) output: at
// (z * step_z + r_z, p * step_p + r_p, q * step_q + r_q). A forward convolution writes in place; a
// transposed one's output phase (r_z, r_p, r_q) writes every stride-th pixel.
struct OutputPhase {
  int z, p, q;
  int step_z, step_p, step_q;
  int r_z, r_p, r_q;

  CUTE_HOST_DEVICE static OutputPhase whole(ConvShape const& s) { return {s.z, s.p, s.q, 1, 1, 1, 0, 0, 0}; }
  // Output phase (r_z, r_p, r_q) of the transposed convolution t.
  CUTE_HOST_DEVICE static OutputPhase of(ConvShape const& t, int r_z, int r_p, int r_q) {
    return {t.z, t.p, t.q, t.stride_d, t.stride_h, t.stride_w, r_z, r_p, r_q};
  }
};

// Where an M tile sits: image, output depth slice, and its first output row and column.
struct PixelTile {
  int n, z, p0, q0;
};

// The taps [lo, hi) of one spatial dim (taps of it, stride, padding, dilation, input extent) that
// reach the input from some output position in [first, last]: outside it every tap reads padding.
// Empty (lo >= hi) where none does.
struct TapRun {
  int lo, hi;
  CUTE_HOST_DEVICE static TapRun of(int first, int last, int taps, int stride, int pad, int dil, int extent) {
    int const low = last * stride - pad, high = first * stride - pad;  // the positions tap 0 reads, ends
    int lo = low >= 0 ? 0 : (-low + dil - 1) / dil;
    int hi = high > extent - 1 ? 0 : (extent - 1 - high) / dil + 1;
    return {lo, hi < taps ? hi : taps};
  }
};

template <int TileP, int TileQ>
struct PixelTiling {
  // Over a padded copy's rows (s.pitch, TileP 1): one row of p x pitch pixels a depth slice.
  CUTE_HOST_DEVICE static int tiles_p(ConvShape const& s) { return s.pitch ? 1 : (s.p + TileP - 1) / TileP; }
  CUTE_HOST_DEVICE static int tiles_q(ConvShape const& s) {
    return ((s.pitch ? s.p * s.pitch : s.q) + TileQ - 1) / TileQ;
  }
  CUTE_HOST_DEVICE static int m_tiles(ConvShape const& s) { return s.n * s.z * tiles_p(s) * tiles_q(s); }
  CUTE_HOST_DEVICE static PixelTile tile(ConvShape const& s, int m_tile) {
    int tq = m_tile % tiles_q(s), rest = m_tile / tiles_q(s);
    int tp = rest % tiles_p(s);
    rest /= tiles_p(s);
    return {rest / s.z, rest % s.z, tp * TileP, tq * TileQ};
  }
  // The outermost tap dim's run that reaches the input from M tile `m_tile` (depth for a 3-D
  // kernel, else rows), and how many kernel rows (of S taps) one step of it spans: the implicit GEMM
  // walks its taps in that order, so the taps outside the run are two blocks of k-tiles at the ends of K.
  CUTE_HOST_DEVICE static TapRun outer_taps(ConvShape const& s, int m_tile, int& rows_per_step) {
    PixelTile const t = tile(s, m_tile);
    if (s.t > 1) {
      rows_per_step = s.r;
      return TapRun::of(t.z, t.z, s.t, s.stride_d, s.pad_d, s.dil_d, s.d);
    }
    rows_per_step = 1;
    if (s.pitch) return {0, s.r};  // the copy holds the padding: every row of taps reads it
    return TapRun::of(t.p0, t.p0 + TileP - 1, s.r, s.stride_h, s.pad_h, s.dil_h, s.h);
  }
};

}  // namespace cutegen::conv
