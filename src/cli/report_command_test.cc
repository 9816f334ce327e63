// Records a run with the scripted model and evaluator (a compile error, a wrong kernel, two kept
// kernels and a reverted one), writes its report, and renders the page in a real headless
// Chromium: the DOM Chromium built holds the table row, the plot's marks, the diff and the
// findings, and its screenshot is a page, not a blank. Chromium is required (scripts/bootstrap
// installs Debian's package): without it the test fails rather than skips.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

const std::string kSrc = CUTEGEN_SOURCE_DIR;
const std::string kSession = kSrc + "/tests/agent/relu_session";

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

class ReportCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cutegen-report-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ProcessResult cutegen(std::vector<std::string> args) {
    std::vector<std::string> argv = {std::getenv("CUTEGEN_BIN"),
                                     "--set",
                                     "agent.evaluator=scripted:" + kSession + "/evaluator.json",
                                     "--set",
                                     "agent.profiler=scripted",
                                     "--set",
                                     "store.dir=" + dir_,
                                     "--set",
                                     "llm.prices=*=3/15"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_process({.argv = argv, .cwd = kSrc, .timeout = std::chrono::seconds(120)});
    EXPECT_TRUE(r.ok()) << r.message();
    return *r;
  }
  // Headless Chromium with its own profile folder; as root it needs --no-sandbox.
  ProcessResult chromium(std::vector<std::string> args) {
    std::vector<std::string> argv = {find_executable("chromium"),
                                     "--headless",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--disable-dev-shm-usage",
                                     "--user-data-dir=" + dir_ + "/chromium-profile"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_process({.argv = argv, .timeout = std::chrono::seconds(180)});
    EXPECT_TRUE(r.ok()) << r.message();
    return *r;
  }
  std::string dir_;
};

TEST_F(ReportCommandTest, RecordedRunRendersInHeadlessChromium) {
  ASSERT_FALSE(find_executable("chromium").empty())
      << "chromium not found: this test renders the report in Debian's headless Chromium; scripts/bootstrap installs "
         "it (apt-get install chromium)";
  auto run = cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "llm", "--llm",
                      "command:sh " + kSession + "/answer.sh", "--max-steps", "8", "--run-id", "r0"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::string page = dir_ + "/page.html";
  auto rep = cutegen({"report", "r0", "--out", page});
  ASSERT_EQ(rep.exit_code, 0) << rep.err;
  EXPECT_EQ(trim(rep.out), page);
  std::string html = *read_file(page);
  // Self-contained: nothing to fetch (the one URL is SVG's namespace name, never fetched).
  for (const char* fetch : {"<script", "<link", "src=", "url(", "@import"})
    EXPECT_FALSE(contains(html, fetch)) << fetch;
  EXPECT_EQ(count(html, "http"), count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(cutegen({"report", "r0"}).exit_code, 0);  // the default place: inside the run folder
  EXPECT_TRUE(file_exists(dir_ + "/r0/report.html"));

  auto dom = chromium({"--dump-dom", "file://" + page});
  ASSERT_TRUE(dom.success()) << dom.describe() << dom.err;
  const std::string& d = dom.out;
  EXPECT_EQ(count(d, "<tr class=\"task-row\" data-task=\"relu\">"), 1u) << d.substr(0, 3000);
  EXPECT_TRUE(contains(d, "<svg class=\"speedup-plot\" data-task=\"relu\""));
  // Marks in the plot, beyond the legend's one of each: two kept, four reverted, two failed steps.
  EXPECT_EQ(count(d, "<circle class=\"step accepted\""), 2u + 1);
  EXPECT_EQ(count(d, "<circle class=\"step reverted\""), 4u + 1);
  EXPECT_EQ(count(d, "<path class=\"step failed\""), 2u + 1);
  EXPECT_EQ(count(d, "<tr class=\"step-row"), 8u);
  // The two kept kernels: the first whole, the second as a diff of its changed lines.
  EXPECT_EQ(count(d, "class=\"kernel-diff\""), 1u);
  EXPECT_TRUE(contains(d, "<span class=\"del\">- ")) << d;
  EXPECT_TRUE(contains(d, "<span class=\"add\">+ "));
  EXPECT_TRUE(contains(d, "cutegen-demo v3"));
  // The evaluator's findings for the compile error and the wrong kernel, escaped as text.
  EXPECT_EQ(count(d, "<details class=\"finding\""), 2u);
  EXPECT_TRUE(contains(d, "relu.cu:36: error: expected a \";\"")) << d;
  EXPECT_TRUE(contains(d, "every mismatch is where the reference is 0"));
  EXPECT_TRUE(contains(d, "fast<sub>1.5</sub>"));
  EXPECT_TRUE(contains(d, "torch.compile"));

  std::string shot = dir_ + "/shot.png";
  auto png = chromium({"--screenshot=" + shot, "--window-size=1280,1600", "--hide-scrollbars", "file://" + page});
  ASSERT_TRUE(png.success() && file_exists(shot)) << png.describe() << png.err;
  auto stats = run_process({.argv = {python_executable(""), kSrc + "/tests/report/png_stats.py", shot},
                            .timeout = std::chrono::seconds(120)});
  ASSERT_TRUE(stats.ok() && stats->success()) << (stats.ok() ? stats->err : stats.message());
  auto s = nlohmann::json::parse(stats->out);
  EXPECT_EQ(s["width"], 1280);
  EXPECT_GT(s["colors"].get<int>(), 20) << stats->out;  // text, badges, plot marks: a blank page has one or two
  EXPECT_GT(s["non_white_fraction"].get<double>(), 0.02) << stats->out;
}

}  // namespace
}  // namespace cutegen
