// The forward convolution's instance for recognized tasks (specs recorded from the bridge): which
// convolutions get a kernel, and that the emitted source carries the geometry, the tiles and the
// fused epilogue. The kernel itself is compiled by kernels.conv.SassShowsWgmmaTmaAndNoSpills.
#include <gtest/gtest.h>

#include "core/strings.h"
#include "cutegen_paths.h"
#include "expert/conv_recipe.h"
#include "expert/recognize.h"
#include "expert/templates.h"
#include "expert/test_support.h"

namespace cutegen {
namespace {

TaskSpec fixture(const std::string& relative) { return testing_support::recorded_spec("kernelbench/" + relative); }

// The recipe's default point with `changes` ("name=value,...") read over it.
Params point(const Recipe& r, const std::string& changes) {
  auto p = parse_params(changes, default_params(r));
  EXPECT_TRUE(p.ok()) << changes << ": " << p.message();
  return p.ok() ? *p : default_params(r);
}

// A recipe's implicit-GEMM point where its default is another template (level 2's 8 runs direct).
Params implicit_gemm(const Recipe& r, const std::string& changes = "") {
  return point(r, "strategy=conv_implicit_gemm,split_ahead=1" + (changes.empty() ? "" : "," + changes));
}

TEST(ConvInstance, ConvWithBiasAndPerChannelEpilogue) {
  auto spec = fixture("level2/1_Conv2D_ReLU_BiasAdd");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->kind, TemplateKind::kConv);
  auto p = default_params(*r);
  EXPECT_EQ(p.strategy, Strategy::kConvImplicitGemm);
  auto tiles = conv_tiles(*r->conv);  // output rows of 126: one row of 128 per tile
  EXPECT_EQ(tiles.tile_q, 128);
  EXPECT_EQ(tiles.tile_p, 1);
  EXPECT_EQ(tiles.tile_n, 128);
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "float x0 = acc + bias[k];")) << "conv.bias added before the epilogue";
  EXPECT_TRUE(contains(*cu, "float v1 = in1[int64_t(k) * 1];")) << "the [C, 1, 1] bias read per channel";
  EXPECT_TRUE(
      contains(*cu, "constexpr cutegen::conv::ConvShape shape{ 128, 64, 128, 1, 1, 128, 128, 1, 126, 126, 1, 3, 3,"));
  EXPECT_TRUE(contains(*cu, "ConvForward<Config, 1, 128, Epilogue>"));
  EXPECT_FALSE(contains(*cu, "#include \"conv/")) << "the library is inlined: one self-contained .cu";
}

TEST(ConvInstance, StridedOneDimensionalTilesStayWithinATmaBox) {
  auto r = recognize_conv(fixture("level1/76_conv_standard_1D_dilated_strided__"));
  ASSERT_TRUE(r.ok()) << r.message();
  auto tiles = conv_tiles(*r);  // stride 3: 64 columns span 192 input elements, 128 would span 384
  EXPECT_EQ(tiles.tile_q, 64);
  EXPECT_EQ(tiles.tile_p, 2);
  EXPECT_EQ(conv_unsupported(*r), "");
}

TEST(ConvInstance, PixelFitTakesNarrowerTilesWhereRowsPadMuch) {
  auto fit = [](const ConvRecipe& c, bool boxes = false) { return conv_tiles(c, false, nullptr, boxes, false, true); };
  // Level 2's 11: 34 x 34 outputs fill 53% of 64 x 2 tiles, 60% of 16 x 8 ones.
  auto eleven = recognize(fixture("level2/11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm"));
  ASSERT_TRUE(eleven.ok()) << eleven.message();
  EXPECT_EQ(conv_tiles(*eleven->conv).tile_q, 64);
  EXPECT_EQ(fit(*eleven->conv).tile_q, 16);
  EXPECT_EQ(fit(*eleven->conv).tile_p, 8);
  EXPECT_EQ(invalid_reason(*eleven, point(*eleven, "pixel_fit=1")), "");
  auto cu = generate_kernel(*eleven, fixture("level2/11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm"),
                            point(*eleven, "pixel_fit=1"));
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "ConvForward<Config, 8, 16, Epilogue")) << "TileP 8, TileQ 16";
  // Level 1's 69: rows of 260 pad to 384 in 128-wide tiles, to 272 in 16-wide ones; the pixel-major
  // boxes keep whole 32-column runs.
  auto sixty_nine = recognize(fixture("level1/69_conv_transposed_2D__asymmetric_input__asymmetric_kernel"));
  ASSERT_TRUE(sixty_nine.ok()) << sixty_nine.message();
  EXPECT_EQ(fit(*sixty_nine->conv).tile_q, 16);
  EXPECT_EQ(fit(*sixty_nine->conv, true).tile_q, 128);
  EXPECT_EQ(invalid_reason(*sixty_nine, point(*sixty_nine, "pixel_fit=1,input_boxes=1")),
            "pixel_fit: input_boxes takes whole 32-column runs");
  // Level 2's 1: rows of 126 fill 98% of 128-wide tiles.
  auto one = recognize(fixture("level2/1_Conv2D_ReLU_BiasAdd"));
  ASSERT_TRUE(one.ok()) << one.message();
  EXPECT_EQ(fit(*one->conv).tile_q, 128);
  EXPECT_EQ(invalid_reason(*one, point(*one, "pixel_fit=1")),
            "pixel_fit: the power of two past the output's row pads little here");
  // The default takes it where valid, ahead of ping-pong: level 1's 77 (stride 2, merged W phases, in
  // clusters of two) spilled as ping-pong over 8 x 16 tiles, so it runs them cooperative.
  EXPECT_EQ(default_params(*eleven).pixel_fit, 2) << "flat tiles, where valid, ahead of these";
  EXPECT_EQ(default_params(*one).pixel_fit, 0);
  auto strided =
      recognize(fixture("level1/77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__"));
  ASSERT_TRUE(strided.ok()) << strided.message();
  EXPECT_EQ(invalid_reason(*strided, point(*strided, "pixel_fit=1,cluster_m=2,pingpong=1")),
            "pixel_fit: a ping-pong tile over merged W phases in clusters of two spills its registers");
  EXPECT_EQ(default_params(*strided).pixel_fit, 1);
  EXPECT_EQ(default_params(*strided).pingpong, 0);
}

// Flat tiles over a padded copy's rows (pixel_fit=2): at H and W stride 1 (a transposed convolution's
// one phase), where they pad a tenth less of the slice than the 2-D tiles; the default there, over 2-D
// and 3-D kernels alike.
TEST(ConvInstance, FlatTilesWhereTheyPadLessAreTheDefault) {
  auto eleven = recognize(fixture("level2/11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm"));
  ASSERT_TRUE(eleven.ok()) << eleven.message();
  EXPECT_EQ(conv_flat_unsupported(*eleven->conv), "") << "34 x 34 at a pitch of 38: 82% against 60%";
  auto cu = generate_kernel(*eleven, fixture("level2/11_ConvTranspose2d_BatchNorm_Tanh_MaxPool_GroupNorm"),
                            point(*eleven, "pixel_fit=2"));
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "ConvForward<Config, 1, 128, Epilogue, false, 1, cutegen::conv::InputRead::kCopyFlat>"));
  EXPECT_EQ(default_params(*eleven).pixel_fit, 2);
  EXPECT_EQ(invalid_reason(*eleven, point(*eleven, "pixel_fit=2,input_boxes=1")),
            "pixel_fit=2 reads the input's padded copy");
  auto one = recognize(fixture("level2/1_Conv2D_ReLU_BiasAdd"));
  ASSERT_TRUE(one.ok()) << one.message();
  EXPECT_NE(conv_flat_unsupported(*one->conv), "") << "rows of 126 fill 98% of 128-wide tiles";
  auto strided =
      recognize(fixture("level1/77_conv_transposed_3D_square_input_square_kernel___padded____dilated____strided__"));
  ASSERT_TRUE(strided.ok()) << strided.message();
  EXPECT_EQ(
      conv_flat_unsupported(*strided->conv),
      "pixel_fit=2 numbers pixels along the copy's rows at H and W stride 1 (a transposed convolution: one phase)");
  auto seventy_seven = recognize(fixture("level2/77_ConvTranspose3d_Scale_BatchNorm_GlobalAvgPool"));
  ASSERT_TRUE(seventy_seven.ok()) << seventy_seven.message();
  EXPECT_EQ(default_params(*seventy_seven).pixel_fit, 2);
}

TEST(ConvInstance, FewOutputChannelsPerGroupTakeANarrowTile) {
  auto grouped = recognize_conv(  // 32 -> 32 channels in 4 groups: 8 per group, its 2 W phases merged
      fixture("level1/72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_"));
  ASSERT_TRUE(grouped.ok()) << grouped.message();
  EXPECT_EQ(conv_merge_w(*grouped), 2);
  EXPECT_EQ(conv_tiles(*grouped).tile_n, 16);
  auto sixteen = recognize(fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum"));
  ASSERT_TRUE(sixteen.ok() && sixteen->conv) << sixteen.message();
  EXPECT_EQ(conv_tiles(*sixteen->conv).tile_n, 16);
  auto many = recognize_conv(fixture("level1/76_conv_standard_1D_dilated_strided__"));  // 128 channels
  ASSERT_TRUE(many.ok()) << many.message();
  EXPECT_EQ(conv_tiles(*many).tile_n, 128);
}

TEST(ConvInstance, TransposedOfWStrideTwoMergesItsWPhases) {
  auto spec = fixture("level2/26_ConvTranspose3d_Add_HardSwish");  // stride 2, 32 -> 64 channels
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok() && r->conv) << r.message();
  EXPECT_EQ(conv_merge_w(*r->conv), 2);
  EXPECT_EQ(conv_tiles(*r->conv).tile_n, 128) << "64 channels x 2 W phases";
  auto cu = generate_kernel(*r, spec, default_params(*r));
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, ", Epilogue, false, 2>;"));
  EXPECT_TRUE(contains(*cu, "merged_phase_weight_kernel"));
}

TEST(ConvInstance, TransposedKeepsItsOwnGeometryAndTilesOneOutputPhase) {
  auto spec = fixture("level1/81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__");
  auto r = recognize(spec);  // stride 5, padding 1, dilation 2: 318 x 638 output in 25 phases
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->conv->transposed);
  EXPECT_EQ(conv_tiles(*r->conv).tile_q, 128) << "a phase's row: ceil(638 / 5) pixels";
  EXPECT_EQ(conv_merge_w(*r->conv), 1) << "W stride 5: phase by phase";
  auto cu = generate_kernel(*r, spec, implicit_gemm(*r));
  ASSERT_TRUE(cu.ok()) << cu.message();
  // The transposed convolution's own stride, padding and dilation; the kernel splits it into phases.
  EXPECT_TRUE(contains(*cu, ", 1, 5, 5, 0, 1, 1, 1, 2, 2, 1, 0, 0 };")) << cu->substr(cu->find("ConvShape shape"), 200);
  EXPECT_TRUE(contains(*cu, "phase_weight_kernel")) << "the per-phase weight block is inlined";
}

TEST(ConvInstance, DepthwiseHasItsOwnTemplate) {
  auto spec = fixture("level1/82_conv_depthwise_2D_square_input_square_kernel");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  auto p = default_params(*r);
  EXPECT_EQ(p.strategy, Strategy::kConvDepthwise);
  EXPECT_NE(invalid_reason(*r, Params{.strategy = Strategy::kConvImplicitGemm}), "")
      << "a depthwise recipe is not a GEMM's";
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "using Conv = cutegen::conv::DepthwiseConv<64, 4, 8, 3, 3, Epilogue>;"));
  EXPECT_TRUE(contains(*cu, "depthwise_conv_kernel")) << "the template is inlined";
}

TEST(ConvInstance, FewInputChannelsRun3xTf32WithTheirRowTapsPacked) {
  // Eager ran these in full fp32: TF32 misses the accuracy rule, 3xTF32 keeps fp32's. The copy packs
  // the S taps into the channels (ConvShape's last field).
  for (auto name : {"level1/66_conv_standard_3D__asymmetric_input__asymmetric_kernel",
                    "level1/50_conv_standard_2D__square_input__square_kernel",
                    "level2/82_Conv2d_Tanh_Scaling_BiasAdd_Max", "level2/21_Conv2d_Add_Scale_Sigmoid_GroupNorm"}) {
    auto spec = fixture(name);
    auto r = recognize(spec);
    ASSERT_TRUE(r.ok()) << name << ": " << r.message();
    const ConvRecipe& conv = *r->conv;
    EXPECT_EQ(conv.math, GemmMath::k3xTF32) << name;
    // (21's 72 channel-tap pairs run the tensor-core direct template by default: its implicit GEMM.)
    auto cu = generate_kernel(*r, spec, point(*r, "strategy=conv_implicit_gemm,split_ahead=1"));
    ASSERT_TRUE(cu.ok()) << cu.message();
    EXPECT_TRUE(contains(*cu, ", Epilogue, true>;")) << name << ": the split instance";
    EXPECT_TRUE(conv_packs_w(conv)) << name;
    EXPECT_TRUE(contains(*cu, ", 0, 1, 0 };")) << name << ": not transposed, packed";
  }
  auto wide = recognize_conv(fixture("level1/61_conv_transposed_3D__square_input__square_kernel"));
  ASSERT_TRUE(wide.ok()) << wide.message();
  EXPECT_EQ(wide->math, GemmMath::kTF32) << "transposed, as eager's TF32 ran it";
  EXPECT_FALSE(conv_packs_w(*wide));
  // Transposed over 3 input channels x 3 taps: direct (phase by phase), never packed.
  auto few = recognize(fixture("level2/50_ConvTranspose3d_Scaling_AvgPool_BiasAdd_Scaling"));
  ASSERT_TRUE(few.ok()) << few.message();
  EXPECT_EQ(few->conv->kind, ConvClass::kDirect);
  EXPECT_FALSE(conv_packs_w(*few->conv));
  // Stride 4 over 11 x 11: packed, the W dim has stride 1, so 64-wide tiles fit a TMA box.
  auto alex = recognize_conv(fixture("level1/50_conv_standard_2D__square_input__square_kernel"));
  ASSERT_TRUE(alex.ok()) << alex.message();
  EXPECT_EQ(conv_tiles(*alex).tile_q, 64);
}

TEST(ConvInstance, ChannelsTimesRowTapsFillingAtMostHalfAKTileRunDirect) {
  // 3 channels x 3 taps would be 9 of a k-tile's 32, tripled by 3xTF32: fp32 multiply-adds instead, or
  // (the default for a forward one over 33 to 192 channel-tap pairs) 3xTF32 over all of them at once on
  // the tensor cores.
  for (auto name :
       {"level2/24_Conv3d_Min_Softmax", "level2/23_Conv3d_GroupNorm_Mean",
        "level1/54_conv_standard_3D__square_input__square_kernel", "level2/27_Conv3d_HardSwish_GroupNorm_Mean",
        "level2/58_ConvTranspose3d_LogSumExp_HardSwish_Subtract_Clamp"}) {
    auto spec = fixture(name);
    auto r = recognize(spec);
    ASSERT_TRUE(r.ok()) << name << ": " << r.message();
    EXPECT_EQ(r->conv->kind, ConvClass::kDirect) << name;
    EXPECT_EQ(r->conv->math, GemmMath::kNative) << name << ": exact fp32";
    bool const transposed = r->conv->transposed;
    EXPECT_EQ(default_params(*r).strategy, transposed ? Strategy::kConvDirect : Strategy::kConvDirectMma) << name;
    auto cu = generate_kernel(*r, spec, point(*r, "strategy=conv_direct"));
    ASSERT_TRUE(cu.ok()) << name << ": " << cu.message();
    EXPECT_TRUE(contains(*cu, "direct_conv_kernel")) << name << ": the template is inlined";
    EXPECT_FALSE(contains(*cu, "gemm_kernel")) << name;
  }
  // 24 output channels in blocks of 8, 64 in blocks of 16; 30 output rows in tiles of 32; a forward
  // convolution's 3 x 3 taps of a row plane as constants (its tap loops unroll). Two columns a thread
  // (direct_cols=2, a 3-D one's default where the template is: measured faster): 30 columns as 16
  // threads of two, 8 rows of threads of four rows each (128 threads); one column a thread is in the
  // space too.
  auto spec = fixture("level2/24_Conv3d_Min_Softmax");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(
      default_params(*recognize(fixture("level2/58_ConvTranspose3d_LogSumExp_HardSwish_Subtract_Clamp"))).direct_cols,
      2);
  auto cu2 = generate_kernel(*r, spec, point(*r, "strategy=conv_direct,direct_cols=2"));
  ASSERT_TRUE(cu2.ok()) << cu2.message();
  EXPECT_TRUE(contains(*cu2, "using Conv = cutegen::conv::DirectConv<32, 32, 4, 8, Epilogue, 3, 3, 2>;"));
  Params one = point(*r, "strategy=conv_direct,direct_cols=1");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin() + 1, space.end(), one), space.end());
  auto cu = generate_kernel(*r, spec, one);
  ASSERT_TRUE(cu.ok());
  EXPECT_TRUE(contains(*cu, "using Conv = cutegen::conv::DirectConv<32, 32, 4, 8, Epilogue, 3, 3>;"));
  // 3 channels x 7 taps (21) and 8 x 3 (24) stay implicit GEMMs.
  for (auto name :
       {"level1/60_conv_standard_3D__square_input__asymmetric_kernel", "level2/82_Conv2d_Tanh_Scaling_BiasAdd_Max"}) {
    auto wide = recognize(fixture(name));
    ASSERT_TRUE(wide.ok()) << name << ": " << wide.message();
    EXPECT_EQ(wide->conv->kind, ConvClass::kImplicitGemm) << name;
  }
  // A patch past shared memory is declined with the reason.
  ConvRecipe dilated = *r->conv;
  dilated.dilation = {1, 40, 40};
  EXPECT_EQ(conv_unsupported(dilated), "the direct convolution's input patch exceeds shared memory");
  EXPECT_EQ(conv_unsupported(*r->conv), "");
}

TEST(ConvInstance, TheSearchFallsBackTo3xTf32WhereTf32MissesTheAccuracyRule) {
  // cuDNN ran some TF32-eligible shapes in full fp32 (level 2's 78): the space's later points.
  auto spec = fixture("level1/55_conv_standard_2D__asymmetric_input__square_kernel");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->conv->math, GemmMath::kTF32);
  auto space = search_space(*r);
  ASSERT_EQ(space.size(), 21u) << "TF32 (input copied, a row's taps sharing a box of it, loaded as pixel-major "
                                  "boxes, or gathered); 3xTF32 split in the kernel, or in the copies (two stages per "
                                  "k-tile crossed, or three); all but the split in the kernel also in clusters of two; "
                                  "each cooperative, TF32 also ping-pong (3xTF32's partial beside 128 channels' "
                                  "accumulators would spill)";
  EXPECT_EQ(space[0], default_params(*r));
  EXPECT_EQ(space[0].cluster_m, 2) << "a level-1 convolution's default: clusters of two";
  auto in_space = [&](const std::string& changes) {
    return std::find(space.begin(), space.end(), point(*r, changes)) != space.end();
  };
  EXPECT_EQ(space[0].row_box, 1) << "a level-1 convolution's default: a row's taps share a box";
  for (auto changes :
       {"cluster_m=1", "row_box=0", "row_box=0,cluster_m=1,input_boxes=1", "row_box=0,cluster_m=1,gather_input=1",
        "row_box=0,cluster_m=1,tf32x3=1,split_ahead=0,pingpong=0",
        "row_box=0,cluster_m=1,tf32x3=1,split_parts=2,pingpong=0", "row_box=0,tf32x3=1,split_parts=2,pingpong=0",
        "row_box=0,input_boxes=1", "row_box=0,gather_input=1", "row_box=0,tf32x3=1,pingpong=0"})
    EXPECT_TRUE(in_space(changes)) << changes;
  Params const x3 = point(*r, "cluster_m=1,tf32x3=1,pingpong=0,row_box=0");
  EXPECT_TRUE(contains(to_string(x3),
                       "split_ahead=1,split_parts=3,tf32x3=1,tf32x1=0,tma_store=0,gather_input=0,input_boxes=0,"
                       "fuse_stage=0,pingpong=0,pixel_fit=0,row_box=0,strategy=conv_implicit_gemm"))
      << to_string(x3);
  auto back = parse_params(to_string(x3));
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(*back, x3);
  auto tf32 = generate_kernel(*r, spec, space[0]);
  auto split = generate_kernel(*r, spec, x3);
  ASSERT_TRUE(tf32.ok() && split.ok());
  EXPECT_FALSE(contains(*tf32, ", Epilogue, true>;"));
  EXPECT_TRUE(contains(*split, ", Epilogue, true>;"));
  // Where the recipe already runs 3xTF32 the point would repeat the default.
  auto few = recognize(fixture("level1/66_conv_standard_3D__asymmetric_input__asymmetric_kernel"));
  ASSERT_TRUE(few.ok()) << few.message();
  EXPECT_EQ(invalid_reason(*few, point(*few, "tf32x3=1")), "tf32x3 applies where the recipe runs TF32");
  EXPECT_EQ(search_space(*few).size(), 20u) << "split in the copies (the default, or crossed; each also in clusters "
                                               "of two), or in the kernel; each cooperative or ping-pong; direct, one "
                                               "or two columns a thread; plain TF32 (tf32x1), where eager ran TF32";
}

TEST(ConvInstance, ThreeXTf32ConvolutionsOverFewChannelsMayRunDirect) {
  // 8 channels x 3 taps fill 24 of a k-tile's 32: the direct template serves it too, its patch in chunks
  // of channels, and is the default over at most 16 output channels (8: measured 1.9x faster; 7's 32
  // output channels slower), the implicit GEMM a later point; 3 channels x 11 taps (level 1's 50: 33)
  // stay implicit GEMMs only.
  auto spec = fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->conv->kind, ConvClass::kImplicitGemm);
  ASSERT_EQ(r->conv->math, GemmMath::k3xTF32);
  auto space = search_space(*r);
  auto direct = parse_params("strategy=conv_direct,direct_cols=2");
  ASSERT_TRUE(direct.ok()) << direct.message();
  EXPECT_EQ(space[0], *direct);
  EXPECT_NE(std::find(space.begin(), space.end(), implicit_gemm(*r)), space.end());
  auto seven = recognize(fixture("level2/7_Conv3d_ReLU_LeakyReLU_GELU_Sigmoid_BiasAdd"));
  ASSERT_TRUE(seven.ok()) << seven.message();
  EXPECT_EQ(default_params(*seven).strategy, Strategy::kConvImplicitGemm) << "32 output channels";
  auto cu = generate_kernel(*r, spec, *direct);
  ASSERT_TRUE(cu.ok()) << cu.message();
  // 62 columns as 32 threads of two, 16 rows; 16 output channels a thread; the input read as it is.
  EXPECT_TRUE(contains(*cu, "using Conv = cutegen::conv::DirectConv<16, 64, 4, 16, Epilogue, 3, 3, 2>;"));
  EXPECT_TRUE(contains(*cu, ", 1, 0, 0, 0 };")) << "no row packing for the direct template";
  auto wide = recognize(fixture("level1/50_conv_standard_2D__square_input__square_kernel"));
  ASSERT_TRUE(wide.ok()) << wide.message();
  ASSERT_EQ(wide->conv->math, GemmMath::k3xTF32);
  for (auto& p : search_space(*wide))
    EXPECT_NE(p.strategy, Strategy::kConvDirect);
}

TEST(ConvInstance, DirectConvolutionsMayRunOnTheTensorCores) {
  // The forward convolutions the direct template serves are points of the tensor-core direct one too:
  // K = the group's channels x taps in k-blocks of 8 (3 x 27 = 81 of 88; 8 x 27 = 216), output
  // channels in blocks of at most 64 (24 -> 24; 64 -> 64), 128 output pixels a CTA as rows of 32.
  // At 256 pixels a CTA: rows of 32, eight of them; in plain TF32 (one product) over a 3xTF32 recipe.
  struct Case {
    const char* name;
    const char* params;
    const char* type;
  };
  for (auto c :
       {Case{"level1/54_conv_standard_3D__square_input__square_kernel", "strategy=conv_direct_mma",
             "DirectMmaConv<4, 32, 64, 11, Epilogue>"},
        Case{"level2/24_Conv3d_Min_Softmax", "strategy=conv_direct_mma", "DirectMmaConv<4, 32, 24, 11, Epilogue>"},
        Case{"level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum", "strategy=conv_direct_mma",
             "DirectMmaConv<4, 32, 16, 27, Epilogue>"},
        Case{"level1/54_conv_standard_3D__square_input__square_kernel", "strategy=conv_direct_mma,mma_pixels=256",
             "DirectMmaConv<8, 32, 64, 11, Epilogue>"},
        Case{"level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum", "strategy=conv_direct_mma,tf32x1=1",
             "DirectMmaConv<4, 32, 16, 27, Epilogue, 0, 1>"}}) {
    auto spec = fixture(c.name);
    auto r = recognize(spec);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.message();
    Params mma = point(*r, c.params);
    EXPECT_EQ(invalid_reason(*r, mma), "") << c.name << " " << c.params;
    auto space = search_space(*r);
    EXPECT_NE(std::find(space.begin(), space.end(), mma), space.end()) << c.name << " " << c.params;
    auto cu = generate_kernel(*r, spec, mma);
    ASSERT_TRUE(cu.ok()) << c.name << ": " << cu.message();
    EXPECT_TRUE(contains(*cu, std::string("using Conv = cutegen::conv::") + c.type + ";")) << c.name << " " << c.params;
    EXPECT_TRUE(contains(*cu, "direct_mma_kernel")) << c.name << ": the template is inlined";
  }
  // Not plain TF32 over a native recipe (level 2's 48, 3 channels): there eager ran fp32.
  auto native = recognize(fixture("level2/48_Conv3d_Scaling_Tanh_Multiply_Sigmoid"));
  ASSERT_TRUE(native.ok()) << native.message();
  EXPECT_EQ(invalid_reason(*native, point(*native, "strategy=conv_direct_mma,tf32x1=1")),
            "tf32x1 applies where the recipe runs 3xTF32");
  // A chain's first stage fused into its epilogue: a group norm's statistics (level 2's 23), not a min
  // over part of the pixels (24).
  auto norm_spec = fixture("level2/23_Conv3d_GroupNorm_Mean");
  auto norm = recognize(norm_spec);
  ASSERT_TRUE(norm.ok()) << norm.message();
  Params fused = point(*norm, "strategy=conv_direct_mma,fuse_stage=1");
  EXPECT_EQ(invalid_reason(*norm, fused), "");
  auto norm_cu = generate_kernel(*norm, norm_spec, fused);
  ASSERT_TRUE(norm_cu.ok()) << norm_cu.message();
  EXPECT_TRUE(contains(*norm_cu, "FusedReduction<cutegen::conv::ReduceDims::kStats"));
  EXPECT_TRUE(contains(*norm_cu, "norm_stats_stage<"));
  auto min = recognize(fixture("level2/24_Conv3d_Min_Softmax"));
  ASSERT_TRUE(min.ok()) << min.message();
  EXPECT_EQ(invalid_reason(*min, point(*min, "strategy=conv_direct_mma,fuse_stage=1")),
            "fuse_stage: the first stage reduces neither all the pixels nor all the channels");
  // The default over 33 to 192 (channel, tap) pairs a group, its first stage fused where it takes it (23's
  // norm, not 24's min); over 216 (level 2's 8) the direct template stays; where the implicit GEMM fuses
  // a pool it does not take (level 2's 65), the implicit GEMM stays.
  EXPECT_EQ(default_params(*norm), fused);
  EXPECT_EQ(default_params(*min), point(*min, "strategy=conv_direct_mma"));
  EXPECT_EQ(default_params(*recognize(fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum"))).strategy,
            Strategy::kConvDirect);
  Params pool = default_params(*recognize(fixture("level2/65_Conv2d_AvgPool_Sigmoid_Sum")));
  EXPECT_EQ(pool.strategy, Strategy::kConvImplicitGemm);
  EXPECT_EQ(pool.fuse_stage, 1);
  // Transposed convolutions run phase by phase on the other templates only.
  auto transposed = recognize(fixture("level2/58_ConvTranspose3d_LogSumExp_HardSwish_Subtract_Clamp"));
  ASSERT_TRUE(transposed.ok()) << transposed.message();
  for (auto& p : search_space(*transposed))
    EXPECT_NE(p.strategy, Strategy::kConvDirectMma);
}

TEST(ConvInstance, ATf32ConvolutionMayGatherItsChannelsFirstInputInsteadOfCopyingIt) {
  auto spec = fixture("level1/87_conv_pointwise_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->conv->math, GemmMath::kTF32);
  // Its single tap: gathered (measured faster than the copy; with more taps, slower), a point beside
  // the default's pixel-major boxes.
  Params p = point(*r, "gather_input=1,input_boxes=0");
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), p), space.end());
  auto taps = recognize(fixture("level1/63_conv_standard_2D__square_input__square_kernel"));
  ASSERT_TRUE(taps.ok()) << taps.message();
  EXPECT_EQ(default_params(*taps).gather_input, 0);
  auto gathered = generate_kernel(*r, spec, p);
  ASSERT_TRUE(gathered.ok()) << gathered.message();
  EXPECT_TRUE(contains(*gathered, ", Epilogue, false, 1, cutegen::conv::InputRead::kGather>;")) << *gathered;
  // TF32 only: the 3xTF32 forms read split parts of a copy.
  p.tf32x3 = 1;
  EXPECT_EQ(invalid_reason(*r, p), "gather_input applies where the convolution runs TF32");
  auto packed = recognize(fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum"));
  ASSERT_TRUE(packed.ok()) << packed.message();
  EXPECT_EQ(invalid_reason(*packed, implicit_gemm(*packed, "gather_input=1")),
            "gather_input applies where the convolution runs TF32");
  // A transposed convolution with its W phases merged keeps its merge factor.
  auto merged_spec = fixture("level2/26_ConvTranspose3d_Add_HardSwish");
  auto merged = recognize(merged_spec);
  ASSERT_TRUE(merged.ok()) << merged.message();
  Params m = point(*merged, "gather_input=1");
  ASSERT_EQ(invalid_reason(*merged, m), "");
  auto merged_kernel = generate_kernel(*merged, merged_spec, m);
  ASSERT_TRUE(merged_kernel.ok()) << merged_kernel.message();
  EXPECT_TRUE(contains(*merged_kernel, ", Epilogue, false, 2, cutegen::conv::InputRead::kGather>;")) << *merged_kernel;
}

TEST(ConvInstance, ATf32ConvolutionMayLoadItsChannelsFirstInputAsPixelMajorBoxes) {
  // Level 1's 87 (1 x 1, 64 -> 128 channels over 1024 x 1024): no copy of the input; TMA boxes of 32
  // (40) columns, four per k-tile of its 1 x 128 pixel tiles, in clusters of two; the default
  // (measured beside the gather).
  auto spec = fixture("level1/87_conv_pointwise_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  Params p = default_params(*r);
  EXPECT_EQ(p.input_boxes, 1);
  EXPECT_EQ(p.gather_input, 0);
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), point(*r, "gather_input=1,input_boxes=0")), space.end());
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu,
                       "ColMajor, 128, 128, 5, 2>;\nusing Conv = cutegen::conv::ConvForward<Config, 1, 128, "
                       "Epilogue, false, 1, cutegen::conv::InputRead::kBoxes>;"))
      << *cu;
  // Level 1's 63 (16 -> 128 channels, 3 x 3): two taps of 16 channels a k-tile, a search point; its
  // taps' boxes start at aligned columns, the consumers reading on from there.
  auto taps_spec = fixture("level1/63_conv_standard_2D__square_input__square_kernel");
  auto taps = recognize(taps_spec);
  ASSERT_TRUE(taps.ok()) << taps.message();
  Params pairs = point(*taps, "input_boxes=1");
  EXPECT_EQ(invalid_reason(*taps, pairs), "");
  auto taps_space = search_space(*taps);
  EXPECT_NE(std::find(taps_space.begin(), taps_space.end(), pairs), taps_space.end());
  auto pairs_cu = generate_kernel(*taps, taps_spec, pairs);
  ASSERT_TRUE(pairs_cu.ok()) << pairs_cu.message();
  EXPECT_TRUE(contains(*pairs_cu, "Epilogue, false, 1, cutegen::conv::InputRead::kBoxPairs>;")) << *pairs_cu;
  // Rows narrower than a box still take 32-column tiles.
  auto narrow = std::make_shared<ConvRecipe>(*r->conv);
  narrow->in_size = {16, 16}, narrow->out_size = {16, 16};
  EXPECT_EQ(conv_tiles(*narrow).tile_q, 16);
  EXPECT_EQ(conv_tiles(*narrow, false, nullptr, true).tile_q, 32);
  EXPECT_EQ(conv_tiles(*narrow, false, nullptr, true).tile_p, 4);
  // TMA has no traversal stride in a box's innermost dim (76's W stride 3 hung on the GPU), and rows
  // not of 16-byte multiples cannot be its strides.
  auto strided = recognize(fixture("level1/76_conv_standard_1D_dilated_strided__"));
  ASSERT_TRUE(strided.ok()) << strided.message();
  EXPECT_EQ(invalid_reason(*strided, point(*strided, "input_boxes=1")),
            "input_boxes takes a W stride of 1 (TMA's innermost dim has no traversal stride)");
  EXPECT_EQ(conv_tiles(*strided->conv).tile_q, 64);
  EXPECT_EQ(conv_tiles(*strided->conv, false, nullptr, true).tile_q, 128);
  auto odd = std::make_shared<ConvRecipe>(*r->conv);
  odd->in_size = {1024, 1022}, odd->out_size = {1024, 1022};
  EXPECT_EQ(conv_boxes_unsupported(*odd, false),
            "input_boxes needs the input's W a multiple of 4 (TMA's 16-byte strides)");
  // TF32 only, one way of reading the input at a time, not under a fused pool's narrow tiles.
  auto packed = recognize(fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum"));
  ASSERT_TRUE(packed.ok()) << packed.message();
  EXPECT_EQ(invalid_reason(*packed, implicit_gemm(*packed, "input_boxes=1")),
            "input_boxes applies where the convolution runs TF32");
  EXPECT_EQ(invalid_reason(*r, point(*r, "input_boxes=1,gather_input=1")),
            "input_boxes and gather_input are two ways to read the input: one at a time");
  auto pooled = recognize(fixture("level2/35_Conv2d_Subtract_HardSwish_MaxPool_Mish"));
  ASSERT_TRUE(pooled.ok()) << pooled.message();
  auto one_tap = std::make_shared<ConvRecipe>(*pooled->conv);  // as if its kernel were 1 x 1
  one_tap->kernel = {1, 1};
  Recipe pooled_one_tap = *pooled;
  pooled_one_tap.conv = one_tap;
  EXPECT_EQ(invalid_reason(pooled_one_tap, point(pooled_one_tap, "fuse_stage=1,gather_input=0,input_boxes=1")),
            "input_boxes takes 32-column pixel tiles, a fused pool narrower ones");
}

TEST(ConvInstance, TransposedConvolutionsOfOneTapPerDimMayGatherEachOutputPixel) {
  // Level 1's 81 (stride 5, 3 taps at dilation 2: each output pixel has at most one tap per dim): all
  // 25 phases in one pass, 16 output channels a thread; the default, the phases' GEMMs a search point.
  auto spec = fixture("level1/81_conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(conv_gather_serves(*r->conv));
  auto gather = parse_params("strategy=conv_transposed_gather");
  ASSERT_TRUE(gather.ok()) << gather.message();
  EXPECT_EQ(default_params(*r), *gather);
  auto space = search_space(*r);
  Params const phases = implicit_gemm(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), phases), space.end());
  auto cu = generate_kernel(*r, spec, *gather);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "transposed_gather_kernel(")) << "its header inlined";
  EXPECT_TRUE(contains(*cu, "using Conv = cutegen::conv::TransposedGatherConv<128, 16, Epilogue>;")) << *cu;
  // Taps that share a residue of the stride (level 1's 61: stride 1, and 77: stride 2 at dilation 2)
  // are the phases' GEMMs' alone.
  for (auto name : {"level1/61_conv_transposed_3D__square_input__square_kernel",
                    "level1/72_conv_transposed_3D_asymmetric_input_asymmetric_kernel___strided_padded_grouped_"}) {
    auto other = recognize(fixture(name));
    ASSERT_TRUE(other.ok()) << other.message();
    EXPECT_FALSE(conv_gather_serves(*other->conv)) << name;
    EXPECT_EQ(invalid_reason(*other, *gather), "strategy conv_transposed_gather does not compute this recipe");
  }
}

TEST(ConvInstance, ClustersOfTwoShareTheWeightTileByMulticast) {
  // Level 1's 87 (128 output channels: 128-wide N tiles), gathered and in clusters of two along M.
  auto spec = fixture("level1/87_conv_pointwise_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  Params p = point(*r, "cluster_m=2,gather_input=1,input_boxes=0");
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), p), space.end());
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "cutegen::gemm::ColMajor, 128, 128, 6, 2>;")) << *cu;
  // An 8-wide N tile (8 output channels) cannot be halved into whole swizzle atoms; the split in
  // shared memory keeps one CTA.
  auto eight = std::make_shared<ConvRecipe>(*r->conv);
  eight->out_channels = 8;
  Recipe narrow = *r;
  narrow.conv = eight;
  ASSERT_EQ(conv_tiles(*eight).tile_n, 8);
  EXPECT_EQ(invalid_reason(narrow, point(narrow, "cluster_m=2")),
            "cluster_m: each CTA's share of the N tile must be whole 8-row swizzle atoms");
  EXPECT_EQ(invalid_reason(*r, point(*r, "cluster_m=2,tf32x3=1,split_ahead=0,gather_input=0,input_boxes=0")),
            "cluster_m applies to convolutions whose k-tiles are not split in shared memory");
}

TEST(ConvInstance, PingPongGivesEachConsumerWarpgroupTilesOfItsOwn) {
  auto spec = fixture("level1/87_conv_pointwise_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  Params p = point(*r, "pingpong=1");
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), p), space.end());
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu, "cutegen::gemm::ColMajor, 128, 128, 5, 2, 1, 1>;")) << *cu;  // one warpgroup a tile
  auto one = generate_kernel(*r, spec, point(*r, "pingpong=1,cluster_m=1"));
  ASSERT_TRUE(one.ok()) << one.message();
  EXPECT_TRUE(contains(*one, "cutegen::gemm::ColMajor, 128, 128, 5, 1, 1, 1>;")) << *one;
  // The default over a level-1 convolution's copied input; not over boxes (87), nor under a chain.
  EXPECT_EQ(default_params(*r).pingpong, 0);
  auto copied = recognize(fixture("level1/55_conv_standard_2D__asymmetric_input__square_kernel"));
  ASSERT_TRUE(copied.ok()) << copied.message();
  EXPECT_EQ(default_params(*copied).pingpong, 1);
  auto chained = recognize(fixture("level2/1_Conv2D_ReLU_BiasAdd"));
  ASSERT_TRUE(chained.ok()) << chained.message();
  EXPECT_EQ(default_params(*chained).pingpong, 0);
  auto one_d = recognize(fixture("level1/76_conv_standard_1D_dilated_strided__"));
  ASSERT_TRUE(one_d.ok()) << one_d.message();
  EXPECT_EQ(default_params(*one_d).pingpong, 0) << "1-D: measured slower";
  // A fused stage's epilogue sums a tile's rows over both warpgroups.
  auto pooled = recognize(fixture("level2/35_Conv2d_Subtract_HardSwish_MaxPool_Mish"));
  ASSERT_TRUE(pooled.ok()) << pooled.message();
  EXPECT_EQ(invalid_reason(*pooled, point(*pooled, "fuse_stage=1")), "");
  EXPECT_EQ(invalid_reason(*pooled, point(*pooled, "fuse_stage=1,pingpong=1")),
            "pingpong: a fused stage's epilogue reduces a tile over both warpgroups");
  // 3xTF32 over 96 channels (level 1's 50): one warpgroup's 128 x 96 accumulators and their partial spill.
  auto wide = recognize(fixture("level1/50_conv_standard_2D__square_input__square_kernel"));
  ASSERT_TRUE(wide.ok()) << wide.message();
  EXPECT_EQ(conv_tiles(*wide->conv).tile_n, 96);
  EXPECT_EQ(default_params(*wide).pingpong, 0);
  EXPECT_EQ(invalid_reason(*wide, point(*wide, "pingpong=1")),
            "pingpong: a 3xTF32 tile over more than 64 channels holds more than one warpgroup's registers");
}

TEST(ConvInstance, ARowsTapsMayShareOneBoxOfTheCopiedInput) {
  // Level 2's 4: 3 x 3 over 64 channels, output rows of 254 (one row of 128 a tile), 128 channels.
  auto spec = fixture("level2/4_Conv2d_Mish_Mish");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(default_params(*r).row_box, 0) << "a chain storing 128 channels whole: 3.5% slower (H200, 2026-12-07)";
  Params p = point(*r, "row_box=1");
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), p), space.end());
  EXPECT_EQ(conv_row_box_rows(*r->conv), 136);  // 128 pixels and 2 further taps, whole 8-row atoms
  // A stage: 136 rows and three 128-row weight tiles, 65 KB: three in 216 KB.
  EXPECT_EQ(conv_tiles(*r->conv, false, nullptr, false, false, false, true).stages, 3);
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(contains(*cu,
                       "ColMajor, 128, 128, 3>;\nusing Conv = cutegen::conv::ConvForward<Config, 1, 128, Epilogue, "
                       "false, 1, cutegen::conv::InputRead::kCopy, false, 3, 136>;"))
      << *cu;
  // Level 1's 80: 9 taps 3 apart along W, 128 + 24 columns.
  auto dilated = recognize(fixture("level1/80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__"));
  ASSERT_TRUE(dilated.ok()) << dilated.message();
  Params q = point(*dilated, "row_box=1");
  EXPECT_EQ(invalid_reason(*dilated, q), "");
  EXPECT_EQ(conv_row_box_rows(*dilated->conv), 152);
  EXPECT_EQ(conv_tiles(*dilated->conv, false, nullptr, false, false, false, true).stages, 2) << "152 + 9 x 64 rows";
  auto nine = generate_kernel(
      *dilated, fixture("level1/80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__"), q);
  ASSERT_TRUE(nine.ok()) << nine.message();
  EXPECT_TRUE(contains(*nine, "InputRead::kCopy, false, 9, 152>;")) << *nine;
  // The default for level 1's (55, 62, 80 measured faster) and under chains on 64-wide N tiles (25, 54)
  // or whose output a fused reduction shrinks (32).
  auto min_over_channels = recognize(fixture("level2/32_Conv2d_Scaling_Min"));
  ASSERT_TRUE(min_over_channels.ok()) << min_over_channels.message();
  EXPECT_EQ(default_params(*min_over_channels).row_box, 1);
  auto narrow = recognize(fixture("level2/25_Conv2d_Min_Tanh_Tanh"));
  ASSERT_TRUE(narrow.ok()) << narrow.message();
  EXPECT_EQ(default_params(*narrow).row_box, 1);
  // A transposed convolution of W stride 1 (level 1's 78, 3 x 7): each phase holds a row's 7 taps. A
  // search point only (not measured); of W stride 2 (79) the phases differ in their W taps.
  auto transposed = recognize(fixture("level1/78_conv_transposed_2D_asymmetric_input_asymmetric_kernel___padded__"));
  ASSERT_TRUE(transposed.ok()) << transposed.message();
  EXPECT_EQ(invalid_reason(*transposed, point(*transposed, "row_box=1")), "");
  EXPECT_EQ(default_params(*transposed).row_box, 0);
  auto strided_phases = recognize(
      fixture("level1/79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__"));
  ASSERT_TRUE(strided_phases.ok()) << strided_phases.message();
  EXPECT_EQ(invalid_reason(*strided_phases, point(*strided_phases, "row_box=1")),
            "row_box: a transposed convolution's W phases differ in their taps");
  // Where it does not apply: one tap a row, a W stride, the input read as it is, a fused pool's tiles.
  auto one_tap = recognize(fixture("level1/87_conv_pointwise_2D"));
  ASSERT_TRUE(one_tap.ok()) << one_tap.message();
  EXPECT_EQ(invalid_reason(*one_tap, point(*one_tap, "row_box=1,input_boxes=0")),
            "row_box shares a box among a kernel row's taps: one tap a row here");
  auto strided = recognize(fixture("level1/76_conv_standard_1D_dilated_strided__"));
  ASSERT_TRUE(strided.ok()) << strided.message();
  EXPECT_EQ(invalid_reason(*strided, point(*strided, "row_box=1")),
            "row_box takes a W stride of 1 (a tap's pixels one column further)");
  EXPECT_EQ(invalid_reason(*r, point(*r, "row_box=1,input_boxes=1")), "row_box reads the input's copy");
  auto pooled = recognize(fixture("level2/35_Conv2d_Subtract_HardSwish_MaxPool_Mish"));
  ASSERT_TRUE(pooled.ok()) << pooled.message();
  EXPECT_EQ(invalid_reason(*pooled, point(*pooled, "fuse_stage=1,row_box=1")),
            "row_box takes pixel tiles of one output row, a fused pool narrower ones");
  auto few = recognize(fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum"));
  ASSERT_TRUE(few.ok()) << few.message();
  EXPECT_EQ(invalid_reason(*few, implicit_gemm(*few, "row_box=1")), "row_box applies where the convolution runs TF32");
}

// Over flat tiles (pixel_fit=2) a row of taps lies a pitch further along the padded copy's one row, so
// a kernel row's S taps share a box there too: level 1's 71 (transposed, stride 1, 3 x 3 over 32
// channels; rows of 1026 that 1 x 128 tiles fill 89%). A search point (not yet measured).
TEST(ConvInstance, FlatTilesMayShareOneBoxAKernelRow) {
  auto spec = fixture("level1/71_conv_transposed_2D__asymmetric_input__square_kernel");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  Params const flat = default_params(*r);
  ASSERT_EQ(flat.pixel_fit, 2);
  EXPECT_EQ(flat.row_box, 0);
  Params const p = point(*r, "row_box=1");
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), p), space.end());
  // A stage: 136 rows and three 32-row weight tiles, 29 KB: seven in 216 KB.
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  EXPECT_TRUE(
      contains(*cu,
               "ColMajor, 128, 32, 7, 2, 1, 1>;\nusing Conv = cutegen::conv::ConvForward<Config, 1, 128, Epilogue, "
               "false, 1, cutegen::conv::InputRead::kCopyFlat, false, 3, 136>;"))
      << *cu;
  EXPECT_EQ(invalid_reason(*r, point(*r, "row_box=1,pixel_fit=1")),
            "row_box takes pixel tiles of one output row, pixel_fit=1 narrower ones");
}

TEST(ConvInstance, TheOutputMayBeStoredByTmaInWholeRowsOfPixels) {
  auto spec = fixture("level1/87_conv_pointwise_2D");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(default_params(*r).tma_store, 0) << "measured even (2026-12-06c call5)";
  Params p = point(*r, "tma_store=2");
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto space = search_space(*r);
  EXPECT_NE(std::find(space.begin(), space.end(), p), space.end());
  auto cu = generate_kernel(*r, spec, p);
  ASSERT_TRUE(cu.ok()) << cu.message();
  // 32 KB of staging off the stages: 4 of 40 KB boxes instead of 5.
  EXPECT_TRUE(contains(*cu,
                       "ColMajor, 128, 128, 4, 2>;\nusing Conv = cutegen::conv::ConvForward<Config, 1, 128, Epilogue, "
                       "false, 1, cutegen::conv::InputRead::kBoxes, true>;"))
      << *cu;
  EXPECT_EQ(invalid_reason(*r, point(*r, "tma_store=3")),
            "a convolution's TMA store takes two staging buffers a warpgroup (tma_store=2)");
  // 55's output rows, 1022 wide, are not 16-byte strides.
  auto odd = recognize(fixture("level1/55_conv_standard_2D__asymmetric_input__square_kernel"));
  ASSERT_TRUE(odd.ok()) << odd.message();
  EXPECT_EQ(invalid_reason(*odd, point(*odd, "tma_store=2")),
            "tma_store needs the output's W a multiple of 4 (TMA's 16-byte strides)");
  auto pooled = recognize(fixture("level2/35_Conv2d_Subtract_HardSwish_MaxPool_Mish"));
  ASSERT_TRUE(pooled.ok()) << pooled.message();
  EXPECT_EQ(invalid_reason(*pooled, point(*pooled, "fuse_stage=1,tma_store=2")),
            "tma_store: a fused stage's epilogue writes reduced values");
}

TEST(ConvInstance, ThreeXTf32SplitInTheKernelTakesAnFp32ConfigWithRoomForItsLoParts) {
  // Level 2's 8: 16 output channels, 3xTF32 over 8 input channels with the row taps packed.
  auto spec = fixture("level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum");
  auto r = recognize(spec);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->conv->math, GemmMath::k3xTF32);
  Params p = implicit_gemm(*r);
  auto ahead = generate_kernel(*r, spec, p);
  p.split_ahead = 0;
  EXPECT_EQ(invalid_reason(*r, p), "");
  auto in_kernel = generate_kernel(*r, spec, p);
  ASSERT_TRUE(ahead.ok() && in_kernel.ok());
  EXPECT_TRUE(contains(*ahead, "GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float,"));
  EXPECT_TRUE(contains(*ahead, "cutegen::gemm::ColMajor, 128, 16, 8>;"));
  EXPECT_TRUE(contains(*in_kernel, "GemmConfig<float, float, float,"));
  EXPECT_TRUE(contains(*in_kernel, "cutegen::gemm::ColMajor, 128, 16, 8>;")) << "8 stages and the lo parts fit";
  EXPECT_TRUE(contains(*in_kernel, ", Epilogue, true>;"));
  // Split in the copies, two stages per (tap, channel tile), crossed: the paired Config.
  Params paired = implicit_gemm(*r, "split_parts=2");
  EXPECT_EQ(invalid_reason(*r, paired), "");
  auto crossed = generate_kernel(*r, spec, paired);
  ASSERT_TRUE(crossed.ok()) << crossed.message();
  EXPECT_TRUE(contains(*crossed, "cutegen::gemm::ColMajor, 128, 16, 8, 1, 1, 2, 1, 0, 2>;")) << *crossed;
  EXPECT_TRUE(contains(*crossed, ", Epilogue, true>;"));
  p.split_parts = 2;
  EXPECT_EQ(invalid_reason(*r, p), "split_parts applies to a 3xTF32 convolution split in its copies (split_ahead=1)");
  p.split_parts = 1;
  EXPECT_EQ(invalid_reason(*r, p), "split_parts=1 (one product) applies to GEMMs with the register split");
  p.split_parts = 3;
  p.split_ahead = 2;
  EXPECT_EQ(invalid_reason(*r, p), "a convolution's 3xTF32 splits in the kernel (split_ahead=0) or in its copies (1)");
  // 128-wide tiles: 6 stages of 32 KB split ahead, 4 beside the two lo buffers in the kernel.
  auto spec55 = fixture("level1/55_conv_standard_2D__asymmetric_input__square_kernel");
  auto tf32 = recognize(spec55);
  ASSERT_TRUE(tf32.ok());
  Params q = point(*tf32, "cluster_m=1,pingpong=0,row_box=0");
  q.split_ahead = 0;
  EXPECT_EQ(invalid_reason(*tf32, q), "split_ahead=0 applies where the convolution runs 3xTF32");
  q.tf32x3 = 1;
  auto wide = generate_kernel(*tf32, spec55, q);
  ASSERT_TRUE(wide.ok()) << wide.message();
  EXPECT_TRUE(contains(*wide, "GemmConfig<float, float, float,"));
  EXPECT_TRUE(contains(*wide, "cutegen::gemm::ColMajor, 128, 128, 4>;"));
}

TEST(ConvInstance, WhatHasNoKernelYetIsDeclinedWithTheReason) {
  // Every KernelBench convolution has a kernel now; the limits left, on recorded recipes changed.
  auto strided = recognize_conv(fixture("level1/76_conv_standard_1D_dilated_strided__"));
  ASSERT_TRUE(strided.ok()) << strided.message();
  ConvRecipe wide = *strided;
  wide.stride = {300};  // one output column's input already spans more than a TMA box
  EXPECT_EQ(conv_unsupported(wide), "the stride exceeds a TMA box's 256 elements");
  ConvRecipe half = *strided;
  half.input.dtype = DType::kFloat16;
  EXPECT_EQ(conv_unsupported(half), "only float32 convolutions have a kernel yet");
  auto depthwise = recognize_conv(fixture("level1/82_conv_depthwise_2D_square_input_square_kernel"));
  ASSERT_TRUE(depthwise.ok()) << depthwise.message();
  ConvRecipe deep = *depthwise;
  deep.dims = 3;
  EXPECT_EQ(conv_unsupported(deep), "3-D depthwise convolutions have no kernel yet");
}

}  // namespace
}  // namespace cutegen
