// Every known failure signature on real nvcc output: its fixture (testdata/signatures/<id>.cu) is
// compiled by the real Builder (sm_90a, the toolchain's CUTLASS) and the report names the
// signature's cause. The fixture's recorded log (<id>.log, which failure_signatures_test.cc reads
// without nvcc) must still match exactly the signatures that nvcc's output matches now.
// CUTEGEN_RECORD_SIGNATURES=1 rewrites the recorded logs from this run instead of comparing.
// The cache lives under the system temp dir across runs: a rerun with the same nvcc compiles nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "build/builder.h"
#include "build/failure_signatures.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string fixture(const std::string& name) {
  return std::string(CUTEGEN_SOURCE_DIR) + "/src/build/testdata/signatures/" + name;
}

std::vector<std::string> ids(const std::vector<const FailureSignature*>& sigs) {
  std::vector<std::string> out;
  for (auto* s : sigs)
    out.push_back(s->id);
  return out;
}

// The log with the machine's paths replaced by placeholders: the build folder by @BUILD@ (the
// parser test compiles "@BUILD@/kernel.cu"), the CUTLASS include folder by @CUTLASS@.
std::string normalized(const std::string& log, const Toolchain& tc) {
  std::smatch m;
  std::string first_line = log.substr(0, log.find('\n'));
  std::string out = log;
  if (std::regex_search(first_line, m, std::regex(R"((\S+)/kernel\.cu\b)")))
    out = replace_all(out, m[1].str(), "@BUILD@");
  return replace_all(out, tc.cutlass_include, "@CUTLASS@");
}

TEST(SignaturesCompile, EachFixtureGetsItsCauseFromRealNvcc) {
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  auto cache = std::filesystem::temp_directory_path() / "cutegen-signature-compile-cache";
  Builder builder(*tc, BuilderOptions{.cache_dir = cache.string()});
  std::vector<BuildRequest> requests;
  for (auto& s : failure_signatures()) {
    auto source = read_file(fixture(std::string(s.id) + ".cu"));
    ASSERT_TRUE(source.ok()) << "every signature needs a fixture: " << source.message();
    requests.push_back({.source = *source, .display_name = std::string(s.id) + ".cu", .target = Target{9, 0, true}});
  }
  const bool record = std::getenv("CUTEGEN_RECORD_SIGNATURES") != nullptr;
  auto results = builder.build_all(requests);
  for (size_t i = 0; i < results.size(); ++i) {
    const FailureSignature& sig = failure_signatures()[i];
    ASSERT_TRUE(results[i].ok()) << results[i].message();
    const BuildResult& r = *results[i];
    ASSERT_EQ(r.outcome, BuildOutcome::kCompileError) << sig.id << ": " << r.message;
    auto now = ids(match_signatures(r.diagnostics));
    EXPECT_EQ(now, std::vector<std::string>{sig.id}) << render_diagnostics(r.diagnostics, requests[i].display_name);
    std::string report = render_diagnostics(r.diagnostics, requests[i].display_name);
    EXPECT_TRUE(report.starts_with(std::string("likely cause: ") + sig.cause)) << report;

    auto log = read_file(r.log_path);
    ASSERT_TRUE(log.ok()) << log.message();
    std::string log_file = fixture(std::string(sig.id) + ".log");
    if (record) {
      ASSERT_TRUE(write_file_atomic(log_file, normalized(*log, *tc)).ok());
      continue;
    }
    auto recorded = read_file(log_file);
    ASSERT_TRUE(recorded.ok()) << "record it with CUTEGEN_RECORD_SIGNATURES=1: " << recorded.message();
    auto then = condense_diagnostics(*recorded, "@BUILD@/kernel.cu", requests[i].source);
    EXPECT_EQ(ids(match_signatures(then)), now) << sig.id << ": the recorded log no longer matches nvcc's output";
    auto stub = [](const std::vector<Diagnostic>& ds) {
      return std::any_of(ds.begin(), ds.end(), [](auto& d) { return in_host_stub(d); });
    };
    EXPECT_EQ(stub(then), stub(r.diagnostics)) << sig.id;
  }
}

}  // namespace
}  // namespace cutegen
