// The static profile of kernels compiled here with the real Builder (no GPU): ptxas facts always,
// and the instruction mix where cuobjdump exists.
#include "profile/static_profile.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

TEST(SassMix, ParsesFunctionsAndClasses) {
  std::string dump =
      "\tcode for sm_90a\n"
      "\t\tFunction : _Z1kv\n"
      "\t.headerflags\t@\"EF_CUDA_SM90\"\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;    /* 0x00000a00ff017b82 */\n"
      "        /*0010*/              @!P0 LDG.E.128.CONSTANT R8, desc[UR4][R4.64] ;  /* 0x0 */\n"
      "        /*0020*/                   LDGSTS.E.BYPASS.128 [R5], desc[UR6][R2.64] ;  /* 0x0 */\n"
      "                                                                      /* 0x000fe20000000f00 */\n"
      "\t\tFunction : _Z1jv\n"
      "        /*0000*/                   STL [R1], R2 ;  /* 0x0 */\n";
  auto m = parse_sass(dump);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m["_Z1kv"].total, 3);
  EXPECT_EQ(m["_Z1kv"].count("LDG.128"), 1);
  EXPECT_EQ(m["_Z1kv"].count("LDGSTS"), 1);  // not a 128-bit LDG
  EXPECT_EQ(m["_Z1jv"].count("STL"), 1);
}

TEST(StaticProfile, KernelsCompiledHere) {
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  auto cache = std::filesystem::temp_directory_path() / ("cutegen-static-test-" + std::to_string(getpid()));
  Builder builder(*tc, BuilderOptions{.cache_dir = cache.string()});
  std::string path = std::string(CUTEGEN_SOURCE_DIR) + "/src/profile/testdata/sass_mix.cu";
  auto build = builder.build({.source = *read_file(path), .display_name = "sass_mix.cu", .target = Target{9, 0, true}});
  ASSERT_TRUE(build.ok()) << build.message();
  ASSERT_TRUE(build->ok()) << build->message;

  std::string cuobjdump = find_cuobjdump(tc->nvcc);
  auto p = static_profile(*build, cuobjdump);
  ASSERT_EQ(p.kernels.size(), 4u);
  std::map<std::string, const StaticKernel*> by_name;
  for (auto& k : p.kernels)
    by_name[k.resources.name.substr(0, k.resources.name.find('('))] = &k;
  ASSERT_TRUE(by_name.count("local_array"));
  EXPECT_GE(by_name["local_array"]->resources.stack_bytes, 256);
  EXPECT_GT(by_name["vec4_copy"]->resources.registers, 0);
  EXPECT_GT(by_name["cp_async_mma"]->resources.shared_bytes, 0);

  if (cuobjdump.empty()) {
    EXPECT_FALSE(p.sass_note.empty());
    std::filesystem::remove_all(cache);
    GTEST_SKIP() << "no cuobjdump on this machine: " << p.sass_note;
  }
  EXPECT_TRUE(p.sass_note.empty()) << p.sass_note;
  auto count = [&](const char* kernel, const char* label) { return by_name[kernel]->mix->count(label); };
  for (auto& [name, k] : by_name)
    ASSERT_TRUE(k->mix) << name;
  EXPECT_GE(count("wgmma_tma", "HGMMA"), 1);
  EXPECT_GE(count("wgmma_tma", "UTMALDG"), 1);
  EXPECT_GE(count("cp_async_mma", "LDGSTS"), 1);
  EXPECT_GE(count("cp_async_mma", "HMMA"), 1);
  EXPECT_EQ(count("cp_async_mma", "HGMMA"), 0);
  EXPECT_GE(count("vec4_copy", "LDG.128"), 1);
  EXPECT_GE(count("vec4_copy", "STG.128"), 1);
  EXPECT_GE(count("local_array", "STL"), 1);
  EXPECT_GE(count("local_array", "LDL"), 1);
  EXPECT_EQ(count("vec4_copy", "LDL"), 0);
  std::filesystem::remove_all(cache);
}

}  // namespace
}  // namespace cutegen
