// Integration: the real bridge (venv torch, no GPU) describes every example task and reports
// each kind of broken task as one clear line.
#include "task/loader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "task/abi.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

const std::string kRoot = CUTEGEN_SOURCE_DIR;

Result<TaskSpec> load(const std::string& path, int64_t seed = 0) {
  return load_task_spec(path, python_executable(""), seed, std::chrono::seconds(300));
}

bool has_op(const TaskSpec& s, const std::string& prefix) {
  return std::any_of(s.ops.begin(), s.ops.end(), [&](auto& op) { return op.rfind(prefix, 0) == 0; });
}

struct Expected {
  const char* task;
  std::vector<std::vector<int64_t>> input_shapes;
  const char* dtype;
  std::vector<int64_t> out_shape;
  const char* op;  // a prefix of one recorded op
  int64_t flops;   // -1: do not check
  size_t params;
  const char* out_dtype = nullptr;  // when it differs from the inputs' (argmax: int64)
};

TEST(LoaderTest, DescribesEveryExampleTask) {
  const int64_t K4 = 4096;
  const Expected table[] = {
      {"matmul_fp32", {{K4, K4}, {K4, K4}}, "float32", {K4, K4}, "aten.mm", 2 * K4 * K4 * K4, 0},
      {"matmul_bf16", {{8192, 8192}, {8192, 8192}}, "bfloat16", {8192, 8192}, "aten.mm", 2LL * 8192 * 8192 * 8192, 0},
      {"matmul_bf16_4096",
       {{4096, 4096}, {4096, 4096}},
       "bfloat16",
       {4096, 4096},
       "aten.mm",
       2LL * 4096 * 4096 * 4096,
       0},
      {"matmul_fp16", {{8192, 8192}, {8192, 8192}}, "float16", {8192, 8192}, "aten.mm", 2LL * 8192 * 8192 * 8192, 0},
      {"matmul_fp16_4096",
       {{4096, 4096}, {4096, 4096}},
       "float16",
       {4096, 4096},
       "aten.mm",
       2LL * 4096 * 4096 * 4096,
       0},
      {"batched_matmul",
       {{64, 1024, 1024}, {64, 1024, 1024}},
       "float32",
       {64, 1024, 1024},
       "aten.bmm",
       2LL * 64 * 1024 * 1024 * 1024,
       0},
      {"relu", {{K4, 65536}}, "float32", {K4, 65536}, "aten.relu", 0, 0},
      {"gelu_tanh", {{K4, 65536}}, "float32", {K4, 65536}, "aten.gelu", 0, 0},
      {"softmax", {{16384, 16384}}, "float32", {16384, 16384}, "aten._softmax", 0, 0},
      {"layernorm", {{32768, 8192}}, "float32", {32768, 8192}, "aten.native_layer_norm", -1, 2},
      {"linear_bias_relu", {{K4, K4}}, "float32", {K4, K4}, "aten.addmm", 2 * K4 * K4 * K4, 2},
      {"linear_multiply_leaky", {{1024, 2048}}, "float32", {1024, K4}, "aten.addmm", 2LL * 1024 * 2048 * K4, 2},
      // The CuTe expert's tasks (src/expert): elementwise chains, reductions, row normalizations.
      {"sigmoid", {{8192, 32768}}, "float32", {8192, 32768}, "aten.sigmoid", -1, 0},
      {"new_gelu", {{8192, 16384}}, "float32", {8192, 16384}, "aten.tanh", -1, 0},
      {"selu", {{8192, 32768}}, "bfloat16", {8192, 32768}, "aten.elu", -1, 0},
      {"scale_bias_leaky", {{16384, 8192}}, "float32", {16384, 8192}, "aten.leaky_relu", -1, 1},
      {"sum_dim", {{64, 2048, 2047}}, "float32", {64, 1, 2047}, "aten.sum", -1, 0},
      {"argmax_dim", {{128, 1024, 2048}}, "float32", {128, 1024}, "aten.argmax", -1, 0, "int64"},
      {"rmsnorm", {{16, 64, 256, 256}}, "float32", {16, 64, 256, 256}, "aten.mean", -1, 0},
      {"l2norm", {{K4, 65536}}, "float32", {K4, 65536}, "aten.linalg_vector_norm", -1, 0},
      {"log_softmax", {{1024, 262144}}, "float32", {1024, 262144}, "aten._log_softmax", -1, 0},
      {"layernorm_long", {{16, 64, 256, 256}}, "float32", {16, 64, 256, 256}, "aten.native_layer_norm", -1, 2},
      {"layernorm_long_ragged", {{8, 4, 786433}}, "float32", {8, 4, 786433}, "aten.native_layer_norm", -1, 2},
      {"layernorm_rows_768", {{65536, 768}}, "float32", {65536, 768}, "aten.native_layer_norm", -1, 2},
      {"frobenius_norm", {{32, 64, 256, 256}}, "float32", {32, 64, 256, 256}, "aten.linalg_vector_norm", -1, 0},
      {"l1norm_odd_rows", {{2048, 65535}}, "float32", {2048, 65535}, "aten.abs", -1, 0},
      {"softmax_small_odd", {{37, 1001}}, "float32", {37, 1001}, "aten._softmax", -1, 0},
      {"log_softmax_classes", {{32768, 1000}}, "float32", {32768, 1000}, "aten._log_softmax", -1, 0},
      {"l2norm_embeddings", {{131072, 512}}, "float32", {131072, 512}, "aten.linalg_vector_norm", -1, 0},
      {"conv2d_bias_relu", {{16, 64, 128, 128}}, "float32", {16, 128, 128, 128}, "aten.convolution", -1, 2},
      {"conv2d_gelu_mean", {{16, 32, 128, 128}}, "float32", {16, 64}, "aten.convolution", -1, 2},
      {"conv2d_min_tanh", {{16, 16, 128, 128}}, "float32", {16, 1, 126, 126}, "aten.convolution", -1, 2},
      {"conv2d_group_norm", {{16, 32, 128, 128}}, "float32", {16, 64, 126, 126}, "aten.convolution", -1, 4},
      {"depthwise_conv", {{16, 64, 256, 256}}, "float32", {16, 64, 254, 254}, "aten.convolution", -1, 1},
      {"conv2d_depthwise_separable", {{8, 64, 128, 128}}, "float32", {8, 128, 128, 128}, "aten.convolution", -1, 2},
      {"conv_transpose2d_strided", {{4, 32, 48, 96}}, "float32", {4, 32, 238, 478}, "aten.convolution", -1, 1},
  };
  size_t seen = 0;
  for (auto& e : table) {
    SCOPED_TRACE(e.task);
    auto s = load(kRoot + "/tasks/" + e.task + ".py");
    ASSERT_TRUE(s.ok()) << s.message();
    ++seen;
    EXPECT_EQ(s->name, e.task);
    EXPECT_EQ(s->traced_on, "meta") << "example tasks must not allocate real data";
    ASSERT_EQ(s->inputs.size(), e.input_shapes.size());
    for (size_t i = 0; i < s->inputs.size(); ++i) {
      EXPECT_EQ(s->inputs[i].shape, e.input_shapes[i]);
      EXPECT_STREQ(dtype_info(s->inputs[i].dtype).name, e.dtype);
    }
    ASSERT_EQ(s->outputs.size(), 1u);
    EXPECT_EQ(s->outputs[0].name, "out");
    EXPECT_EQ(s->outputs[0].shape, e.out_shape);
    EXPECT_STREQ(dtype_info(s->outputs[0].dtype).name, e.out_dtype ? e.out_dtype : e.dtype);
    EXPECT_TRUE(has_op(*s, e.op)) << join(s->ops, ", ");
    if (e.flops >= 0) {
      EXPECT_EQ(s->flops, e.flops);
    }
    EXPECT_EQ(s->params.size(), e.params);
    int64_t bytes = 0;
    for (auto* group : {&s->inputs, &s->params, &s->outputs})
      for (auto& a : *group)
        bytes += a.bytes();
    EXPECT_EQ(s->min_bytes, bytes);
  }
  // Every file under tasks/ is in the table above.
  size_t files = 0;
  for (auto& f : std::filesystem::directory_iterator(kRoot + "/tasks")) {
    if (f.path().extension() == ".py") ++files;
  }
  EXPECT_EQ(files, seen);
}

TEST(LoaderTest, LinearParametersInStateDictOrder) {
  auto s = load(kRoot + "/tasks/linear_bias_relu.py");
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(s->params.size(), 2u);
  EXPECT_EQ(s->params[0].name, "linear.weight");
  EXPECT_EQ(s->params[0].kind, ArgKind::kParameter);
  EXPECT_EQ(s->params[0].shape, (std::vector<int64_t>{4096, 4096}));
  EXPECT_EQ(s->params[1].name, "linear.bias");
  EXPECT_EQ(s->init_args, (std::vector<std::string>{"4096", "4096"}));
  EXPECT_EQ(s->ops, (std::vector<std::string>{"aten.t.default", "aten.addmm.default", "aten.relu.default"}));
}

TEST(LoaderTest, ConstructorScalarsBecomeAbiConstants) {
  auto s = load(kRoot + "/tasks/linear_multiply_leaky.py");
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<std::string> got;
  for (auto& c : s->constants)
    got.push_back(c.source + " " + c.ctype + " " + c.name + " = " + c.value);
  // The constructor's arguments by name; then the attributes that say something new (the root's
  // `multiplier` only repeats the argument, so it is left out).
  EXPECT_EQ(got, (std::vector<std::string>{
                     "init int64_t in_features = 2048", "init int64_t out_features = 4096",
                     "init double multiplier = 2.0", "init double negative_slope = 0.1",
                     "attribute int64_t gemm.in_features = 2048", "attribute int64_t gemm.out_features = 4096",
                     "attribute double leaky_relu.negative_slope = 0.1", "attribute bool leaky_relu.inplace = false"}));
  auto h = abi_header(*s);
  EXPECT_NE(h.find("constexpr double multiplier = 2.0;"), std::string::npos) << h;
  EXPECT_NE(h.find("constexpr double negative_slope = 0.1;"), std::string::npos) << h;
}

TEST(LoaderTest, GpuMindedCodeStillRunsOnMeta) {
  auto s = load(kRoot + "/src/task/testdata/device_moves.py");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->traced_on, "meta");
  EXPECT_EQ(s->params[0].name, "scale");
}

TEST(LoaderTest, DataDependentCodeFallsBackToCpu) {
  auto s = load(kRoot + "/src/task/testdata/data_dependent.py", 3);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->traced_on, "cpu");
  EXPECT_EQ(s->seed, 3);
  EXPECT_TRUE(has_op(*s, "aten.div")) << join(s->ops, ", ");
}

TEST(LoaderTest, ScalarsStarArgsBuffersAndTwoOutputs) {
  auto s = load(kRoot + "/src/task/testdata/mixed_io.py");
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<std::string> names;
  for (auto& a : s->inputs)
    names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "stream", "use_mean", "arg3", "arg4"}));
  EXPECT_EQ(s->inputs[2].ctype, "bool");
  EXPECT_EQ(s->params[0].kind, ArgKind::kBuffer);
  ASSERT_EQ(s->outputs.size(), 2u);
  EXPECT_EQ(s->outputs[1].name, "out1");
  EXPECT_EQ(s->flops, 2 * 128 * 256 * 256);
}

TEST(LoaderTest, BrokenTasksAreOneClearLine) {
  auto data = kRoot + "/src/task/testdata/";
  struct Case {
    std::string file, first_line;
    bool has_detail;
  };
  const Case cases[] = {
      {"import_error.py", "import_error.py: fails to import: ValueError: tile size must be a power of two", true},
      {"no_model.py", "no_model.py: defines no `Model`", false},
      {"no_tensors.py", "Model.forward returns no tensors (it returned a int)", false},
      {"missing.py", "missing.py: no such file", false},
  };
  for (auto& c : cases) {
    auto s = load(data + c.file);
    ASSERT_FALSE(s.ok()) << c.file;
    auto lines = split_lines(s.message());
    ASSERT_FALSE(lines.empty());
    EXPECT_NE(lines[0].find(c.first_line), std::string::npos) << s.message();
    EXPECT_EQ(lines.size() > 1, c.has_detail) << s.message();
  }
  // The detail is the task's own frames, not the bridge's.
  auto s = load(data + "import_error.py");
  EXPECT_NE(s.message().find("import_error.py\", line 9, in helper"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("cutegen_bridge"), std::string::npos) << s.message();
}

TEST(LoaderTest, MissingPythonIsOneLine) {
  auto s = load_task_spec(kRoot + "/tasks/relu.py", "/nonexistent/python3", 0, std::chrono::seconds(10));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/python3"), std::string::npos) << s.message();
}

// task.spec_cache: the second description of an unchanged task is the cached one (marked here, so
// a fresh description would show), and a changed task file is described afresh.
TEST(LoaderTest, SpecCacheReusesTheDescriptionOfAnUnchangedTask) {
  auto dir = std::filesystem::temp_directory_path() / ("cutegen-spec-cache-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string task = (dir / "relu.py").string(), cache = (dir / "specs").string(), python = python_executable("");
  std::filesystem::copy_file(kRoot + "/tasks/relu.py", task);
  auto first = load_task_spec(task, python, 0, std::chrono::seconds(300), cache);
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_EQ(first->name, "relu");
  std::vector<std::filesystem::path> entries(std::filesystem::directory_iterator(cache), {});
  ASSERT_EQ(entries.size(), 1u);
  std::string text = read_file(entries[0].string()).value();
  write_file_atomic(entries[0].string(), replace_all(text, "\"name\": \"relu\"", "\"name\": \"cached\""));
  auto again = load_task_spec(task, python, 0, std::chrono::seconds(300), cache);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(again->name, "cached") << "the cache's answer";
  std::ofstream(task, std::ios::app) << "\n# changed\n";
  auto changed = load_task_spec(task, python, 0, std::chrono::seconds(300), cache);
  ASSERT_TRUE(changed.ok()) << changed.message();
  EXPECT_EQ(changed->name, "relu") << "a changed file is described afresh";
  std::filesystem::remove_all(dir);
}

TEST(LoaderTest, FindsTheBridge) {
  EXPECT_TRUE(std::filesystem::exists(bridge_dir() + "/cutegen_bridge/spec.py")) << bridge_dir();
}

}  // namespace
}  // namespace cutegen
