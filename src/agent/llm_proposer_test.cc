// Every template renders with exactly the values its table row gives, for every stage and class.
#include "agent/llm_proposer.h"

#include <gtest/gtest.h>

#include "agent/recorded_fixtures.h"
#include "agent/workload.h"
#include "core/strings.h"

namespace cutegen {
namespace {

TEST(LlmProposer, EveryTemplateRendersWithItsValues) {
  TaskSpec spec = recorded_spec("relu").value();
  LlmProposer p({}, PromptLibrary(std::string(CUTEGEN_SOURCE_DIR) + "/prompts"), {});
  for (auto stage : {Stage::kGenerate, Stage::kRepairCompile, Stage::kRepairWrong, Stage::kOptimize, Stage::kTune})
    for (auto cls : {"gemm", "conv", "elementwise", "reduction", "loss", "other"}) {
      StepContext c{.stage = stage, .step = 2, .max_steps = 10, .task = &spec, .workload = cls,
                    .baseline = {2.5, 1.0, "memory"}, .base_source = "SRC", .failure = "FAIL"};
      auto r = p.request_for(c);
      ASSERT_TRUE(r.ok()) << to_string(stage) << "/" << cls << ": " << r.message();
      auto& text = r->messages[0].content;
      EXPECT_TRUE(contains(text, "step 3 of at most 10"));
      EXPECT_TRUE(contains(r->system, "SM90"));
      if (stage != Stage::kGenerate) EXPECT_TRUE(contains(text, "SRC"));
      if (stage == Stage::kGenerate) EXPECT_TRUE(contains(text, "torch.relu") && contains(text, "2.5000 ms"));
    }
}

// Every task's recorded spec renders the generate prompt and its class's optimize prompt.
TEST(LlmProposer, EveryRecordedTaskRendersItsPrompts) {
  LlmProposer p({}, PromptLibrary(std::string(CUTEGEN_SOURCE_DIR) + "/prompts"), {});
  for (auto& task : task_names()) {
    TaskSpec spec = recorded_spec(task).value();
    for (auto stage : {Stage::kGenerate, Stage::kOptimize}) {
      StepContext c{.stage = stage, .step = 0, .max_steps = 10, .task = &spec, .workload = classify_workload(spec.ops),
                    .baseline = {1.0, 0.5, "memory"}, .base_source = "SRC"};
      auto r = p.request_for(c);
      ASSERT_TRUE(r.ok()) << task << "/" << to_string(stage) << ": " << r.message();
      if (stage == Stage::kGenerate) {
        EXPECT_TRUE(contains(r->messages[0].content, spec.ops.front())) << task << ": the op list is in the prompt";
      }
    }
  }
}

}  // namespace
}  // namespace cutegen
