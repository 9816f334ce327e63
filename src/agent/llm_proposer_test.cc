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
    for (auto& row : name_table<Workload>()) {
      auto cls = row.value;
      StepContext c{.stage = stage,
                    .step = 2,
                    .max_steps = 10,
                    .task = &spec,
                    .workload = cls,
                    .baseline = {2.5, 1.0, RooflineLimit::kMemory},
                    .base_source = "SRC",
                    .failure = "FAIL"};
      auto r = p.request_for(c);
      ASSERT_TRUE(r.ok()) << name(stage) << "/" << name(cls) << ": " << r.message();
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
      StepContext c{.stage = stage,
                    .step = 0,
                    .max_steps = 10,
                    .task = &spec,
                    .workload = classify_workload(spec.ops),
                    .baseline = {1.0, 0.5, RooflineLimit::kMemory},
                    .base_source = "SRC"};
      auto r = p.request_for(c);
      ASSERT_TRUE(r.ok()) << task << "/" << name(stage) << ": " << r.message();
      if (stage == Stage::kGenerate) {
        EXPECT_TRUE(contains(r->messages[0].content, spec.ops.front())) << task << ": the op list is in the prompt";
      }
    }
  }
}

TaskSpec task_fixture(const std::string& name, const std::string& task_file) {
  auto spec = parse_task_spec(*read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/task/testdata/" + name));
  EXPECT_TRUE(spec.ok()) << spec.message();
  spec->path = std::string(CUTEGEN_SOURCE_DIR) + "/" + task_file;
  return *spec;
}

std::string user_prompt(const TaskSpec& spec, Stage stage, Baseline baseline = {}, Tolerance tol = {}) {
  LlmProposer p({}, PromptLibrary(std::string(CUTEGEN_SOURCE_DIR) + "/prompts"), {.tolerance = tol});
  StepContext c{.stage = stage,
                .max_steps = 10,
                .task = &spec,
                .workload = Workload::kGemm,
                .baseline = baseline,
                .base_source = "SRC",
                .failure = "FAIL"};
  auto r = p.request_for(c);
  EXPECT_TRUE(r.ok()) << r.message();
  return r.ok() ? r->messages[0].content : "";
}

TEST(LlmProposer, EveryStageListsTheModelsNumbers) {
  auto spec = task_fixture("linear_multiply_leaky.json", "tasks/linear_multiply_leaky.py");
  for (auto stage : {Stage::kGenerate, Stage::kRepairCompile, Stage::kRepairWrong, Stage::kOptimize, Stage::kTune}) {
    auto text = user_prompt(spec, stage);
    EXPECT_TRUE(contains(text, "- `cutegen_abi::multiplier` = 2.0 (double; constructor argument multiplier)\n"))
        << name(stage) << "\n"
        << text;
    EXPECT_TRUE(contains(text,
                         "- `cutegen_abi::leaky_relu_negative_slope` = 0.1 (double; attribute "
                         "leaky_relu.negative_slope)"));
  }
  auto relu = task_fixture("relu.json", "tasks/relu.py");
  EXPECT_TRUE(contains(user_prompt(relu, Stage::kGenerate), "never copy the values):\n(none)\n"));
}

TEST(LlmProposer, PrecisionContractFromTheToleranceDtypeAndEagersError) {
  auto spec = task_fixture("linear_multiply_leaky.json", "tasks/linear_multiply_leaky.py");
  auto text = user_prompt(spec, Stage::kGenerate);
  for (auto needle : {"## The precision contract", "in the task's dtype (float32)", "<= 0.01 + 0.01 * |ref|",
                      "at most 10 x eager's own", "Eager's measured error: unknown (no GPU measurement cached).",
                      "3xTF32", "rounded to TF32 (what\n  a TF32 MMA reads) measured: unknown"})
    EXPECT_TRUE(contains(text, needle)) << needle << "\n" << text;
  auto strict = user_prompt(spec, Stage::kRepairWrong,
                            {.eager_rel_err = 3e-6, .accuracy_limit = 1.2e-5, .tf32_rel_err = 2.8e-4}, {1e-4, 1e-4, 4});
  for (auto needle : {"<= 0.0001 + 0.0001 * |ref|", "at most 4 x eager's own",
                      "Eager's measured error: 3.00e-06, so the limit is 1.20e-05.",
                      "measured: 2.80e-04, over the limit: plain TF32 MMA will fail"})
    EXPECT_TRUE(contains(strict, needle)) << needle << "\n" << strict;
  EXPECT_TRUE(contains(user_prompt(spec, Stage::kOptimize), "## The precision contract"));
  // Structure and parameters only: these stages leave the numerics as they are.
  EXPECT_FALSE(contains(user_prompt(spec, Stage::kRepairCompile), "precision contract"));
  EXPECT_FALSE(contains(user_prompt(spec, Stage::kTune), "precision contract"));
  // A 16-bit task: the note is about accumulators, not TF32.
  auto half = user_prompt(task_fixture("mixed_io.json", "src/task/testdata/mixed_io.py"), Stage::kGenerate);
  EXPECT_TRUE(contains(half, "(float16)") && contains(half, "float32 accumulators")) << half;
  EXPECT_FALSE(contains(half, "3xTF32"));
}

}  // namespace
}  // namespace cutegen
