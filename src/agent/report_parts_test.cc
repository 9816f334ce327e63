// The report's small parts: escaping, the line diff, KernelBench's aggregates and the plot.
#include <gtest/gtest.h>

#include <cmath>

#include "agent/html.h"
#include "agent/kernelbench_metrics.h"
#include "agent/line_diff.h"
#include "agent/report_plot.h"
#include "core/strings.h"

namespace cutegen {

TEST(ReportParts, EscapingCoversElementsAndAttributes) {
  EXPECT_EQ(html_escape("a<b && c>\"d\" 'e'"), "a&lt;b &amp;&amp; c&gt;&quot;d&quot; &#39;e&#39;");
  EXPECT_EQ(strf("%.2fx", 1.176), "1.18x");
}

TEST(ReportParts, DiffKeepsContextAndFoldsLongUnchangedRuns) {
  std::string before, after;
  for (int i = 0; i < 20; ++i)
    before += "line " + std::to_string(i) + "\n";
  after = replace_all(before, "line 10\n", "line ten\nline ten and a half\n");
  auto d = line_diff(before, after, 2);
  std::string shape;
  for (auto& l : d)
    shape += l.kind;
  EXPECT_EQ(shape, "~  -++  ~");
  EXPECT_EQ(d[0].text, "8");  // lines 0..7 folded
  EXPECT_EQ(d[3].text, "line 10");
  EXPECT_EQ(d[4].text, "line ten");
  EXPECT_EQ(d.back().text, "7");  // lines 13..19
  EXPECT_TRUE(line_diff(before, before).size() == 1 && line_diff(before, before)[0].kind == '~');
}

TEST(ReportParts, FastPCountsEveryTaskAndGeomeanOnlyVerifiedOnes) {
  std::vector<TaskSpeedup> t = {{true, 2.5}, {true, 1.2}, {true, 0.8}, {false, 0}};
  EXPECT_DOUBLE_EQ(fast_p(t, 0), 0.75);
  EXPECT_DOUBLE_EQ(fast_p(t, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(fast_p(t, 2.0), 0.25);
  EXPECT_NEAR(geomean_speedup(t), std::cbrt(2.5 * 1.2 * 0.8), 1e-12);
  EXPECT_EQ(geomean_speedup({{false, 3}}), 0);
  EXPECT_EQ(fast_p({}, 1), 0);
}

TEST(ReportParts, PlotMarksEachStepByItsOutcome) {
  std::vector<StepRecord> steps = {
      {.step = 0, .stage = Stage::kGenerate, .verdict = Verdict::kCompileError, .outcome = StepOutcome::kFailed},
      {.step = 1,
       .stage = Stage::kRepairCompile,
       .verdict = Verdict::kPass,
       .speedup = 1.1,
       .speedup_low = 1.0,
       .speedup_high = 1.2,
       .outcome = StepOutcome::kAccepted},
      {.step = 2,
       .stage = Stage::kOptimize,
       .verdict = Verdict::kPass,
       .speedup = 0.9,
       .outcome = StepOutcome::kReverted}};
  std::string svg = speedup_plot_svg("a<b", steps);
  EXPECT_TRUE(contains(svg, "data-task=\"a&lt;b\""));
  EXPECT_TRUE(contains(svg, "<title>step 1 (generate): compile_error, failed</title>"));
  EXPECT_TRUE(contains(svg, "<title>step 2 (repair_compile): pass, 1.10x, accepted</title>"));
  EXPECT_TRUE(contains(svg, "<circle class=\"step reverted\""));
  EXPECT_TRUE(contains(svg, "<polyline class=\"best\""));
  EXPECT_TRUE(contains(svg, "<line class=\"ci\""));
}

}  // namespace cutegen
