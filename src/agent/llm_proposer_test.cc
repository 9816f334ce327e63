// Every template renders with exactly the values its table row gives, for every stage and class.
#include "agent/llm_proposer.h"

#include <gtest/gtest.h>

#include "agent/recorded_fixtures.h"
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

}  // namespace
}  // namespace cutegen
