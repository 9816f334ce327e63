// The convolution's TMA-store epilogue's staging (nchw_staging.cuh), on the host: each box is TMA's 128-byte
// swizzle of a dense (32 pixels, 32 channels) box (CuTe's Swizzle<3, 4, 3> on the byte address),
// every (pixel, channel) of a 64-row block has its own offset, and a warp's store of one accumulator
// register (8 pixels x 4 channels of a wgmma fragment) meets each of the 32 banks once.
#include "nchw_staging.cuh"

#include <gtest/gtest.h>

#include <set>

#include <cute/swizzle.hpp>

namespace cutegen::conv {
namespace {

using Staging = NchwStaging;

TEST(NchwStaging, StagingIsTmasSwizzledBoxes) {
  std::set<int> seen;
  for (int pixel = 0; pixel < Staging::BlockRows; ++pixel)
    for (int channel = 0; channel < Staging::SubC; ++channel) {
      int const dense_bytes = (channel * Staging::Run + pixel % Staging::Run) * 4;
      int const swizzled = cute::Swizzle<3, 4, 3>{}(dense_bytes) / 4 + pixel / Staging::Run * Staging::BoxElements;
      ASSERT_EQ(Staging::offset(pixel, channel), swizzled) << pixel << ", " << channel;
      seen.insert(swizzled);
    }
  EXPECT_EQ(int(seen.size()), Staging::SubElements);
  EXPECT_EQ(*seen.rbegin(), Staging::SubElements - 1);
}

TEST(NchwStaging, AWarpsStoreOfOneRegisterMeetsEveryBankOnce) {
  for (int warp = 0; warp < 4; ++warp)
    for (int half = 0; half < 2; ++half)
      for (int group = 0; group < Staging::SubC / 8; ++group)
        for (int c = 0; c < 2; ++c) {
          std::set<int> banks;
          for (int lane = 0; lane < 32; ++lane) {
            int const row = warp * 16 + lane / 4 + 8 * half, col = 2 * (lane % 4) + 8 * group + c;
            banks.insert(Staging::offset(row, col) % 32);
          }
          EXPECT_EQ(banks.size(), 32u) << warp << ", " << half << ", " << group << ", " << c;
        }
}

}  // namespace
}  // namespace cutegen::conv
