// Drives the real binary: a recorded session, its replay killed with SIGKILL at random points and
// resumed until done (same final state as the uninterrupted run), and the bad inputs.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "core/strings.h"
#include "store/run_store.h"
#include "store/run_view.h"
#include "sys/fs.h"
#include "sys/gpu.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

const std::string kSrc = CUTEGEN_SOURCE_DIR;
const std::string kSession = kSrc + "/tests/agent/relu_session";

class RunCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cutegen-run-XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  ProcessResult cutegen(std::vector<std::string> args, int timeout_ms = 60000, const std::string& eval_script = "") {
    std::vector<std::string> argv = {
        std::getenv("CUTEGEN_BIN"), "--set",
        "agent.evaluator=scripted:" + (eval_script.empty() ? kSession + "/evaluator.json" : eval_script),
        "agent.profiler=scripted", "store.dir=" + dir_};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_process({.argv = argv, .cwd = kSrc, .timeout = std::chrono::milliseconds(timeout_ms)});
    EXPECT_TRUE(r.ok()) << r.message();
    return *r;
  }
  ProcessResult record(const std::string& id) {
    return cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "llm", "--llm",
                    "command:sh " + kSession + "/answer.sh", "--max-steps", "8", "--run-id", id});
  }
  std::vector<std::string> state(const std::string& id) {
    auto s = RunStore::open_readonly(dir_ + "/" + id);
    EXPECT_TRUE(s.ok()) << s.message();
    std::vector<std::string> out;
    auto tasks = *s->tasks();
    auto steps = *s->steps("relu");
    if (tasks.empty()) return out;
    for (auto& t : tasks)
      out.push_back(t.name + " " + name(t.status) + " " + std::to_string(t.best_step) + " " + t.final_json);
    for (auto& r : steps)
      out.push_back(std::to_string(r.step) + " " + name(r.stage) + " " + step_verdict_name(r) + " " + name(r.outcome) +
                    " " + std::to_string(r.parent) + " " + (r.profiled ? "profiled " : "") + r.source);
    return out;
  }
  // Every task and step of a run read as one, whether it ran in one process or in shards.
  std::vector<std::string> view_state(const std::string& id) {
    auto v = RunView::open(dir_ + "/" + id);
    EXPECT_TRUE(v.ok()) << v.message();
    std::vector<std::string> out;
    if (!v.ok()) return out;
    auto tasks = *v->tasks();
    for (auto& t : tasks) {
      out.push_back(t.name + " " + name(t.status) + " " + std::to_string(t.best_step) + " " + t.final_json);
      auto steps = *v->steps(t.name);
      for (auto& r : steps)
        out.push_back(t.name + " " + std::to_string(r.step) + " " + name(r.stage) + " " + step_verdict_name(r) + " " +
                      name(r.outcome) + " " + r.edit + " " + r.source);
    }
    return out;
  }
  // Killed while `run` was creating the run: the folder is renamed into place only once the run and
  // its tasks are written, so either there is no run yet (start again) or there is a whole one.
  bool not_created(const std::string& id) { return !file_exists(dir_ + "/" + id + "/run.db"); }
  // Starts a run with `start(timeout_ms)` and resumes it, killing each process at a random point,
  // until one finishes; returns how many processes were killed. A run killed before it existed
  // (the folder appears only once whole) is started again.
  int finish_with_kills(const std::string& id, const std::function<ProcessResult(int)>& start,
                        const std::string& eval_script, std::mt19937& rng) {
    int kills = start(50 + static_cast<int>(rng() % 600)).timed_out ? 1 : 0;
    for (int tries = 0; tries < 40; ++tries) {
      if (not_created(id)) {
        std::filesystem::remove_all(dir_ + "/" + id);
        auto again = start(50 + static_cast<int>(rng() % 600));
        kills += again.timed_out;
        if (!again.timed_out) break;
        continue;
      }
      auto r = cutegen({"resume", id}, tries < 6 ? 80 + static_cast<int>(rng() % 400) : 60000, eval_script);
      if (r.timed_out) {
        ++kills;
        continue;
      }
      EXPECT_EQ(r.exit_code, 0) << r.err;
      break;
    }
    return kills;
  }

  std::string dir_;
};

TEST_F(RunCommandTest, RecordedSessionRepairsOptimizesRevertsAndSummarises) {
  auto r = record("r0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "relu")) << r.out;
  auto md = *read_file(dir_ + "/r0/summary.md");
  EXPECT_TRUE(contains(md, "| 1 | generate | whole_file | compile_error |")) << md;
  EXPECT_TRUE(contains(md, "| 2 | repair_compile | exact | wrong |")) << md;
  EXPECT_TRUE(contains(md, "| 3 | repair_wrong | exact | pass | 1.10x | 62% | accepted |")) << md;
  EXPECT_TRUE(contains(md, "regression: 1.05x vs best 1.18x")) << md;
  EXPECT_TRUE(file_exists(dir_ + "/r0/transcript.jsonl"));

  auto ex = cutegen({"export", "r0", "relu", "--out", dir_ + "/export"});
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  auto cu = *read_file(dir_ + "/export/relu_cutegen.cu");
  EXPECT_LT(cu.find("float* out,  // output out"), cu.find("cutegen-demo v3"));  // the ABI header first
  EXPECT_TRUE(contains(cu, "cutegen-demo v3"));
  auto py = *read_file(dir_ + "/export/relu_model_new.py");
  EXPECT_TRUE(contains(py, "class ModelNew(_reference_model())"));
  EXPECT_TRUE(contains(py, "-gencode=arch=compute_90a,code=sm_90a"));
  EXPECT_TRUE(contains(py, "CUTEGEN_CUTLASS_DIR"));
  EXPECT_TRUE(contains(py, "torch.cuda.current_stream().cuda_stream"));

  auto re = cutegen({"--json", "reeval", "r0"});
  ASSERT_EQ(re.exit_code, 0) << re.err;
  EXPECT_TRUE(contains(re.out, "\"recorded_speedup\": 1.18")) << re.out;
  EXPECT_TRUE(contains(re.err, "with the evaluator scripted:" + kSession + "/evaluator.json")) << re.err;
}

TEST_F(RunCommandTest, ReevalSaysItsEvaluatorAndFailsWhenTheMeasurementCannotRun) {
  ASSERT_EQ(record("r0").exit_code, 0);
  std::string broken = dir_ + "/setup_error.json";  // every source: the worker could not be set up
  ASSERT_TRUE(write_file_atomic(broken, R"({"rules": [{"match": "", "verdict": "setup_error",
                                            "summary": "scripted: the worker could not start"}]})")
                  .ok());
  auto re = cutegen({"reeval", "r0", "--evaluator", "scripted:" + broken});
  EXPECT_EQ(re.exit_code, 2) << re.err;  // eval's code for setup_error (exit_codes.h)
  EXPECT_TRUE(contains(re.err, "with the evaluator scripted:" + broken + " (--evaluator)")) << re.err;
  EXPECT_TRUE(contains(re.out, "setup_error")) << re.out;
  EXPECT_TRUE(contains(re.out, "the worker could not start")) << re.out;

  std::string wrong = dir_ + "/wrong.json";
  ASSERT_TRUE(write_file_atomic(wrong, R"({"rules": [{"match": "", "verdict": "wrong"}]})").ok());
  EXPECT_EQ(cutegen({"reeval", "r0", "--evaluator", "scripted:" + wrong}).exit_code, 1);
  auto bad = cutegen({"reeval", "r0", "--evaluator", "gpu-please"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "agent.evaluator: expected real or scripted:FILE")) << bad.err;
}

TEST_F(RunCommandTest, ReplayKilledAtRandomPointsResumesToTheSameState) {
  ASSERT_EQ(record("r0").exit_code, 0);
  auto want = state("r0");
  // A slow evaluator widens the windows between transitions; kills land anywhere.
  std::string slow = dir_ + "/slow.json";
  ASSERT_TRUE(write_file_atomic(
                  slow, replace_all(*read_file(kSession + "/evaluator.json"), "\"delay_ms\": 0", "\"delay_ms\": 60"))
                  .ok());
  std::mt19937 rng(12345);
  for (int round = 0; round < 3; ++round) {
    std::string id = "k" + std::to_string(round);
    int kills = finish_with_kills(
        id,
        [&](int ms) {
          return cutegen({"replay", "r0", "--run-id", id}, ms, slow);
        },
        slow, rng);
    EXPECT_GT(kills, 0) << "round " << round << " was never interrupted";
    EXPECT_EQ(state(id), want) << "round " << round;
  }
}

TEST_F(RunCommandTest, BadInputsAreClearErrors) {
  auto unknown = cutegen({"run", "no/such/task.py", "--llm", "replay:x"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.err, "no/such/task.py: no such task file or folder")) << unknown.err;

  unsetenv("OPENAI_API_KEY");
  auto nokey = cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--llm", "openai:gpt-5", "--run-id", "nk"});
  EXPECT_EQ(nokey.exit_code, 2);
  EXPECT_TRUE(contains(nokey.err, "OPENAI_API_KEY")) << nokey.err;

  auto nomodel = cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "llm", "--run-id", "nm"});
  EXPECT_TRUE(contains(nomodel.err, "no model for the generator role")) << nomodel.err;

  ASSERT_TRUE(make_dirs(dir_ + "/bad").ok());
  ASSERT_TRUE(write_file_atomic(dir_ + "/bad/run.db", "this is not a database, but it is someone's file\n").ok());
  auto corrupt = cutegen({"resume", "bad"});
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_TRUE(contains(corrupt.err, "not a CuTeGen run file")) << corrupt.err;
  EXPECT_EQ(*read_file(dir_ + "/bad/run.db"), "this is not a database, but it is someone's file\n");

  ASSERT_EQ(record("r0").exit_code, 0);
  auto before = state("r0");
  {
    auto held = RunStore::open(dir_ + "/r0");  // another process's lock, as far as flock is concerned
    ASSERT_TRUE(held.ok());
    auto second = cutegen({"resume", "r0"});
    EXPECT_EQ(second.exit_code, 2);
    EXPECT_TRUE(contains(second.err, "is in use by another cutegen process")) << second.err;
  }
  EXPECT_EQ(state("r0"), before);
}

TEST_F(RunCommandTest, FileBackendWaitsWithExitCodeSixAndResumes) {
  std::string queue = dir_ + "/queue";
  auto r = cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "llm", "--llm", "file:" + queue,
                    "--max-steps", "1", "--run-id", "w"});
  ASSERT_EQ(r.exit_code, 6) << r.err;
  EXPECT_TRUE(contains(r.err, "waiting for a model's answer")) << r.err;
  std::string answer_path;
  for (auto& e : std::filesystem::directory_iterator(queue))
    if (e.path().string().ends_with(".prompt.md"))
      answer_path = replace_all(e.path().string(), ".prompt.md", ".answer.md");
  ASSERT_FALSE(answer_path.empty());
  ASSERT_TRUE(write_file_atomic(answer_path, *read_file(kSession + "/generate.md")).ok());
  auto done = cutegen({"resume", "w"});
  EXPECT_EQ(done.exit_code, 1) << done.err;  // one step, a compile error: no verified kernel
  EXPECT_TRUE(contains(*read_file(dir_ + "/w/summary.md"), "| 1 | generate | whole_file | compile_error |"));
}

const std::string kExpertEval = kSrc + "/tests/agent/expert/evaluator.json";

TEST_F(RunCommandTest, ExpertNeedsNoModelDeclinesWhatItCannotDoAndMovesOn) {
  auto r = cutegen({"run", kSrc + "/tests/fixtures/gemm_specs/linear_dropout.json",
                    kSrc + "/tests/fixtures/specs/relu.json", "--max-steps", "8", "--run-id", "e"},
                   60000, kExpertEval);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // a GEMM followed by dropout has no kernel; relu does
  EXPECT_TRUE(contains(r.err, "(agent: expert)")) << r.err;
  auto s = *RunStore::open_readonly(dir_ + "/e");
  auto tasks = *s.tasks();
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].status, TaskStatus::kFailed);
  EXPECT_TRUE(contains(tasks[0].stop_reason, "no template for this task")) << tasks[0].stop_reason;
  EXPECT_TRUE(contains(tasks[0].stop_reason, "configure an LLM")) << tasks[0].stop_reason;
  EXPECT_TRUE(contains(r.out, "no built-in template for this task; give a model with `--llm SPEC`")) << r.out;
  EXPECT_FALSE(contains(r.out, "elementwise:")) << "the recognizers' reasons stay in summary.md and --verbose";
  EXPECT_EQ(tasks[1].status, TaskStatus::kDone);
  EXPECT_TRUE(contains(tasks[1].final_json, "\"speedup\":1.8")) << tasks[1].final_json;
  EXPECT_TRUE(contains(s.meta()->config, "agent.mode = expert"));
  auto md = *read_file(dir_ + "/e/summary.md");
  EXPECT_TRUE(contains(md, "Model: `expert (built-in CuTe templates)`")) << md;
  EXPECT_TRUE(contains(
      md,
      "| 1 | generate | expert threads=256,vec=4,unroll=1,blocks_per_sm=0,split=1,group=1,strategy=elementwise | pass "
      "| 1.00x | 33% | accepted |"))
      << md;
}

TEST_F(RunCommandTest, ExpertRunKilledAtRandomPointsResumesToTheSameTrajectory) {
  auto run = [&](const std::string& id, int timeout_ms, const std::string& script) {
    return cutegen(
        {"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "expert", "--max-steps", "8", "--run-id", id},
        timeout_ms, script);
  };
  ASSERT_EQ(run("e0", 60000, kExpertEval).exit_code, 0);
  auto want = state("e0");
  ASSERT_GE(want.size(), 9u);
  std::string slow = dir_ + "/slow.json";
  ASSERT_TRUE(
      write_file_atomic(slow, replace_all(*read_file(kExpertEval), "\"delay_ms\": 0", "\"delay_ms\": 150")).ok());
  std::mt19937 rng(777);  // nine evaluations of 150 ms: the first run always outlives its 50-650 ms
  for (int round = 0; round < 3; ++round) {
    std::string id = "ek" + std::to_string(round);
    int kills = finish_with_kills(
        id, [&](int ms) { return run(id, ms, slow); }, slow, rng);
    EXPECT_GT(kills, 0) << "round " << round << " was never interrupted";
    EXPECT_EQ(state(id), want) << "round " << round;
  }
}

// A run the schema-1 cutegen wrote and was killed in (tests/fixtures/runs/README.md) resumes on the
// trajectory a run of this version takes from the start: its points and verdicts read back typed.
TEST_F(RunCommandTest, ASchema1ExpertRunResumesOnTheSameTrajectory) {
  std::filesystem::create_directories(dir_ + "/old");
  std::filesystem::copy_file(kSrc + "/tests/fixtures/runs/schema1_expert_relu/run.db", dir_ + "/old/run.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ + "/old/run.db").c_str(), &db), SQLITE_OK);
  std::string here = "UPDATE tasks SET path = '" + kSrc + "/tests/fixtures/specs/relu.json'";
  ASSERT_EQ(sqlite3_exec(db, here.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto resumed = cutegen({"resume", "old"}, 60000, kExpertEval);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  auto fresh = cutegen({"--set", "agent.profile_policy=always", "run", kSrc + "/tests/fixtures/specs/relu.json",
                        "--agent", "expert", "--max-steps", "8", "--run-id", "new"},
                       60000, kExpertEval);
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  auto trajectory = [&](const std::string& id) {
    std::vector<std::string> out;
    auto s = *RunStore::open_readonly(dir_ + "/" + id);
    auto tasks = *s.tasks();
    auto steps = *s.steps("relu");
    for (auto& t : tasks)
      out.push_back(t.name + " " + name(t.status) + " " + std::to_string(t.best_step));
    for (auto& r : steps) {
      // The old steps keep their stored spelling; for an elementwise point it means this one.
      std::string point = r.point;
      if (auto at = point.find(",passes=2,cluster=0,regs=0"); at != std::string::npos)
        point.replace(at, std::string(",passes=2,cluster=0,regs=0").size(), ",group=1,strategy=elementwise");
      out.push_back(name(r.stage) + (" " + point) + " " + step_verdict_name(r) + " " + name(r.outcome) +
                    (r.profiled ? " profiled" : ""));
    }
    return out;
  };
  auto want = trajectory("new");
  ASSERT_EQ(want.size(), 9u);  // the task and its eight steps
  EXPECT_EQ(trajectory("old"), want);
}

// One task per workload class from its recorded spec: after a first verified kernel the model gets
// its class's optimize template (the transcript holds every prompt it was sent).
TEST_F(RunCommandTest, EachWorkloadClassGetsItsOptimizePrompt) {
  std::string eval = dir_ + "/class_eval.json";
  ASSERT_TRUE(write_file_atomic(eval, R"({"eager_ms": 1.0, "floor_ms": 0.5, "bound": "memory", "rules": [
    {"match": "cutegen_forward", "verdict": "pass", "summary": "correct, 1.10x", "speedup": 1.1, "roofline_fraction": 0.5}]})")
                  .ok());
  for (auto [task, templ] : {std::pair{"matmul_fp32", "optimize_gemm"},
                             {"softmax", "optimize_reduction"},
                             {"relu", "optimize_elementwise"}}) {
    std::string id = std::string("class-") + task;
    auto r = cutegen(
        {"run", kSrc + "/tests/fixtures/specs/" + task + ".json", "--agent", "llm", "--llm",
         "command:sh " + kSrc + "/tests/agent/class_session/answer.sh " + kSrc + "/tests/gpu/relu/honest_relu.cu",
         "--max-steps", "2", "--run-id", id},
        60000, eval);
    ASSERT_EQ(r.exit_code, 0) << task << ": " << r.err;
    std::string transcript = *read_file(dir_ + "/" + id + "/transcript.jsonl");
    EXPECT_TRUE(contains(transcript, "prompt: generate")) << task;
    EXPECT_TRUE(contains(transcript, std::string("prompt: ") + templ)) << task << " wants " << templ;
    for (auto other : {"optimize_gemm", "optimize_reduction", "optimize_elementwise"})
      if (std::string(other) != templ) {
        EXPECT_FALSE(contains(transcript, std::string("prompt: ") + other)) << task;
      }
  }
}

TEST_F(RunCommandTest, HybridGivesTheExpertsBestToTheModelAndReplaysTheSame) {
  auto r = cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--llm",
                    "command:sh " + kSrc + "/tests/agent/expert/hybrid_answer.sh", "--max-steps", "6", "--run-id", "h"},
                   60000, kExpertEval);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "(agent: hybrid)")) << r.err;  // a model configured: hybrid by default
  auto s = *RunStore::open_readonly(dir_ + "/h");
  auto steps = *s.steps("relu");
  ASSERT_EQ(steps.size(), 6u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(steps[i].edit_how, EditHow::kExpert) << i;
  EXPECT_EQ(steps[3].edit_how, EditHow::kWholeFile);
  EXPECT_EQ(steps[3].parent, 2);
  EXPECT_EQ(steps[3].outcome, StepOutcome::kAccepted);
  EXPECT_EQ(s.tasks()->at(0).best_step, 3);
  EXPECT_TRUE(contains(*read_file(dir_ + "/h/summary.md"), "Model: `expert, then command:sh"));

  auto again = cutegen({"replay", "h", "--run-id", "h2"}, 60000, kExpertEval);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto a = state("h"), b = state("h2");
  EXPECT_EQ(a, b);
}

// A folder holding the expert's relu spec (its reference made absolute) and broken task files.
std::string task_folder(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& bad) {
  EXPECT_TRUE(make_dirs(dir).ok());
  auto spec = replace_all(*read_file(kSrc + "/tests/fixtures/specs/relu.json"), "../../../tasks/relu.py",
                          kSrc + "/tasks/relu.py");
  EXPECT_TRUE(write_file_atomic(dir + "/relu_spec.json", spec).ok());
  for (auto& [name, text] : bad)
    EXPECT_TRUE(write_file_atomic(dir + "/" + name, text).ok());
  return dir;
}

const std::string kSyntaxError = "import torch\ndef get_inputs(:\n";
const std::string kRaises =
    "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
    "def get_inputs():\n    raise RuntimeError('no inputs today')\ndef get_init_inputs():\n    return []\n";

TEST_F(RunCommandTest, FolderRunRecordsEachBrokenFileAndFinishesWithASummary) {
  auto tasks = task_folder(dir_ + "/tasks", {{"no_model.py", *read_file(kSrc + "/src/task/testdata/no_model.py")},
                                             {"raises.py", kRaises},
                                             {"syntax_error.py", kSyntaxError}});
  auto r = cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "b"}, 120000, kExpertEval);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // some task has no kernel
  auto s = *RunStore::open_readonly(dir_ + "/b");
  auto rows = *s.tasks();
  ASSERT_EQ(rows.size(), 4u);
  std::map<std::string, TaskRow> by;
  for (auto& t : rows)
    by[t.name] = t;
  EXPECT_EQ(by["relu"].status, TaskStatus::kDone);  // after two broken files, before the third
  for (auto* name : {"no_model", "raises", "syntax_error"}) {
    EXPECT_EQ(by[name].status, TaskStatus::kFailed) << name;
    EXPECT_TRUE(by[name].stop_reason.starts_with("cannot load the task: ")) << by[name].stop_reason;
  }
  EXPECT_TRUE(contains(by["no_model"].stop_reason, "defines no `Model`")) << by["no_model"].stop_reason;
  EXPECT_TRUE(contains(by["raises"].stop_reason, "no inputs today")) << by["raises"].stop_reason;
  EXPECT_TRUE(contains(by["syntax_error"].stop_reason, "SyntaxError")) << by["syntax_error"].stop_reason;
  EXPECT_TRUE(contains(r.out, "syntax_error")) << r.out;
  auto md = *read_file(dir_ + "/b/summary.md");
  EXPECT_TRUE(contains(md, "| syntax_error | failed | - | - | - | 0 |")) << md;  // no speedup: dashes
  EXPECT_TRUE(contains(md, "no inputs today")) << md;
  EXPECT_TRUE(contains(md, "| relu | done | pass |")) << md;

  auto again = cutegen({"resume", "b"}, 60000, kExpertEval);  // nothing left to do: the same answer
  EXPECT_EQ(again.exit_code, 1) << again.err;
  EXPECT_EQ(split_lines(*read_file(dir_ + "/b/summary.md")), split_lines(md));
}

TEST_F(RunCommandTest, RunKilledBeforeABrokenFileResumesAfterTheFileIsGone) {
  auto tasks = task_folder(dir_ + "/tasks", {{"syntax_error.py", kSyntaxError}});
  std::string slow = dir_ + "/slow.json";  // nine evaluations of 400 ms: killed well inside relu
  ASSERT_TRUE(
      write_file_atomic(slow, replace_all(*read_file(kExpertEval), "\"delay_ms\": 0", "\"delay_ms\": 400")).ok());
  auto killed = cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "k"}, 1500, slow);
  ASSERT_TRUE(killed.timed_out) << killed.err;
  ASSERT_TRUE(file_exists(dir_ + "/k/run.db")) << killed.err;
  std::filesystem::remove(tasks + "/syntax_error.py");
  auto r = cutegen({"resume", "k"}, 60000, kExpertEval);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto rows = *RunStore::open_readonly(dir_ + "/k")->tasks();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, TaskStatus::kDone);
  EXPECT_EQ(rows[1].status, TaskStatus::kFailed);
  EXPECT_TRUE(contains(rows[1].stop_reason, "syntax_error.py: no such file")) << rows[1].stop_reason;
  EXPECT_TRUE(contains(*read_file(dir_ + "/k/summary.md"), "| syntax_error | failed |"));
}

TEST_F(RunCommandTest, RealEvaluatorWithoutAGpuStopsBeforeTheRunFolder) {
  auto gpus = query_gpus();
  if (gpus.ok() && !gpus->empty()) GTEST_SKIP() << "this machine has a GPU";
  auto r = cutegen({"--set", "agent.evaluator=real", "run", kSrc + "/tests/fixtures/specs/relu.json", "--agent",
                    "expert", "--run-id", "g"});
  EXPECT_EQ(r.exit_code, 5) << r.err;  // environment (exit_codes.h)
  EXPECT_TRUE(contains(r.err, "no NVIDIA GPU on this machine: cutegen run")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/g"));
  // The scripted dry run needs none.
  EXPECT_EQ(cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "expert", "--run-id", "d"}, 60000,
                    kExpertEval)
                .exit_code,
            0);
}

// Three copies of the expert's relu task under other names: a small run of several tasks.
std::string three_tasks(const std::string& dir) {
  EXPECT_TRUE(make_dirs(dir).ok());
  auto spec = replace_all(*read_file(kSrc + "/tests/fixtures/specs/relu.json"), "../../../tasks/relu.py",
                          kSrc + "/tasks/relu.py");
  for (std::string name : {"relu_a", "relu_b", "relu_c"})
    EXPECT_TRUE(write_file_atomic(dir + "/" + name + ".json",
                                  replace_all(spec, "\"name\": \"relu\"", "\"name\": \"" + name + "\""))
                    .ok());
  return dir;
}

std::string slowed(const std::string& dir, int delay_ms) {
  std::string path = dir + "/slow" + std::to_string(delay_ms) + ".json";
  EXPECT_TRUE(write_file_atomic(path, replace_all(*read_file(kExpertEval), "\"delay_ms\": 0",
                                                  "\"delay_ms\": " + std::to_string(delay_ms)))
                  .ok());
  return path;
}

// Fake GPU ids: the scripted evaluator needs none, and each shard records the GPU it was dealt.
TEST_F(RunCommandTest, GpusDealTasksOverTheGpusToTheStateOfOneProcess) {
  auto tasks = three_tasks(dir_ + "/tasks");
  auto one = cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "one"}, 60000, kExpertEval);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto dealt = cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "d", "--gpus", "3,5"}, 60000,
                       slowed(dir_, 30));
  ASSERT_EQ(dealt.exit_code, 0) << dealt.err;
  EXPECT_EQ(view_state("d"), view_state("one"));
  EXPECT_TRUE(contains(dealt.err, "3 tasks over 2 GPUs (3,5)")) << dealt.err;
  EXPECT_TRUE(contains(dealt.err, "[3/3 tasks] gpu3: idle | gpu5: idle | ETA 0s")) << dealt.err;
  std::set<std::string> used;  // both GPUs took a task at once, each with its own eval.gpu
  for (auto* name : {"relu_a", "relu_b", "relu_c"})
    for (auto& line : split_lines(RunStore::open_readonly(dir_ + "/d/shards/" + name)->meta()->config))
      if (line.starts_with("eval.gpu = ")) used.insert(line.substr(11));
  EXPECT_EQ(used, (std::set<std::string>{"3", "5"}));
  auto md = *read_file(dir_ + "/d/summary.md");
  for (auto* name : {"relu_a", "relu_b", "relu_c"})
    EXPECT_TRUE(contains(md, std::string("| ") + name + " | done | pass |")) << md;
  auto ex = cutegen({"export", "d", "relu_b", "--out", dir_ + "/export"});
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  EXPECT_TRUE(file_exists(dir_ + "/export/relu_b_cutegen.cu"));
  auto st = cutegen({"status", "d"});
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_TRUE(contains(st.out, "3 done")) << st.out;
  EXPECT_EQ(cutegen({"resume", "d", "--gpus", "0"}).exit_code, 0);  // nothing left: the same answer
  EXPECT_EQ(view_state("d"), view_state("one"));
}

TEST_F(RunCommandTest, DealtRunKilledAtRandomPointsResumesToTheSameState) {
  auto tasks = three_tasks(dir_ + "/tasks");
  ASSERT_EQ(
      cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "one"}, 60000, kExpertEval).exit_code,
      0);
  auto want = view_state("one");
  std::string slow = slowed(dir_, 100);
  std::mt19937 rng(2028);
  for (int round = 0; round < 2; ++round) {
    std::string id = "dk" + std::to_string(round);
    auto start = [&](int ms) {
      return cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", id, "--gpus", "0,1"}, ms + 300,
                     slow);
    };
    int kills = finish_with_kills(id, start, slow, rng);
    EXPECT_GT(kills, 0) << "round " << round << " was never interrupted";
    EXPECT_EQ(view_state(id), want) << "round " << round;
    EXPECT_TRUE(contains(*read_file(dir_ + "/" + id + "/summary.md"), "| relu_c | done | pass |"));
  }
}

TEST_F(RunCommandTest, GpusOnARunOfOneProcessIsRefused) {
  ASSERT_EQ(cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "expert", "--run-id", "p"}, 60000,
                    kExpertEval)
                .exit_code,
            0);
  auto r = cutegen({"resume", "p", "--gpus", "0,1"}, 60000, kExpertEval);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "ran in one process: resume it without --gpus")) << r.err;
  auto bad =
      cutegen({"run", kSrc + "/tests/fixtures/specs/relu.json", "--agent", "expert", "--gpus", ",", "--run-id", "q"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "--gpus: expected all or a list of GPU indices")) << bad.err;
}

// A real Slurm on this machine (scripts/local-slurm starts one; .ci/run does, and sets
// CUTEGEN_REQUIRE_SLURM=1 so that CI fails rather than skips when it does not answer).
bool slurm_answers() {
  auto r = run_process({.argv = {"sinfo", "-h", "-o", "%t"}, .timeout = std::chrono::seconds(10)});
  return r.ok() && r->success() && !trim(r->out).empty() && !contains(r->out, "down");
}

TEST_F(RunCommandTest, SlurmArrayRunsTheTasksAndResubmitsACancelledJob) {
  if (!slurm_answers()) {
    if (std::getenv("CUTEGEN_REQUIRE_SLURM")) FAIL() << "no Slurm answers sinfo (scripts/local-slurm)";
    GTEST_SKIP() << "no Slurm here (scripts/local-slurm starts one)";
  }
  auto tasks = three_tasks(dir_ + "/tasks");
  ASSERT_EQ(
      cutegen({"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "one"}, 60000, kExpertEval).exit_code,
      0);
  std::string slow = slowed(dir_, 1000);  // nine evaluations of a second a task: cancelled well inside
  auto sub = cutegen(
      {"run", tasks, "--agent", "expert", "--max-steps", "8", "--run-id", "s", "--slurm", "--gpus-per-job", "0"}, 60000,
      slow);
  ASSERT_EQ(sub.exit_code, 0) << sub.err;
  ASSERT_TRUE(contains(sub.err, "submitted 3 tasks as Slurm job ")) << sub.err;
  std::string job = split(sub.err.substr(sub.err.find("Slurm job ") + 10), ' ')[0];
  EXPECT_TRUE(contains(*read_file(dir_ + "/s/slurm/submit-1.sh"), "#SBATCH --array=0-2"));

  auto status = [&]() {
    auto r = cutegen({"--json", "status", "s"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  };
  // Waits until `done(status)` holds, for at most `seconds`.
  auto wait_for = [&](const std::function<bool(const nlohmann::json&)>& done, int seconds) {
    for (int i = 0; i < seconds * 4; ++i) {
      auto j = status();
      if (!j.is_discarded() && done(j)) return j;
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    ADD_FAILURE() << "timed out; status: " << status().dump();
    return status();
  };
  auto count = [](const nlohmann::json& j, const std::string& state) { return j["counts"].value(state, 0); };
  wait_for(
      [](const nlohmann::json& j) {
        for (auto& t : j["tasks"]) {
          if (t["steps"].get<int>() == 0) {
            EXPECT_TRUE(t["best_speedup"].is_null()) << t.dump();  // not 0.00x
          }
          if (t["steps"].get<int>() > 0 && t["state"] == "running") return true;
        }
        return false;
      },
      60);
  auto cancel = run_process({.argv = {"scancel", job}, .timeout = std::chrono::seconds(30)});
  ASSERT_TRUE(cancel.ok() && cancel->success());
  auto stopped = wait_for([&](const nlohmann::json& j) { return count(j, "running") + count(j, "queued") == 0; }, 60);
  EXPECT_LT(count(stopped, "done"), 3) << stopped.dump();
  EXPECT_TRUE(contains(stopped.dump(), "CANCELLED")) << stopped.dump();
  EXPECT_NE(view_state("s"), view_state("one"));

  auto resumed = cutegen({"resume", "s"}, 60000, kExpertEval);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_TRUE(contains(resumed.err, "as Slurm job ")) << resumed.err;
  auto done = wait_for([&](const nlohmann::json& j) { return count(j, "done") == 3; }, 120);
  EXPECT_EQ(view_state("s"), view_state("one"));
  auto again = cutegen({"resume", "s"}, 60000, kExpertEval);
  EXPECT_TRUE(contains(again.err, "nothing to submit")) << again.err;
  auto md = *read_file(dir_ + "/s/summary.md");
  for (auto* name : {"relu_a", "relu_b", "relu_c"})
    EXPECT_TRUE(contains(md, std::string("| ") + name + " | done | pass |")) << md;
}

}  // namespace
}  // namespace cutegen
