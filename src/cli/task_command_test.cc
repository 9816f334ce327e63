// Drives `cutegen task` through the real binary and bridge: a summary plus the ABI header,
// --json that parses, and one clear line for each kind of broken task.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>

#include "core/strings.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

const std::string kRoot = CUTEGEN_SOURCE_DIR;

ProcessResult cutegen_task(std::vector<std::string> args) {
  args.insert(args.begin(), {std::getenv("CUTEGEN_BIN"), "task"});
  auto r = run_process({.argv = args, .timeout = std::chrono::seconds(300)});
  EXPECT_TRUE(r.ok()) << r.message();
  return *r;
}

TEST(TaskCommandTest, PrintsSummaryThenHeader) {
  auto r = cutegen_task({kRoot + "/tasks/linear_bias_relu.py"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (auto needle :
       {"task linear_bias_relu", "inputs:", "linear.weight", "float32", "[4096, 4096]",
        "aten.t.default, aten.addmm.default, aten.relu.default", "flops: 137438953472 (137.4 GFLOP)",
        "min bytes: 201342976 (192.02 MiB)", "extern \"C\" void cutegen_forward(", "const float* linear_bias,"})
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  EXPECT_LT(r.out.find("min bytes"), r.out.find("#ifndef")) << "summary first, then the header";
}

TEST(TaskCommandTest, JsonIsTheSpecPlusHeader) {
  auto r = cutegen_task({kRoot + "/tasks/matmul_bf16.py", "--json", "--seed", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["name"], "matmul_bf16");
  EXPECT_EQ(j["seed"], 5);
  EXPECT_EQ(j["inputs"][0]["dtype"], "bfloat16");
  EXPECT_EQ(j["outputs"][0]["name"], "out");
  EXPECT_NE(j["abi_header"].get<std::string>().find("const __nv_bfloat16* a,"), std::string::npos);
}

TEST(TaskCommandTest, BrokenTasksAreOneClearLine) {
  auto data = kRoot + "/src/task/testdata/";
  struct Case {
    std::string file, needle;
  };
  for (auto& c : {Case{"no_model.py", "defines no `Model`"}, Case{"no_tensors.py", "returns no tensors"},
                  Case{"missing.py", "missing.py: no such file"}}) {
    auto r = cutegen_task({data + c.file});
    EXPECT_NE(r.exit_code, 0) << c.file;
    EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // An import error: one line, then the condensed Python message on the following lines.
  auto r = cutegen_task({data + "import_error.py"});
  EXPECT_NE(r.exit_code, 0);
  auto lines = split_lines(r.err);
  ASSERT_GT(lines.size(), 1u) << r.err;
  EXPECT_NE(lines[0].find("fails to import: ValueError: tile size must be a power of two"), std::string::npos);
  EXPECT_EQ(lines.back(), "ValueError: tile size must be a power of two");
  EXPECT_LE(lines.size(), 16u) << r.err;
}

}  // namespace
}  // namespace cutegen
