// Drives `cutegen prompt` through the real binary and bridge: every stage renders, with the
// model's numbers and the precision contract, placeholders where a stage's inputs are absent,
// the given files where present, and eager's time from a cached baseline.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/hash.h"
#include "core/strings.h"
#include "eval/evaluator.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "sys/subprocess.h"
#include "task/loader.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

const std::string kRoot = CUTEGEN_SOURCE_DIR;
const std::string kTask = kRoot + "/tasks/linear_multiply_leaky.py";

class PromptCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cutegen-prompt-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // Run with a private cache, so no baseline measured on this machine leaks in.
  ProcessResult prompt(std::vector<std::string> args) {
    args.insert(args.begin(), {std::getenv("CUTEGEN_BIN"), "--set", "build.cache_dir=" + cache(), "prompt"});
    auto r = run_process({.argv = args, .timeout = std::chrono::seconds(300)});
    EXPECT_TRUE(r.ok()) << r.message();
    return *r;
  }
  nlohmann::json prompt_json(std::vector<std::string> args) {
    args.push_back("--json");
    auto r = prompt(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  }
  std::string cache() const { return (dir_ / "cache").string(); }
  std::string file(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    EXPECT_TRUE(write_file_atomic(path, text).ok());
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(PromptCommandTest, EveryStageRendersWithNumbersAndPlaceholders) {
  struct Case {
    const char* stage;
    const char* template_name;
    bool precision;
    const char* placeholder;  // what stands in for the absent input, or nullptr
  };
  for (auto& c : {Case{"generate", "generate", true, nullptr},
                  Case{"repair_compile", "repair_compile", false, "[placeholder: the condensed compiler errors"},
                  Case{"repair_wrong", "repair_wrong", true, "[placeholder: the evaluator's report"},
                  // The workload class picks which optimize_ template (agent/workload.cc).
                  Case{"optimize", "optimize_", true, "// [placeholder: the best verified kernel"},
                  Case{"tune", "tune", false, "// [placeholder: the best verified kernel"}}) {
    SCOPED_TRACE(c.stage);
    auto j = prompt_json({kTask, "--stage", c.stage});
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["stage"], c.stage);
    std::string name = j["template"], system = j["system"], user = j["user"];
    EXPECT_TRUE(std::string(c.template_name).ends_with("_") ? name.starts_with(c.template_name)
                                                            : name == c.template_name)
        << name;
    EXPECT_TRUE(contains(system, "SM90")) << system.substr(0, 400);
    EXPECT_TRUE(user.starts_with("<!-- prompt: " + name + " v")) << user.substr(0, 100);
    EXPECT_TRUE(contains(user, "extern \"C\" void cutegen_forward("));
    EXPECT_TRUE(contains(user, "constexpr double multiplier = 2.0;"));
    EXPECT_TRUE(contains(user, "- `cutegen_abi::negative_slope` = 0.1 (double; constructor argument negative_slope)"));
    EXPECT_TRUE(contains(user, "step 1 of at most 12"));
    EXPECT_EQ(contains(user, "## The precision contract"), c.precision);
    EXPECT_EQ(contains(user, "Eager's measured error: unknown (no GPU measurement cached)"), c.precision);
    EXPECT_EQ(contains(user, c.placeholder ? c.placeholder : "[placeholder:"), c.placeholder != nullptr) << user;
    EXPECT_FALSE(contains(user, "{{")) << "every variable filled";
  }
}

TEST_F(PromptCommandTest, PlainTextShowsBothPromptsAndTheGivenFiles) {
  std::string kernel = file("k.cu", "// my failing kernel\n__global__ void k() {}\n");
  std::string diag = file("d.txt", "k.cu:2: error: identifier \"tile\" is undefined\n");
  auto r = prompt({kTask, "--stage", "repair_compile", "--kernel", kernel, "--diagnostics", diag});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("===== system (prompts/system.md) =====\n")) << r.out.substr(0, 200);
  EXPECT_LT(r.out.find("===== system"), r.out.find("===== user (prompts/repair_compile.md) ====="));
  EXPECT_TRUE(contains(r.out, "// my failing kernel"));
  EXPECT_TRUE(contains(r.out, "identifier \"tile\" is undefined"));
  EXPECT_FALSE(contains(r.out, "[placeholder:"));
}

TEST_F(PromptCommandTest, EagerAndFloorFromACachedBaseline) {
  // What `cutegen run` leaves behind: the worker's baseline answer for this spec, and the GPU's ceilings.
  auto spec = load_task_spec(kTask, python_executable(""), 0, std::chrono::seconds(300));
  ASSERT_TRUE(spec.ok()) << spec.message();
  std::filesystem::create_directories(cache() + "/eval");
  std::filesystem::create_directories(cache() + "/ceilings");
  file("cache/eval/baseline-" + hash_hex(spec->json) + ".json",
       R"({"device": {"name": "NVIDIA H200"}, "timing": {"ms": {"eager": [2.0, 1.25, 1.5]}}, "eager_rel_err": 3e-6,
           "tf32_rel_err": 2.8e-4})");
  Ceilings c{.device = "NVIDIA H200",
             .copy_bytes_per_s = 4e12,
             .bf16_flops_per_s = 8e14,
             .fp16_flops_per_s = 8e14,
             .tf32_flops_per_s = 4e14,
             .fp32_flops_per_s = 5e13};
  ASSERT_TRUE(write_file_atomic(ceilings_cache_path(cache() + "/ceilings", c.device), to_json(c).dump()).ok());
  auto floor = roofline(static_cast<double>(spec->min_bytes), static_cast<double>(spec->flops), "float32", c);
  char expected[128];
  std::snprintf(expected, sizeof expected,
                "Eager PyTorch takes 1.5000 ms; the roofline floor for this task is %.4f ms (%s-bound).",
                floor.floor_ms, name(floor.bound));
  auto j = prompt_json({kTask});
  EXPECT_TRUE(contains(j["user"].get<std::string>(), expected)) << expected << "\n" << j["user"];
  EXPECT_TRUE(contains(j["user"].get<std::string>(), "Eager's measured error: 3.00e-06")) << j["user"];
  EXPECT_TRUE(contains(j["user"].get<std::string>(), "measured: 2.80e-04, over the limit")) << j["user"];
  // Without the cache: unknown, said plainly.
  std::filesystem::remove_all(cache());
  auto none = prompt_json({kTask});
  EXPECT_TRUE(contains(none["user"].get<std::string>(),
                       "Eager PyTorch takes unknown (no GPU measurement cached); the roofline floor for this task is "
                       "unknown (no GPU measurement cached)."));
}

TEST_F(PromptCommandTest, BadArgumentsAreOneClearLine) {
  std::string kernel = file("k.cu", "// k\n");
  struct Case {
    std::vector<std::string> args;
    const char* needle;
  };
  for (auto& c : {Case{{kTask, "--stage", "polish"}, "--stage: unknown stage 'polish'"},
                  Case{{kTask, "--kernel", kernel}, "--kernel: the generate prompt shows no kernel"},
                  Case{{kTask, "--stage", "tune", "--diagnostics", kernel}, "--diagnostics: only the repair stages"},
                  Case{{kTask, "--stage", "tune", "--kernel", "/nonexistent/k.cu"}, "--kernel /nonexistent/k.cu:"},
                  Case{{kRoot + "/src/task/testdata/no_model.py"}, "defines no `Model`"}}) {
    auto r = prompt(c.args);
    EXPECT_NE(r.exit_code, 0) << c.needle;
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(contains(r.err, c.needle)) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out.substr(0, 200);
  }
}

}  // namespace
}  // namespace cutegen
