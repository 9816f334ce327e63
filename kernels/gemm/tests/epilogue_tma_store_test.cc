// The TMA-store epilogue's staging offsets, on the host: its written-out swizzle is CuTe's
// 128-byte-swizzled layout that the TMA descriptor is built from, for every element of a buffer,
// and a thread's pairs of one column group and the next differ from its first by XOR 8 (the form
// the kernel computes them in).
#include "epilogue_tma_store.cuh"

#include <gtest/gtest.h>

#include "epilogue_functors.cuh"

namespace cutegen::gemm {
namespace {

template <class ElementC>
void expect_offsets_match_cute() {
  using Config = GemmConfig<cute::bfloat16_t, cute::bfloat16_t, ElementC, RowMajor, ColMajor, 128, 256, 4>;
  using Epilogue = EpilogueTmaStore<Config, IdentityEpilogue>;
  // The swizzle acts on the address bits of a shared-memory pointer (as in the kernel, whose buffers
  // are 1024-byte aligned), so the reference is an element's address in a tensor over such a buffer.
  alignas(1024) static ElementC buffer[Epilogue::BufferElements];
  auto sC = cute::make_tensor(cute::make_smem_ptr(buffer), typename Epilogue::SmemLayout{});
  for (int row = 0; row < Epilogue::BlockRows; ++row)
    for (int col = 0; col < Epilogue::SubN; ++col)
      ASSERT_EQ(Epilogue::staging_offset(row, col), int(&sC(row, col) - buffer)) << row << ", " << col;
  // A wgmma fragment's first column is 2 * (lane % 4); its column groups are 8 apart.
  for (int row = 0; row < Epilogue::BlockRows; ++row)
    for (int col0 = 0; col0 < 8; col0 += 2)
      for (int group = 0; group < Epilogue::SubN / 8; ++group)
        ASSERT_EQ(Epilogue::staging_offset(row, col0) ^ (8 * group), Epilogue::staging_offset(row, col0 + 8 * group));
}

TEST(EpilogueTmaStore, StagingOffsetsAreCuteSwizzledLayout) {
  expect_offsets_match_cute<float>();
  expect_offsets_match_cute<cute::bfloat16_t>();
  expect_offsets_match_cute<cute::half_t>();
}

}  // namespace
}  // namespace cutegen::gemm
