// The full loop on the CPU: a scripted model behind the real Client, the scripted evaluator and
// profiler, a real run store. One session walks through every path the issue names.
#include "agent/loop.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "agent/doubles.h"
#include "agent/llm_proposer.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "task/task_spec.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

// Answers in order; records every request it was asked.
class ScriptedModel : public Model {
 public:
  explicit ScriptedModel(std::vector<Response> answers) : answers_(std::move(answers)) {}
  Result<Response> complete(const Request& req) override {
    asked.push_back(req);
    if (next_ >= answers_.size()) return error("scripted model: no more answers");
    return answers_[next_++];
  }
  std::string name() const override { return "scripted"; }
  std::vector<Request> asked;

 private:
  std::vector<Response> answers_;
  size_t next_ = 0;
};

Response answer(const std::string& text, const std::string& finish = "stop") {
  return Response{.text = text, .finish_reason = finish, .usage = {100, 50}};
}

std::string edit(const std::string& from, const std::string& to) {
  return "Fix.\n<<<<<<< SEARCH\n" + from + "\n=======\n" + to + "\n>>>>>>> REPLACE\n";
}

const char* kKernel = R"(#include <cute/tensor.hpp>
using namespace cute;
__global__ void relu_kernel(float const* x, float* y, int64_t n) {
  // MARK_COMPILE_ERR
}
extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {
  relu_kernel<<<1, 256, 0, stream>>>(x, out, cutegen_abi::x_numel);
}
)";

const char* kScript = R"({"eager_ms": 2.0, "floor_ms": 1.0, "bound": "memory", "rules": [
  {"match": "MARK_COMPILE_ERR", "verdict": "compile_error", "summary": "1 error", "report": "relu.cu:4: error: expected ';'"},
  {"match": "MARK_WRONG", "verdict": "wrong", "summary": "out differs", "report": "out: 262144 of 268435456 elements differ, all in the last block: a tail left unwritten"},
  {"match": "MARK_SLOW", "verdict": "pass", "speedup": 1.2, "roofline_fraction": 0.3, "fingerprint": "B"},
  {"match": "MARK_V1", "verdict": "pass", "speedup": 1.0, "roofline_fraction": 0.25, "fingerprint": "A"},
  {"match": "MARK_V2", "verdict": "pass", "speedup": 1.5, "roofline_fraction": 0.4, "fingerprint": "A"},
  {"match": "MARK_V3", "verdict": "pass", "speedup": 1.8, "roofline_fraction": 0.5, "fingerprint": "C"}]})";

struct Session {
  std::string dir;
  std::shared_ptr<ScriptedModel> model;
  std::optional<RunStore> store;
  std::unique_ptr<ScriptedEvaluator> evaluator;
  ScriptedProfiler profiler;
  Budget budget{Limits{}, Limits{}};
  std::unique_ptr<Client> client;
  std::unique_ptr<LlmProposer> proposer;
  TaskSpec spec;
  AgentOptions options;

  Session(std::vector<Response> answers, Limits run_limits = {}) : budget(run_limits, Limits{}) {
    char tmpl[] = "/tmp/cutegen-loop-XXXXXX";
    dir = mkdtemp(tmpl);
    store = std::move(RunStore::create(dir + "/run", {.id = "t"}).value());
    model = std::make_shared<ScriptedModel>(std::move(answers));
    evaluator = std::make_unique<ScriptedEvaluator>(nlohmann::json::parse(kScript));
    client = std::make_unique<Client>(model, ClientOptions{.continue_truncated = false}, nullptr, &budget);
    proposer = std::make_unique<LlmProposer>(LlmRoles{client.get(), client.get(), client.get()},
                                             PromptLibrary(std::string(CUTEGEN_SOURCE_DIR) + "/prompts"),
                                             LlmProposerOptions{});
    std::string json = *read_file(std::string(CUTEGEN_SOURCE_DIR) + "/tests/agent/relu_spec.json");
    spec = *parse_task_spec(json);
    spec.path = std::string(CUTEGEN_SOURCE_DIR) + "/tasks/relu.py";
    (void)store->add_task({.name = "relu", .path = spec.path});
  }
  ~Session() { std::filesystem::remove_all(dir); }
  Result<TaskOutcome> run() {
    TaskEnv env{.store = &*store, .evaluator = evaluator.get(), .profiler = &profiler, .proposer = proposer.get(),
                .options = options};
    return run_task(env, spec, store->tasks()->at(0));
  }
  std::string prompt(size_t i) const { return model->asked.at(i).messages.at(0).content; }
};

std::string k(const std::string& mark) { return replace_all(kKernel, "MARK_COMPILE_ERR", mark); }

TEST(AgentLoop, RepairsRevertsProfilesOnPolicyReasksAndStopsOnBudget) {
  Session s({answer("First version.\n```cuda\n" + k("MARK_COMPILE_ERR") + "```\n"),
             answer(edit("  // MARK_COMPILE_ERR", "  // MARK_WRONG")),
             answer(edit("  //   MARK_WRONG", "  // MARK_V1")),  // applies only ignoring whitespace
             answer("<<<<<<< SEARCH\n  // MARK_V1\n=======\n  // MA", "length"),  // truncated: re-asked
             answer(edit("  // MARK_V1", "  // MARK_V2")),
             answer(edit("  // MARK_V2", "  // MARK_SLOW")),  // a regression: reverted
             answer(edit("  // MARK_V2", "  // MARK_V3"))},
            Limits{.calls = 7});
  auto out = s.run();
  ASSERT_TRUE(out.ok()) << out.message();
  EXPECT_EQ(out->end, TaskEnd::kDone);
  EXPECT_EQ(out->detail, "budget: run calls: 7 made of 7");

  auto steps = *s.store->steps("relu");
  std::vector<std::string> got;
  for (auto& r : steps) got.push_back(r.stage + "/" + r.verdict + "/" + r.outcome + "/" + r.edit_how);
  EXPECT_EQ(got, (std::vector<std::string>{"generate/compile_error/failed/whole_file",
                                           "repair_compile/wrong/failed/exact",
                                           "repair_wrong/pass/accepted/whitespace",
                                           "optimize/pass/accepted/exact",
                                           "optimize/pass/reverted/exact",
                                           "optimize/pass/accepted/exact"}));
  // The repair prompts carry the condensed diagnostics and the localized report.
  EXPECT_TRUE(contains(s.prompt(1), "relu.cu:4: error: expected ';'"));
  EXPECT_TRUE(contains(s.prompt(2), "a tail left unwritten"));
  // The truncated answer was sent back with the reason.
  ASSERT_EQ(s.model->asked[4].messages.size(), 3u);
  EXPECT_TRUE(contains(s.model->asked[4].messages[2].content, "cut off by the output-token limit"));
  // Elementwise: the profile joins after 2 accepted steps, not before.
  EXPECT_FALSE(steps[3].profiled);
  EXPECT_FALSE(contains(s.prompt(3), "Runtime profile"));
  EXPECT_TRUE(steps[4].profiled);
  EXPECT_TRUE(contains(s.prompt(5), "## Runtime profile of the current best kernel"));
  EXPECT_EQ(s.profiler.calls, 2);  // once per best kernel: step 4, then step 6 before the budget stop
  EXPECT_TRUE(contains(steps[4].note, "regression: 1.20x vs best 1.50x; reverted to step 4"));
  // The step after a regression starts from the best kernel, and remembers the revert.
  EXPECT_EQ(steps[5].parent, 3);
  EXPECT_TRUE(contains(s.prompt(6), "MARK_V2"));
  EXPECT_FALSE(contains(s.prompt(6), "MARK_SLOW"));
  EXPECT_TRUE(contains(s.prompt(6), "regression"));
  auto task = s.store->tasks()->at(0);
  EXPECT_EQ(task.status, "done");
  EXPECT_EQ(task.best_step, 5);
  EXPECT_TRUE(contains(task.final_json, "\"speedup\":1.8"));
}

TEST(AgentLoop, UnusableAnswersBecomeFailedStepsNotCrashes) {
  Session s({answer(""), answer("I cannot do that."), answer("```cuda\n" + k("MARK_V1") + "```"),
             answer(edit("not in the source", "x")), answer(edit("also not there", "y"))});
  s.options.max_steps = 3;
  auto out = s.run();
  ASSERT_TRUE(out.ok()) << out.message();
  auto steps = *s.store->steps("relu");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].verdict, "no_candidate");
  EXPECT_TRUE(contains(steps[0].summary, "neither SEARCH/REPLACE blocks nor")) << steps[0].summary;
  EXPECT_EQ(steps[1].verdict, "pass");
  EXPECT_EQ(steps[2].verdict, "no_candidate");
  EXPECT_TRUE(contains(steps[2].summary, "does not occur in the current source")) << steps[2].summary;
  EXPECT_EQ(out->detail, "max steps (3)");
}

TEST(AgentLoop, ResumingAfterAnInterruptionEndsInTheSameState) {
  std::vector<Response> answers = {answer("```cuda\n" + k("MARK_V1") + "```"), answer(edit("  // MARK_V1", "  // MARK_V2")),
                                   answer(edit("  // MARK_V2", "  // MARK_V3"))};
  Session whole(answers);
  whole.options.max_steps = 3;
  ASSERT_TRUE(whole.run().ok());

  Session parts(answers);
  parts.options.max_steps = 2;  // stops early, as if killed after two steps
  ASSERT_TRUE(parts.run().ok());
  parts.options.max_steps = 3;
  auto row = parts.store->tasks()->at(0);
  TaskEnv env{.store = &*parts.store, .evaluator = parts.evaluator.get(), .profiler = &parts.profiler,
              .proposer = parts.proposer.get(), .options = parts.options};
  ASSERT_TRUE(run_task(env, parts.spec, row).ok());
  auto a = *whole.store->steps("relu"), b = *parts.store->steps("relu");
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].source, b[i].source);
  EXPECT_EQ(whole.store->tasks()->at(0).final_json, parts.store->tasks()->at(0).final_json);
}

TEST(AgentLoop, PlateauAndRooflineTargetStop) {
  AgentOptions o;
  TaskState s;
  StepRecord pass{.step = 0, .stage = "generate", .verdict = "pass", .speedup = 1.0, .roofline_fraction = 0.95};
  judge(s, o, pass);
  apply(s, o, pass);
  EXPECT_EQ(stop_reason(s, o).value_or(""), "reached 95% of the roofline");
  o.target_roofline = 0;
  for (int i = 1; i <= 4; ++i) {
    StepRecord slow{.step = i, .stage = "optimize", .verdict = "pass", .speedup = 0.9};
    judge(s, o, slow);
    apply(s, o, slow);
  }
  EXPECT_EQ(stop_reason(s, o).value_or(""), "plateau (4 steps without a gain)");
}

TEST(AgentLoop, ProfilePolicies) {
  AgentOptions o;
  TaskState s;
  auto accept = [&](const std::string& fp) {
    StepRecord r{.step = s.next_step(), .stage = "optimize", .verdict = "pass", .speedup = 1.0 + s.next_step(),
                 .fingerprint = fp};
    judge(s, o, r);
    apply(s, o, r);
  };
  accept("A");
  EXPECT_FALSE(profile_due(s, o, "gemm", Stage::kOptimize));
  accept("B");
  EXPECT_FALSE(profile_due(s, o, "gemm", Stage::kOptimize));
  accept("B");  // structure unchanged over two accepted steps
  EXPECT_TRUE(profile_due(s, o, "gemm", Stage::kOptimize));
  o.profile_policy = "after_n";
  EXPECT_FALSE(profile_due(s, o, "gemm", Stage::kOptimize));
  o.profile_after["gemm"] = 3;
  EXPECT_TRUE(profile_due(s, o, "gemm", Stage::kOptimize));
  EXPECT_FALSE(profile_due(s, o, "gemm", Stage::kRepairWrong));
  o.profile_policy = "never";
  EXPECT_FALSE(profile_due(s, o, "gemm", Stage::kOptimize));
  o.profile_policy = "always";
  EXPECT_TRUE(profile_due(TaskState{}, o, "gemm", Stage::kOptimize));
}

}  // namespace
}  // namespace cutegen
