#include "agent/edits.h"

#include <gtest/gtest.h>

#include "agent/prompts.h"
#include "core/strings.h"

namespace cutegen {
namespace {

const std::string kSrc = "int a = 1;\nint b = 2;\n  if (x)   {\n    y();\n  }\nint b = 2;\n";

TEST(Edits, ExactBlockReplacesTheUniqueOccurrence) {
  auto r = apply_edits(kSrc, {{"int a = 1;\n", "int a = 7;\n"}});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->how, EditHow::kExact);
  EXPECT_TRUE(r->source.starts_with("int a = 7;\nint b = 2;\n"));
}

TEST(Edits, WhitespaceTolerantFallback) {
  auto r = apply_edits(kSrc, {{"if (x) {\n  y();\n", "if (x) {\n    z();\n"}});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->how, EditHow::kWhitespace);
  EXPECT_TRUE(contains(r->source, "    z();\n  }\n")) << r->source;
}

TEST(Edits, AmbiguousAndMissingSearchTextAreNamed) {
  auto amb = apply_edits(kSrc, {{"int a = 1;\n", "x\n"}, {"int b = 2;\n", "y\n"}});
  ASSERT_FALSE(amb.ok());
  EXPECT_EQ(amb.message(), "edit block 2: the SEARCH text occurs 2 times; include more lines to make it unique");
  auto missing = apply_edits(kSrc, {{"int c = 3;\n", "x\n"}});
  EXPECT_TRUE(contains(missing.message(), "edit block 1: the SEARCH text does not occur"));
}

TEST(Edits, ParsesBlocksAndWholeFiles) {
  auto a = parse_answer("Here.\n<<<<<<< SEARCH\nint a = 1;\n=======\nint a = 2;\n>>>>>>> REPLACE\n");
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a->blocks.size(), 1u);
  EXPECT_EQ(a->blocks[0].search, "int a = 1;\n");
  auto w = resolve_answer("", "text\n```cuda\nextern \"C\" void cutegen_forward() {}\n```\n");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->how, EditHow::kWholeFile);
  auto cut = parse_answer("<<<<<<< SEARCH\nint a;\n=======\nint");
  EXPECT_TRUE(contains(cut.message(), "not closed")) << cut.message();
  EXPECT_EQ(resolve_answer("x", "   ").message(), "the answer is empty");
  EXPECT_TRUE(
      contains(resolve_answer("", "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n").message(), "no current source"));
}

TEST(Edits, TheModelWritesNoIncludePathsOrFlags) {
  EXPECT_TRUE(check_source_rules("#include <cute/tensor.hpp>\n").ok());
  EXPECT_TRUE(contains(check_source_rules("#include \"/opt/abi.h\"\n").message(), "do not include files by path"));
}

}  // namespace
}  // namespace cutegen
