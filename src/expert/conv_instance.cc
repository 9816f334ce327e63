// Convolutions (kernels/conv: conv_forward.cuh, depthwise.cuh): the instance (kernels/instances/
// conv.cu.in) fixes the geometry as a constant ConvShape, the kernel's type with its tiles, and the
// epilogue functor: the recipe's pointwise expression with each operand read at the output element
// through its strides.
#include <algorithm>
#include <numeric>
#include <set>

#include "core/strings.h"
#include "expert/conv_recipe.h"
#include "expert/kernel_library.h"
#include "expert/templates.h"

namespace cutegen {

bool conv_packs_w(const ConvRecipe& c) {
  return c.kind == ConvClass::kImplicitGemm && !c.transposed && c.in_channels / c.groups < 16 && c.kernel.back() > 1;
}

bool conv_runs_3xtf32(const ConvRecipe& c, const Params& p) {
  return (c.math == GemmMath::k3xTF32 && !p.tf32x1) || p.tf32x3;
}

bool conv_direct_serves(const ConvRecipe& c) {
  return c.kind == ConvClass::kDirect || (c.kind == ConvClass::kImplicitGemm && c.math == GemmMath::k3xTF32 &&
                                          c.in_size.size() >= 2 && c.in_channels / c.groups * c.kernel.back() <= 32);
}

bool conv_direct_mma_serves(const ConvRecipe& c) { return conv_direct_serves(c) && !c.transposed; }

bool conv_gather_serves(const ConvRecipe& c) {
  if (!c.transposed) return false;
  for (size_t d = 0; d < c.kernel.size(); ++d)
    if (c.kernel[d] > c.stride[d] / std::gcd(c.stride[d], c.dilation[d])) return false;
  return true;
}

int conv_gather_channels(const ConvRecipe& c) {
  int64_t const k_group = c.out_channels / c.groups;
  return k_group % 16 == 0 ? 16 : k_group % 8 == 0 ? 8 : 4;
}

bool conv_direct_prevails(const ConvRecipe& c) {
  return c.kind == ConvClass::kImplicitGemm && conv_direct_serves(c) && c.out_channels / c.groups <= 16 &&
         conv_direct_unsupported(c, 2).empty();
}

namespace {

// The spatial sizes as (D, H, W), 1 for absent dims.
std::vector<int64_t> as_3d(const std::vector<int64_t>& v, int64_t fill) {
  std::vector<int64_t> out(3 - v.size(), fill);
  out.insert(out.end(), v.begin(), v.end());
  return out;
}

// The stride the implicit GEMM's TMA box steps by in the H and W dims: 1 over a packed input's W
// (ConvShape::packed_w) and in a transposed convolution's phases (kernels/conv/transposed_phases.cuh).
int64_t gemm_stride(const ConvRecipe& c, int from_back) {
  if (int(c.stride.size()) < from_back || c.transposed || (from_back == 1 && conv_packs_w(c))) return 1;
  return c.stride[c.stride.size() - from_back];
}

// The output size a launch computes in spatial dim `from_back` (1: the last): a transposed
// convolution's phase holds every stride-th pixel.
int64_t launched_size(const ConvRecipe& c, int from_back) {
  size_t i = c.out_size.size() - from_back;
  return c.transposed ? (c.out_size[i] + c.stride[i] - 1) / c.stride[i] : c.out_size[i];
}

// The direct template's tiles (kernels/conv/direct.cuh): `cols` columns a thread (the point's
// direct_cols), TileW / cols threads along a row (32, or 16 or 8 for narrower rows) and 256 / cols
// threads in all (two columns hold twice the accumulators), each taking Rows output rows (4, fewer
// for short columns); KB output channels per thread: 16 where they divide the group's, else 8 (4 for
// fewer), so few go to waste.
struct DirectTiles {
  int tile_h, tile_w, rows, kb, cols;
};
DirectTiles direct_tiles(const ConvRecipe& c, int cols) {
  int64_t p = launched_size(c, 2), q = (launched_size(c, 1) + cols - 1) / cols, k = c.gemm_n();
  int threads_w = q >= 24 ? 32 : q >= 12 ? 16 : 8, thread_rows = 256 / cols / threads_w;
  int rows = p >= 3 * thread_rows ? 4 : p >= thread_rows * 3 / 2 ? 2 : 1;
  return {thread_rows * rows, threads_w * cols, rows, k % 16 == 0 ? 16 : k <= 4 ? 4 : 8, cols};
}

// Shared bytes of a direct CTA: the taps for KB channels and the input patch (its rows padded by
// up to 31 against bank conflicts: DirectTiling::pitch), whole or in chunks; for a transposed
// convolution a bound over its phases (stride 1, at most every tap).
int64_t direct_shared_bytes(const ConvRecipe& c, int cols) {
  DirectTiles t = direct_tiles(c, cols);
  auto dim = [&](int from_back, int tile) {
    size_t i = c.kernel.size() - from_back;
    return (tile - 1) * (c.transposed ? 1 : c.stride[i]) + (c.kernel[i] - 1) * c.dilation[i] + 1;
  };
  int64_t depth = c.kernel.size() == 3 ? c.kernel[0] : 1, c_group = c.in_channels / c.groups;
  // The patch: every channel where they fit 96 KB, else two buffers of as many channels as fit half
  // (DirectTiling::chunk_channels).
  int64_t channel = 4 * depth * dim(2, t.tile_h) * (dim(1, t.tile_w) + 31), budget = 96 << 10;
  int64_t patch =
      c_group * channel <= budget ? c_group * channel : 2 * std::max<int64_t>(1, budget / 2 / channel) * channel;
  return 4 * c_group * c.kernel_volume() * t.kb + patch;
}

}  // namespace

int conv_merge_w(const ConvRecipe& c) {
  if (c.kind != ConvClass::kImplicitGemm || !c.transposed) return 1;
  int64_t s = c.stride.back(), d = c.dilation.back();
  return (s == 2 || s == 4) && s % d == 0 ? int(s) : 1;
}

int conv_row_box_rows(const ConvRecipe& c) {
  int64_t const dil = c.dilation.empty() ? 1 : c.dilation.back();
  return int((128 + (c.kernel.back() - 1) * dil + 7) / 8 * 8);
}

// The padded copy's pitch that flat tiles number pixels along (FlatRows in kernels/conv/conv_shape.cuh;
// a transposed convolution of stride 1 runs forward, padded (S - 1) dil - pad).
int64_t flat_pitch(const ConvRecipe& c) {
  size_t const w = c.in_size.size() - 1;
  int64_t const dil = c.dilation[w], taps = c.kernel[w];
  int64_t const pad = c.transposed ? (taps - 1) * dil - c.padding[w] : c.padding[w];
  return std::max<int64_t>(pad, 0) + std::max(c.in_size[w], c.out_size[w] - pad + (taps - 1) * dil);
}

ConvTiles conv_tiles(const ConvRecipe& c, bool split_in_kernel, const FusedStage* fused, bool boxes, bool tma_store,
                     int fit, bool row_box) {
  ConvTiles t;
  int64_t q = launched_size(c, 1), stride_w = gemm_stride(c, 1);
  // Pixel-major boxes: whole 32-column runs, one box each whatever the stride (kernels/conv/nchw_boxes.cuh).
  while (t.tile_q < 128 && (t.tile_q < q || (boxes && t.tile_q < 32)) && (boxes || (t.tile_q * 2) * stride_w <= 256))
    t.tile_q *= 2;
  // A row just past a power of two pads a third to a half of every such tile: 16 or 8 columns (8 or
  // 16 rows) where their tiles pad a tenth less of the output plane (docs/decisions.md conv-pixel-tiles).
  int64_t p = c.out_size.size() > 1 ? launched_size(c, 2) : 1;
  auto padded = [&](int64_t tq) {
    int64_t tp = 128 / tq;
    return (p + tp - 1) / tp * tp * ((q + tq - 1) / tq * tq);
  };
  for (int tq = 16; fit && !boxes && tq >= 8 && tq < t.tile_q; tq /= 2)
    if (padded(tq) * 10 < padded(t.tile_q) * 9) t.tile_q = tq;
  if (fused && fused->over == FusedStage::Over::kPool) t.tile_q = fused->window == 2 ? 8 : 4;
  if (fit == 2) t.tile_q = 128;
  t.tile_p = 128 / t.tile_q;
  // Few output channels per group (grouped and 3-D convolutions over 8 to 32 channels) take a
  // narrower wgmma rather than a 64-wide tile that is mostly padding.
  int64_t n = c.gemm_n() * conv_merge_w(c);  // merged W phases: (channel, phase) columns
  t.tile_n = 8;
  while (t.tile_n < 64 && t.tile_n < n)
    t.tile_n *= 2;
  // Up to 96 columns take a 96-wide wgmma (level 1's 50: 96 channels, a quarter of a 128 tile padding).
  if (n > 64) t.tile_n = n <= 96 ? 96 : 128;
  int stage_bytes = ((boxes ? 128 * 40 / 32 : 128) + t.tile_n) * 32 * 4;  // boxes: rows of 40 floats
  int budget = 192;
  if (row_box) {  // a stage is a row's box and its S taps' weight tiles; a few stages fit only in more
    stage_bytes = (conv_row_box_rows(c) + int(c.kernel.back()) * t.tile_n) * 32 * 4;
    budget = 216;  // below the 227 KB a CTA may take, beside a fused stage's sums (8 KB)
  }
  t.stages = std::min(8, ((budget - (tma_store ? 32 : 0)) << 10) / stage_bytes - (split_in_kernel ? 2 : 0));
  return t;
}

namespace {

// What no convolution kernel takes: the dtypes, a reshaping epilogue, 32-bit offsets.
std::string conv_shared_unsupported(const ConvRecipe& c) {
  if (c.input.dtype != DType::kFloat32 || c.out_dtype != DType::kFloat32)
    return "only float32 convolutions have a kernel yet";
  for (auto& o : c.epilogue_operands)
    if (o.dtype != DType::kFloat32) return "epilogue operand " + o.name + " is not float32";
  if (c.out_shape != c.conv_out_shape()) return "the epilogue reshapes the convolution's output";
  int64_t numel = 1;
  for (auto d : c.input.shape)
    numel *= d;
  int64_t image_out = c.out_channels * c.out_pixels();  // the epilogue's offsets within an image are 32-bit
  if (numel >= (int64_t(1) << 31) || c.gemm_m() >= (int64_t(1) << 31) || image_out >= (int64_t(1) << 31))
    return "more than 2^31 input elements, output pixels or output elements of one image";
  return "";
}

// The tensor-core direct template's tiles (kernels/conv/direct_mma.cuh): `pixels` output pixels a CTA
// as rows of 32 columns (16 or 8 for narrower outputs); the group's output channels in blocks of at
// most 64, as even as multiples of 8 allow; K = the group's channels x taps in k-blocks of 8.
struct DirectMmaTiles {
  int tile_h, tile_w, tile_n, k_blocks;
  int64_t n_blocks;
};
DirectMmaTiles direct_mma_tiles(const ConvRecipe& c, int pixels) {
  int64_t const q = c.out_size.back(), k_group = c.gemm_n();
  int const tile_w = q >= 24 ? 32 : q >= 12 ? 16 : 8;
  int64_t const n_blocks = (k_group + 63) / 64, per_block = (k_group + n_blocks - 1) / n_blocks;
  int64_t const k = c.gemm_k();
  return {pixels / tile_w, tile_w, int((per_block + 7) / 8 * 8), int((k + 7) / 8), n_blocks};
}

}  // namespace

bool conv_direct_mma_prevails(const ConvRecipe& c) {
  int64_t const pairs = c.gemm_k();  // channel-tap pairs a group
  return conv_direct_mma_serves(c) && pairs > 32 && pairs <= 192 && conv_direct_mma_unsupported(c, 128).empty();
}

std::string conv_direct_mma_unsupported(const ConvRecipe& c, int pixels) {
  if (auto why = conv_shared_unsupported(c); !why.empty()) return why;
  DirectMmaTiles const t = direct_mma_tiles(c, pixels);
  // Its K unrolls whole (two register sets of A a k-block): past 256 the weights crowd out the patch.
  if (t.k_blocks > 32) return "the tensor-core direct convolution takes at most 256 (channel, tap) pairs a group";
  auto dim = [&](size_t from_back, int tile) {
    if (c.kernel.size() < from_back) return int64_t(1);
    size_t const i = c.kernel.size() - from_back;
    return (tile - 1) * c.stride[i] + (c.kernel[i] - 1) * c.dilation[i] + 1;
  };
  int64_t const depth = c.kernel.size() == 3 ? c.kernel[0] : 1;
  int64_t const patch = c.in_channels / c.groups * depth * dim(2, t.tile_h) * dim(1, t.tile_w);
  int64_t const bytes = 4 * (2 * int64_t(t.tile_n) * 8 * t.k_blocks + 8 * t.k_blocks + 2 * patch);
  if (bytes > (227 << 10)) return "the tensor-core direct convolution's weights and patches exceed shared memory";
  if (c.groups * t.n_blocks > 65535) return "more than 65535 (group, channel block) pairs (the grid's y)";
  return "";
}

std::string conv_unsupported(const ConvRecipe& c) {
  if (c.kind == ConvClass::kDirect) return conv_direct_unsupported(c, 1);  // the default point's tiles
  if (auto why = conv_shared_unsupported(c); !why.empty()) return why;
  if (c.kind == ConvClass::kDepthwise) {
    if (c.dims > 2) return "3-D depthwise convolutions have no kernel yet";
    if (c.batch * c.out_channels > 65535) return "more than 65535 output planes (the depthwise grid's z)";
    return "";
  }
  ConvTiles t = conv_tiles(c);
  if (t.tile_q * gemm_stride(c, 1) > 256 || t.tile_p * gemm_stride(c, 2) > 256)
    return "the stride exceeds a TMA box's 256 elements";
  return "";
}

std::string conv_boxes_unsupported(const ConvRecipe& c, bool x3) {
  if (x3) return "input_boxes applies where the convolution runs TF32";
  if (conv_packs_w(c)) return "input_boxes excludes the row packing (a copy of its own)";
  // TMA ignores the innermost dim's traversal stride without interleave: a box of 40 x stride columns
  // arrived whole, more bytes than its barrier expected (level 1's 76 hung on the GPU, 2026-12-06).
  if (gemm_stride(c, 1) != 1) return "input_boxes takes a W stride of 1 (TMA's innermost dim has no traversal stride)";
  if (c.in_size.back() % 4 != 0) return "input_boxes needs the input's W a multiple of 4 (TMA's 16-byte strides)";
  return "";
}

std::string conv_row_box_unsupported(const ConvRecipe& c, bool x3, bool flat) {
  if (x3) return "row_box applies where the convolution runs TF32";
  // A transposed convolution's phases run forward over its input; of W stride 1 each holds all S taps of a row.
  if (c.transposed && c.stride.back() != 1) return "row_box: a transposed convolution's W phases differ in their taps";
  if (c.kernel.back() < 2) return "row_box shares a box among a kernel row's taps: one tap a row here";
  if (gemm_stride(c, 1) != 1) return "row_box takes a W stride of 1 (a tap's pixels one column further)";
  // Flat tiles (pixel_fit=2) are 128 pixels along the padded copy's rows, whatever the output's width.
  if (!flat && conv_tiles(c).tile_q != 128)
    return "row_box takes pixel tiles of one output row (rows over 64 columns) or flat ones (pixel_fit=2)";
  if (conv_row_box_rows(c) > 256) return "row_box: a row's box spans more than TMA's 256 columns";
  return "";
}

std::string conv_flat_unsupported(const ConvRecipe& c) {
  if (c.dims < 2) return "pixel_fit=2: a 1-D convolution's pixels are one row already";
  if (conv_packs_w(c)) return "pixel_fit=2 reads a padded copy, the row packing a copy of its own";
  size_t const h = c.in_size.size() - 2, w = h + 1;
  if (c.transposed ? std::any_of(c.stride.begin(), c.stride.end(), [](int64_t v) { return v != 1; })
                   : c.stride[h] != 1 || c.stride[w] != 1)
    return "pixel_fit=2 numbers pixels along the copy's rows at H and W stride 1 (a transposed convolution: one phase)";
  // The epilogue's row of a flat pixel f is f / pitch by a multiply, exact while f x pitch < 2^32.
  int64_t const pitch = flat_pitch(c), pixels = c.out_size[h] * pitch;
  if ((pixels + 128) * pitch >= (int64_t(1) << 32)) return "pixel_fit=2: a slice's flat pixels past 2^32 / pitch";
  // Where the 2-D tiles pad the slice about as little, the flat ones gain nothing.
  int64_t const plane = launched_size(c, 2) * launched_size(c, 1);
  int64_t const flat = (pixels + 127) / 128 * 128;
  auto padded = [&](int fit) {
    ConvTiles const t = conv_tiles(c, false, nullptr, false, false, fit);
    return (launched_size(c, 2) + t.tile_p - 1) / t.tile_p * t.tile_p *
           ((launched_size(c, 1) + t.tile_q - 1) / t.tile_q * t.tile_q);
  };
  if (flat * 10 >= std::min(padded(0), padded(1)) * 9)
    return "pixel_fit=2: the 2-D tiles pad the output's slices about as little (" + std::to_string(plane) + " pixels)";
  return "";
}

std::string conv_tma_store_unsupported(const ConvRecipe& c, const ConvTiles& t) {
  if (conv_merge_w(c) > 1) return "tma_store: merged W phases interleave their columns";
  bool const unit_stride = std::all_of(c.stride.begin(), c.stride.end(), [](int64_t v) { return v == 1; });
  if (c.transposed && !unit_stride) return "tma_store writes the output in place (a transposed stride of 1)";
  if (c.out_size.back() % 4 != 0) return "tma_store needs the output's W a multiple of 4 (TMA's 16-byte strides)";
  if (t.tile_q % 32 != 0) return "tma_store takes pixel tiles of whole 32-column runs";
  if (t.tile_n % 32 != 0) return "tma_store takes N tiles of whole 32-channel sub-tiles";
  if (c.groups > 1 && c.gemm_n() % t.tile_n != 0) return "tma_store: a group's channels must fill whole N tiles";
  return "";
}

std::string conv_gather_unsupported(const ConvRecipe& c) {
  if (auto why = conv_shared_unsupported(c); !why.empty()) return why;
  if (c.out_channels / c.groups % 4 != 0) return "the gathering template takes output channels in fours per group";
  if (c.kernel_volume() * (c.in_channels / c.groups) * conv_gather_channels(c) * 4 > (227 << 10))
    return "the gathering template's weights exceed shared memory";
  if (c.batch * c.out_channels * c.out_pixels() >= (int64_t(1) << 31))
    return "more than 2^31 output elements (the gathering template's indices are 32-bit)";
  int64_t rows = c.batch;
  for (size_t d = 0; d + 1 < c.out_size.size(); ++d)
    rows *= c.out_size[d];
  if (rows * ((c.out_size.back() + 127) / 128) >= (int64_t(1) << 31)) return "more than 2^31 CTAs (its grid's x)";
  return "";
}

std::string conv_direct_unsupported(const ConvRecipe& c, int cols) {
  if (auto why = conv_shared_unsupported(c); !why.empty()) return why;
  if (direct_shared_bytes(c, cols) > (227 << 10)) return "the direct convolution's input patch exceeds shared memory";
  DirectTiles t = direct_tiles(c, cols);
  int64_t z = c.out_size.size() == 3 ? launched_size(c, 3) : 1, p = launched_size(c, 2), q = launched_size(c, 1);
  if (c.batch * c.groups * ((c.gemm_n() + t.kb - 1) / t.kb) * z * ((p + t.tile_h - 1) / t.tile_h) *
          ((q + t.tile_w - 1) / t.tile_w) >=
      (int64_t(1) << 31))
    return "more than 2^31 CTAs (the direct grid's x)";
  return "";
}

// The kernel's type: the implicit GEMM with its tiles, or the depthwise template.
// GemmConfig's arguments past the stages, spelled as far as they leave its defaults: the cluster
// along M (B multicast), the warpgroups a tile (ping-pong: one), the copies' parts (two: two stages
// a k-tile, crossed).
std::string config_tail(const Params& p) {
  std::vector<int> const args = {p.cluster_m, 1, p.pingpong ? 1 : 2, 1, 0, p.split_parts};
  std::vector<int> const defaults = {1, 1, 2, 1, 0, 3};
  size_t n = args.size();
  while (n > 0 && args[n - 1] == defaults[n - 1])
    --n;
  std::string tail;
  for (size_t i = 0; i < n; ++i)
    tail += ", " + std::to_string(args[i]);
  return tail;
}

std::string conv_type(const ConvRecipe& c, const Params& p, const FusedStage* fused) {
  bool x3 = conv_runs_3xtf32(c, p), in_kernel = x3 && p.split_ahead == 0;
  ConvTiles t = conv_tiles(c, in_kernel, fused, p.input_boxes, p.tma_store, p.pixel_fit, p.row_box);
  bool const two_d = c.kernel.size() >= 2;
  std::string const rs = std::to_string(two_d ? c.kernel[c.kernel.size() - 2] : 1) + ", " +
                         std::to_string(c.kernel.back());  // R, S: the tap loops of a row plane unroll
  if (p.strategy == Strategy::kConvDepthwise)              // 64 x 32 tiles, 8 rows a thread; 1-D: 256 columns
    return "using Conv = cutegen::conv::DepthwiseConv<" + std::string(two_d ? "64, 4, 8, " : "256, 1, 1, ") + rs +
           ", Epilogue>;";
  if (p.strategy == Strategy::kConvTransposedGather)  // 128 columns a CTA
    return "using Conv = cutegen::conv::TransposedGatherConv<128, " + std::to_string(conv_gather_channels(c)) +
           ", Epilogue>;";
  if (p.strategy == Strategy::kConvDirectMma) {
    DirectMmaTiles const d = direct_mma_tiles(c, p.mma_pixels);
    bool const promotes = p.mma_promote != Params{}.mma_promote, one_product = p.tf32x1 != 0;
    return "using Conv = cutegen::conv::DirectMmaConv<" + std::to_string(d.tile_h) + ", " + std::to_string(d.tile_w) +
           ", " + std::to_string(d.tile_n) + ", " + std::to_string(d.k_blocks) + ", Epilogue" +
           (promotes || one_product ? ", " + std::to_string(p.mma_promote) : "") + (one_product ? ", 1" : "") + ">;";
  }
  if (p.strategy == Strategy::kConvDirect) {
    DirectTiles d = direct_tiles(c, p.direct_cols);
    // A forward convolution's R and S as constants (a transposed one's phases differ in their taps).
    std::string taps = c.transposed ? (d.cols > 1 ? ", 0, 0" : "") : ", " + rs;
    return "using Conv = cutegen::conv::DirectConv<" + std::to_string(d.tile_h) + ", " + std::to_string(d.tile_w) +
           ", " + std::to_string(d.rows) + ", " + std::to_string(d.kb) + ", Epilogue" + taps +
           (d.cols > 1 ? ", " + std::to_string(d.cols) : "") + ">;";
  }
  // ConvForward's trailing arguments, spelled only as far as they leave their defaults.
  // Boxes of a group's 16 channels take two taps a k-tile (not with merged W phases, whose weight
  // rows hold one tap each).
  bool const pairs = c.in_channels / c.groups <= 16 && conv_merge_w(c) == 1;
  std::string input = p.gather_input   ? "cutegen::conv::InputRead::kGather"
                      : !p.input_boxes ? ""
                      : pairs          ? "cutegen::conv::InputRead::kBoxPairs"
                                       : "cutegen::conv::InputRead::kBoxes";
  if (p.pixel_fit == 2) input = "cutegen::conv::InputRead::kCopyFlat";
  if ((p.tma_store || p.row_box) && input.empty()) input = "cutegen::conv::InputRead::kCopy";
  if (p.tma_store || p.row_box) input += p.tma_store ? ", true" : ", false";  // the output stored by TMA
  if (p.row_box) input += ", " + std::to_string(c.kernel.back()) + ", " + std::to_string(conv_row_box_rows(c));
  std::string const merged = std::string(x3 ? ", true, " : ", false, ") + std::to_string(conv_merge_w(c));
  std::string split = !input.empty() ? merged + ", " + input : conv_merge_w(c) > 1 ? merged : x3 ? ", true" : "";
  // An fp32 Config splits 3xTF32 in the kernel; a tf32 one reads the copies' split parts (or runs TF32).
  std::string element = in_kernel ? "float" : "cute::tfloat32_t";
  return "using Config = cutegen::gemm::GemmConfig<" + element + ", " + element +
         ", float, "
         "cutegen::gemm::RowMajor,\n"
         "                                         cutegen::gemm::ColMajor, 128, " +
         std::to_string(t.tile_n) + ", " + std::to_string(t.stages) + config_tail(p) +
         ">;\nusing Conv = cutegen::conv::ConvForward<Config, " + std::to_string(t.tile_p) + ", " +
         std::to_string(t.tile_q) + ", Epilogue" + split + ">;";
}

Result<std::string> conv_instance(const Recipe& r, const TaskSpec& spec, const Params& p) {
  return conv_instance(r, p, entry_signature(spec));
}

std::string FusedStage::declaration() const {
  const char* dims[] = {"kPixels", "kChannels", "kPool", "kStats"};
  return "using Reduction = cutegen::conv::FusedReduction<cutegen::conv::ReduceDims::" +
         std::string(dims[static_cast<int>(over)]) + ", cutegen::conv::ReduceOp::" + op + ", " +
         std::to_string(divisor) + (over == Over::kPool ? ", " + std::to_string(window) : "") +
         ">;  // the chain's first stage";
}

Result<std::string> conv_instance(const Recipe& r, const Params& p, const std::string& signature,
                                  const FusedStage* fused, const std::string& ns) {
  if (!r.conv) return error("a conv instance without its ConvRecipe");
  const ConvRecipe& c = *r.conv;
  if (auto why = conv_unsupported(c); !why.empty()) return error(why);
  // Output coordinates in the order of out_shape's dims: n, k, then the spatial dims present.
  std::vector<std::string> coords = {"n", "k"};
  const char* spatial[] = {"z", "p", "q"};
  for (int d = 3 - c.dims; d < 3; ++d)
    coords.push_back(spatial[d]);
  std::vector<std::string> members, values, loads, leaves = {"x0"};
  for (size_t i = 0; i < c.epilogue_operands.size(); ++i) {
    auto& o = c.epilogue_operands[i];
    std::string I = std::to_string(i + 1);
    std::vector<std::string> terms;
    for (size_t d = 0; d < o.strides.size(); ++d)
      if (o.strides[d]) terms.push_back("int64_t(" + coords[d] + ") * " + std::to_string(o.strides[d]));
    members.push_back("  float const* in" + I + ";\n");
    values.push_back(o.c_name);
    loads.push_back("    float v" + I + " = in" + I + "[" + (terms.empty() ? "0" : join(terms, " + ")) + "];\n");
    leaves.push_back("v" + I);
  }
  std::set<std::string> scalars = scalar_args(c.epilogue);
  for (auto& s : scalars) {
    members.push_back("  double " + s + ";\n");
    values.push_back(s);
  }
  if (fused && fused->over == FusedStage::Over::kStats) {  // past the output the anchor writes
    members.push_back("  double* stats;\n");
    values.push_back("reinterpret_cast<double*>(" + c.out_c_name + " + " + std::to_string(fused->stats_offset) + ")");
  }
  std::string bias;
  if (!c.bias_name.empty()) {
    members.push_back("  float const* bias;\n");
    values.push_back(c.bias_c_name);
    bias = " + bias[k]";
  }
  auto in = as_3d(c.in_size, 1), out = as_3d(c.out_size, 1), kernel = as_3d(c.kernel, 1);
  auto stride = as_3d(c.stride, 1), pad = as_3d(c.padding, 0), dil = as_3d(c.dilation, 1);
  std::vector<int64_t> shape = {c.batch, c.in_channels, c.out_channels, c.groups};  // ConvShape's order
  for (auto* v : {&in, &out, &kernel, &stride, &pad, &dil})
    shape.insert(shape.end(), v->begin(), v->end());
  shape.push_back(c.transposed ? 1 : 0);
  shape.push_back(p.strategy == Strategy::kConvImplicitGemm && conv_packs_w(c) ? 1 : 0);
  shape.push_back(0);  // pitch: ConvForward sets it for the GEMM over a padded copy's rows
  std::vector<std::string> shape_text;
  for (auto v : shape)
    shape_text.push_back(std::to_string(v));
  return render_instance("instances/conv.cu.in",
                         {{"title", kernel_title(r, p)},
                          {"members", join(members, "")},
                          {"reduction", fused ? "  " + fused->declaration() + "\n" : ""},
                          {"bias", bias},
                          {"loads", join(loads, "")},
                          {"expr", to_cuda(c.epilogue, leaves)},
                          {"header", strategy_def(p.strategy).header},
                          {"conv_type", conv_type(c, p, fused)},
                          {"signature", signature},
                          {"shape", join(shape_text, ", ")},
                          {"input", c.input.c_name},
                          {"weight", c.weight.c_name},
                          {"out", c.out_c_name},
                          {"member_values", join(values, ", ")},
                          {"namespace_open", ns.empty() ? "" : "namespace " + ns + " {\n"},
                          {"namespace_close", ns.empty() ? "" : "}  // namespace " + ns + "\n"}});
}

}  // namespace cutegen
