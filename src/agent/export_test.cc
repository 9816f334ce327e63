// Integration: the exported ModelNew, checked as KernelBench loads a solution by
// tests/agent/export/kernelbench_check.py under the venv's CPU torch (specs from the real bridge),
// and its embedded kernel built by the real nvcc (no GPU needed for either).
#include "agent/export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "agent/export_model_new.h"
#include "build/toolchain.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "sys/subprocess.h"
#include "task/loader.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

const std::string kRoot = CUTEGEN_SOURCE_DIR;
const std::string kChecker = kRoot + "/tests/agent/export/kernelbench_check.py";

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("cutegen-export-test-" + std::to_string(getpid()))).string();
    ASSERT_TRUE(make_dirs(dir_).ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Exports tasks/<task>.py with `kernel`; returns the ModelNew's path.
  std::string export_task(const std::string& task, const std::string& kernel) {
    auto spec = load_task_spec(kRoot + "/tasks/" + task + ".py", python_executable(""), 0, std::chrono::seconds(300));
    EXPECT_TRUE(spec.ok()) << spec.message();
    if (!spec.ok()) return "";
    auto paths = export_kernel(*spec, kernel, dir_ + "/out");
    EXPECT_TRUE(paths.ok()) << paths.message();
    return paths.ok() ? paths->second : "";
  }

  ProcessResult python(const std::vector<std::string>& args, std::map<std::string, std::string> env = {}) {
    for (auto name : {"PATH", "HOME", "LANG"})
      if (auto v = process_env(name); !v.empty()) env.emplace(name, v);
    env["CUTEGEN_BUILD_CACHE_DIR"] = dir_ + "/cache";
    std::vector<std::string> argv = {python_executable("")};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_process({.argv = argv, .env = env, .timeout = std::chrono::seconds(600)});
    EXPECT_TRUE(r.ok()) << r.message();
    return r.ok() ? *r : ProcessResult{};
  }

  std::string dir_;
};

const std::string kNaiveKernel = kRoot + "/tests/agent/export/linear_bias_relu_naive.cu";

TEST_F(ExportTest, PythonLiteralsHoldAnyTextExactly) {
  const std::string tricky = "a \"quoted\" \\n path\\\nq'''\"\"\" end\r\n\ttab \x01 caf\xc3\xa9 \"";
  ASSERT_TRUE(write_file_atomic(dir_ + "/want.txt", tricky).ok());
  for (bool block : {false, true}) {
    std::string program = "import sys\ntext = " + python_literal(tricky, block) +
                          "\nsys.exit(0 if text.encode() == open(sys.argv[1], 'rb').read() else 1)\n";
    ASSERT_TRUE(write_file_atomic(dir_ + "/check.py", program).ok());
    auto r = python({dir_ + "/check.py", dir_ + "/want.txt"});
    EXPECT_TRUE(r.success()) << (block ? "block" : "line") << ": " << r.err << "\n" << program;
  }
}

TEST_F(ExportTest, LinearBiasReluLoadsTheKernelBenchWayAndChecksItsInputs) {
  auto py = export_task("linear_bias_relu", *read_file(kNaiveKernel));
  ASSERT_FALSE(py.empty());
  EXPECT_TRUE(file_exists(dir_ + "/out/linear_bias_relu_cutegen.cu"));
  auto r = python({kChecker, "cpu", py, kRoot + "/tasks/linear_bias_relu.py"});
  ASSERT_TRUE(r.success()) << r.out << r.err;
  for (auto want :
       {"ok: exec'd from a string without __file__", "ok: embedded sources equal the task file and the .cu",
        "state_dict keys ['linear.weight', 'linear.bias']", "input x: expected dtype torch.float32, got torch.float64",
        "input x: expected shape (4096, 4096) (compiled into the kernel), got (3, 5)",
        "input x: expected strides (4096, 1)", "input x: expected a tensor on a CUDA device, got one on cpu",
        "ok: no build was attempted"})
    EXPECT_TRUE(contains(r.out, want)) << want << "\n" << r.out;
}

TEST_F(ExportTest, LayerNormKeepsTheReferenceStateDict) {
  auto py = export_task("layernorm", "// any kernel: this test never builds it\n");
  ASSERT_FALSE(py.empty());
  auto r = python({kChecker, "cpu", py, kRoot + "/tasks/layernorm.py"});
  ASSERT_TRUE(r.success()) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "state_dict keys ['norm.weight', 'norm.bias'] and values equal")) << r.out;
}

TEST_F(ExportTest, EmbeddedKernelBuildsWithTheRealNvcc) {
  auto cutlass = find_cutlass_include("");
  ASSERT_TRUE(cutlass.ok()) << cutlass.message();
  auto nvcc = find_nvcc();
  ASSERT_TRUE(nvcc.ok()) << nvcc.message();
  auto py = export_task("linear_bias_relu", *read_file(kNaiveKernel));
  ASSERT_FALSE(py.empty());
  auto r = python({kChecker, "build", py, kRoot + "/tasks/linear_bias_relu.py"},
                  {{"CUTEGEN_CUTLASS_DIR", *cutlass},
                   {"CUDA_HOME", std::filesystem::path(*nvcc).parent_path().parent_path().string()}});
  ASSERT_TRUE(r.success()) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "ok: the embedded kernel built with nvcc and loaded")) << r.out;
  EXPECT_TRUE(contains(r.out, "ok: without CUTLASS: CUTLASS/CuTe headers not found: set CUTEGEN_CUTLASS_DIR")) << r.out;
}

}  // namespace
}  // namespace cutegen
