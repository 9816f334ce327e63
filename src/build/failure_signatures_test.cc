// The signature table on recorded real nvcc output (testdata/signatures/<id>.log, recorded and
// re-checked against nvcc by signatures_compile_test.cc): each fixture matches its own signature
// and no other, and the report opens with its cause.
#include "build/failure_signatures.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string fixture(const std::string& name) {
  return std::string(CUTEGEN_SOURCE_DIR) + "/src/build/testdata/signatures/" + name;
}

std::vector<Diagnostic> recorded(const FailureSignature& s) {
  auto log = read_file(fixture(std::string(s.id) + ".log"));
  auto source = read_file(fixture(std::string(s.id) + ".cu"));
  EXPECT_TRUE(log.ok() && source.ok()) << s.id;
  return log.ok() && source.ok() ? condense_diagnostics(*log, "@BUILD@/kernel.cu", *source) : std::vector<Diagnostic>{};
}

TEST(FailureSignatures, IdsAreUniqueAndPatternsValid) {
  std::set<std::string> seen;
  for (auto& s : failure_signatures()) {
    EXPECT_TRUE(seen.insert(s.id).second) << s.id;
    EXPECT_NO_THROW(std::regex(s.pattern)) << s.id;
  }
}

TEST(FailureSignatures, EachRecordedFixtureMatchesOnlyItsOwn) {
  for (auto& s : failure_signatures()) {
    auto diags = recorded(s);
    auto found = match_signatures(diags);
    ASSERT_EQ(found.size(), 1u) << s.id << "\n" << render_diagnostics(diags, "kernel.cu");
    EXPECT_STREQ(found[0]->id, s.id);
    auto text = render_diagnostics(diags, "kernel.cu");
    EXPECT_TRUE(text.starts_with(std::string("likely cause: ") + s.cause + "; fix: " + s.fix + "\n")) << text;
  }
}

TEST(FailureSignatures, HostStubFailureIsNamed) {
  for (auto& s : failure_signatures()) {
    auto text = render_diagnostics(recorded(s), "kernel.cu");
    bool stub = text.find("generated host stub") != std::string::npos;
    EXPECT_EQ(stub, std::string(s.id) == "anon_namespace") << s.id << "\n" << text;
    if (stub) {
      EXPECT_NE(text.find("the device code compiled"), std::string::npos) << text;
    }
  }
}

TEST(FailureSignatures, UnknownErrorHasNoCause) {
  auto diags = condense_diagnostics("/tmp/k.cu(3): error: expected a \";\"\n", "/tmp/k.cu", "a\nb\nc\n");
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_TRUE(match_signatures(diags).empty());
  EXPECT_EQ(render_diagnostics(diags, "k.cu").find("likely cause"), std::string::npos);
}

// Warnings are not failures: a matching warning names no cause.
TEST(FailureSignatures, WarningsDoNotMatch) {
  auto diags = condense_diagnostics("/tmp/k.cu(3): warning: \"C\" is ambiguous\n", "/tmp/k.cu", "");
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_TRUE(match_signatures(diags).empty());
}

}  // namespace
}  // namespace cutegen
