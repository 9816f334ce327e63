// Drives the real cutegen binary: bad input must give one clear line and a non-zero exit.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"
#include "core/strings.h"
#include "eval/evaluator.h"
#include "sys/fs.h"
#include "sys/gpu.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

ProcessResult cutegen(std::vector<std::string> args) {
  args.insert(args.begin(), std::getenv("CUTEGEN_BIN"));
  auto r = run_process({.argv = args, .timeout = std::chrono::seconds(300)});
  EXPECT_TRUE(r.ok()) << r.message();
  return *r;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cutegen-cli-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    auto p = (dir_ / name).string();
    EXPECT_TRUE(write_file_atomic(p, text).ok());
    return p;
  }
  std::filesystem::path dir_;
};

void expect_one_line_error(const ProcessResult& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST_F(CliTest, BuildRejectsBadInput) {
  expect_one_line_error(cutegen({"build", (dir_ / "missing.cu").string()}), "no such file");
  expect_one_line_error(cutegen({"build", file("empty.cu", "  \n")}), "file is empty");
  expect_one_line_error(cutegen({"build", file("task.py", "import torch\nclass Model(nn.Module):\n  pass\n")}),
                        "looks like Python");
  expect_one_line_error(cutegen({"build", file("blob.cu", std::string("\x7f"
                                                                      "ELF\0\0",
                                                                      6))}),
                        "binary file");
  expect_one_line_error(cutegen({"build", file("plain.cu", "int main() { return 0; }\n")}), "no __global__");
}

TEST_F(CliTest, UnwritableCacheDirIsOneLine) {
  // A path below a regular file cannot be created, even by root.
  auto blocker = file("blocker", "x");
  auto src = std::string(CUTEGEN_SOURCE_DIR) + "/src/build/testdata/scale.cu";
  expect_one_line_error(cutegen({"--set", "build.cache_dir=" + blocker + "/cache", "build", src}),
                        "cannot create directory");
}

TEST_F(CliTest, BadConfigIsOneLine) {
  expect_one_line_error(cutegen({"--config", file("c.toml", "[build]\narhc = 'sm_90a'\n"), "config"}),
                        "unknown key 'build.arhc'");
  expect_one_line_error(cutegen({"--config", file("d.toml", "[build\n"), "config"}), "d.toml:");
  expect_one_line_error(cutegen({"--set", "eval.trials", "config"}), "key=value");
}

TEST_F(CliTest, DoctorReportsEachCheck) {
  auto r = cutegen({"doctor"});
  for (auto name : {"nvcc", "CUTLASS/CuTe", "host compiler", "GPU", "Nsight Compute", "Python + torch"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("CUTLASS 4.2.0"), std::string::npos) << r.out;
  if (r.out.find("no NVIDIA GPU") != std::string::npos) {
    EXPECT_EQ(r.exit_code, kExitEnvironment) << "no GPU blocks the main job";
  }
}

TEST_F(CliTest, UnknownCommandIsNamedWithTheCommands) {
  auto r = cutegen({"nosuchcmd"});
  EXPECT_EQ(r.exit_code, kExitInput);
  expect_one_line_error(r, "unknown command 'nosuchcmd'; commands: build, doctor, task, eval");
  EXPECT_TRUE(contains(r.err, "config")) << r.err;
}

TEST_F(CliTest, MissingFileIsAnInputErrorForEveryCommand) {
  std::string missing = (dir_ / "missing.py").string();
  for (auto args : std::vector<std::vector<std::string>>{{"task", missing},
                                                         {"build", (dir_ / "missing.cu").string()},
                                                         {"expert", missing},
                                                         {"eval", missing, (dir_ / "missing.cu").string()},
                                                         {"run", missing, "--agent", "expert"}}) {
    auto r = cutegen(args);
    EXPECT_EQ(r.exit_code, kExitInput) << args[0] << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "missing.")) << args[0] << ": " << r.err;
  }
}

// Under --json, before or after the subcommand, an error is one JSON object on stdout.
TEST_F(CliTest, JsonErrorsAreOneObjectOnStdout) {
  auto missing = (dir_ / "missing.cu").string();
  for (auto args : std::vector<std::vector<std::string>>{{"--json", "build", missing}, {"build", missing, "--json"}}) {
    auto r = cutegen(args);
    EXPECT_EQ(r.exit_code, kExitInput);
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["exit_code"], kExitInput) << r.out;
    EXPECT_TRUE(contains(j["error"].get<std::string>(), "missing.cu: no such file")) << r.out;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
  auto flag = cutegen({"build", missing, "--no-such-flag", "--json"});
  EXPECT_EQ(flag.exit_code, kExitInput);
  EXPECT_TRUE(contains(nlohmann::json::parse(flag.out)["error"].get<std::string>(), "--no-such-flag")) << flag.out;
  auto unknown = cutegen({"--json", "nosuchcmd"});
  EXPECT_EQ(nlohmann::json::parse(unknown.out)["exit_code"], kExitInput) << unknown.out;
}

TEST_F(CliTest, EvalSaysNoGpuBeforeCompiling) {
  auto gpus = query_gpus();
  if (gpus.ok() && !gpus->empty()) GTEST_SKIP() << "this machine has a GPU";
  auto kernel = std::string(CUTEGEN_SOURCE_DIR) + "/src/build/testdata/scale.cu";
  auto r = cutegen({"--set", "build.cache_dir=" + (dir_ / "cache").string(), "eval",
                    std::string(CUTEGEN_SOURCE_DIR) + "/tasks/relu.py", kernel});
  EXPECT_EQ(r.exit_code, kExitEnvironment);
  expect_one_line_error(r, "no NVIDIA GPU on this machine: cutegen eval needs one");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "cache" / "builds")) << "nothing was compiled";
}

TEST_F(CliTest, ExpertDeclineNamesTheWayForwardAndKeepsItsReasonsForVerbose) {
  auto task = std::string(CUTEGEN_SOURCE_DIR) + "/tests/gemm_tasks/mm_bf16_odd.py";
  auto r = cutegen({"expert", task});
  EXPECT_EQ(r.exit_code, kExitNegative) << r.err;
  expect_one_line_error(r, "no built-in template for this task; give a model with `--llm SPEC` (e.g. --llm ");
  EXPECT_FALSE(contains(r.err, "elementwise:")) << "the recognizers' reasons only under --verbose: " << r.err;
  // What the expert did recognize is said either way.
  EXPECT_TRUE(contains(r.err, "; GEMM recognized: gemm bfloat16 (native): M=1000 N=777 K=515")) << r.err;
  EXPECT_TRUE(contains(r.err, "no padded copy is emitted); --verbose shows")) << r.err;
  auto v = cutegen({"--verbose", "expert", task});
  EXPECT_EQ(v.exit_code, kExitNegative);
  EXPECT_TRUE(contains(v.err, "the expert's reasons: ")) << v.err;
  EXPECT_TRUE(contains(v.err, "elementwise:")) << v.err;
}

// A hand-given point its strategy cannot take is refused with the reason, not emitted without it.
TEST_F(CliTest, ExpertRefusesAPointItsStrategyDoesNotTake) {
  auto task = std::string(CUTEGEN_SOURCE_DIR) + "/tasks/relu.py";
  auto r = cutegen({"expert", task, "--params", "tile_m=256", "--emit"});
  EXPECT_EQ(r.exit_code, kExitInput) << r.err;
  expect_one_line_error(r, "params: tile_m=256 does not apply to elementwise");
  EXPECT_TRUE(r.out.empty()) << "no kernel printed";
  auto ok = cutegen({"expert", task, "--params", "threads=128", "--emit"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

// The expert sizes kernels by the build target's limits: sm_80's A100 opts into 163 KB of shared
// memory per CTA where sm_90a's H100/H200 take 227 KB, so a held-row point of the long LayerNorm drops out.
TEST_F(CliTest, ExpertSpaceFollowsTheBuildTargetsLimits) {
  auto task = std::string(CUTEGEN_SOURCE_DIR) + "/tasks/layernorm_long.py";
  auto hopper = cutegen({"--set", "build.arch=sm_90a", "expert", task, "--space"});
  auto ampere = cutegen({"--set", "build.arch=sm_80", "expert", task, "--space"});
  ASSERT_EQ(hopper.exit_code, 0) << hopper.err;
  ASSERT_EQ(ampere.exit_code, 0) << ampere.err;
  auto count = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_LT(count(ampere.out), count(hopper.out));
}

// exit_codes.h is the one table: the README shows it row for row, and eval's verdict codes agree.
TEST(ExitCodes, ReadmeShowsTheTable) {
  auto readme = *read_file(std::string(CUTEGEN_SOURCE_DIR) + "/README.md");
  for (auto& row : exit_code_table())
    EXPECT_TRUE(contains(readme, "| " + std::to_string(row.code) + " | " + row.meaning + " |")) << row.meaning;
}

TEST(ExitCodes, VerdictsExitAsEvalSays) {
  struct Pair {
    Verdict v;
    ExitCode code;
  };
  for (auto [v, code] :
       {Pair{Verdict::kPass, kExitOk}, Pair{Verdict::kWrong, kExitNegative}, Pair{Verdict::kRejected, kExitRejected},
        Pair{Verdict::kTimeout, kExitTimeout}, Pair{Verdict::kCompileError, kExitNegative},
        Pair{Verdict::kFault, kExitNegative}, Pair{Verdict::kSetupError, kExitInput}})
    EXPECT_EQ(code_for_verdict(v), code) << name(v);
}

TEST(ExitCodes, MissingPiecesOfTheMachineAreEnvironment) {
  EXPECT_EQ(code_for_error("nvcc not found (tried CUDA_HOME, PATH)"), kExitEnvironment);
  EXPECT_EQ(code_for_error("relu: cannot run Python 'python3': no such file"), kExitEnvironment);
  EXPECT_EQ(code_for_error("python3: cannot import torch (No module named 'torch')"), kExitEnvironment);
  EXPECT_EQ(code_for_error("x.py: no such file"), kExitInput);
  EXPECT_EQ(code_for_error("unknown key 'build.arhc'"), kExitInput);
}

}  // namespace
}  // namespace cutegen
