#include "build/diagnostics.h"

#include <gtest/gtest.h>

#include "build/ptxas_report.h"
#include "build/target.h"

namespace cutegen {

TEST(Diagnostics, ShortensNestedTemplates) {
  EXPECT_EQ(shorten_templates("cute::Tensor<cute::ViewEngine<float*>, cute::Layout<int>>"),
            "cute::Tensor<cute::ViewEngine<...>, cute::Layout<...>>");
}

TEST(Diagnostics, FindsUserFrameInInstantiationChain) {
  std::string log =
      "/deps/cute/algorithm/copy.hpp(88): error: no instance of overloaded function \"copy\" matches\n"
      "            argument types are: (A<B<C>>)\n"
      "          detected during:\n"
      "            instantiation of \"void f<T>() [with T=int]\" at line 12 of /tmp/x/kernel.cu\n"
      "            instantiation of \"void g()\" at line 30 of /tmp/x/kernel.cu\n"
      "\n"
      "1 error detected in the compilation of \"/tmp/x/kernel.cu\".\n";
  std::string src;
  for (int i = 1; i <= 40; ++i)
    src += "line" + std::to_string(i) + "\n";
  auto d = condense_diagnostics(log, "/tmp/x/kernel.cu", src);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].user_line, 12);
  EXPECT_EQ(d[0].user_source, "line12");
  EXPECT_EQ(d[0].line, 88);
  auto text = render_diagnostics(d, "mine.cu");
  EXPECT_NE(text.find("mine.cu:12"), std::string::npos) << text;
  EXPECT_NE(text.find("copy.hpp:88"), std::string::npos) << text;
}

TEST(Diagnostics, DeduplicatesAndBoundsOutput) {
  std::string log;
  for (int i = 0; i < 200; ++i)
    log += "/tmp/k.cu(" + std::to_string(i % 50 + 1) + "): error: bad thing\n";
  auto d = condense_diagnostics(log, "/tmp/k.cu", "");
  EXPECT_EQ(d.size(), 50u);
  auto text = render_diagnostics(d, "k.cu", 6, 6000);
  EXPECT_NE(text.find("44 more errors not shown"), std::string::npos) << text;
}

TEST(Diagnostics, HostAndPtxasErrors) {
  auto d = condense_diagnostics(
      "/tmp/k.cu:7:3: error: 'x' was not declared\nptxas fatal   : Unresolved extern function 'foo'\n", "/tmp/k.cu",
      "a\nb\nc\nd\ne\nf\nint y = x;\n");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].user_line, 7);
  EXPECT_EQ(d[0].user_source, "int y = x;");
  EXPECT_EQ(d[1].file, "ptxas");
}

TEST(PtxasReport, ParsesKernelsOnly) {
  std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90a'\n"
      "ptxas info    : Function properties for _Z3fooPf\n"
      "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 368 bytes cmem[0]\n"
      "ptxas info    : Function properties for _Z6helperv\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
  auto k = parse_ptxas_report(log);
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0].name, "foo(float*)");
  EXPECT_EQ(k[0].registers, 40);
  EXPECT_EQ(k[0].shared_bytes, 1024);
  EXPECT_EQ(k[0].stack_bytes, 8);
  EXPECT_EQ(k[0].spill_stores, 4);
  EXPECT_EQ(k[0].barriers, 1);
}

TEST(Target, ParsesAndFormats) {
  auto t = parse_target("sm_90a");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->gencode_flag(), "-gencode=arch=compute_90a,code=sm_90a");
  EXPECT_EQ(parse_target("80")->name(), "sm_80");
  EXPECT_EQ(parse_target("9.0")->name(), "sm_90a");
  EXPECT_EQ(parse_target("10.0")->name(), "sm_100a");
  EXPECT_FALSE(parse_target("hopper").ok());
}

}  // namespace cutegen
