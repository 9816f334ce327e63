// Parsing the bridge's TaskSpec JSON (fixtures in testdata/, written by the bridge or by hand).
#include "task/task_spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string fixture(const std::string& name) {
  return *read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/task/testdata/" + name);
}

TEST(TaskSpecTest, ParsesElementwiseTask) {
  auto s = parse_task_spec(fixture("relu.json"));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->name, "relu");
  EXPECT_EQ(s->path, "/repo/tasks/relu.py");
  ASSERT_EQ(s->inputs.size(), 1u);
  EXPECT_EQ(s->inputs[0].name, "x");
  EXPECT_EQ(s->inputs[0].kind, ArgKind::kTensor);
  EXPECT_EQ(s->inputs[0].dtype, DType::kFloat32);
  EXPECT_EQ(s->inputs[0].shape, (std::vector<int64_t>{4096, 65536}));
  EXPECT_EQ(s->inputs[0].strides, (std::vector<int64_t>{65536, 1}));
  EXPECT_TRUE(s->params.empty());
  ASSERT_EQ(s->outputs.size(), 1u);
  EXPECT_EQ(s->outputs[0].kind, ArgKind::kOutput);
  EXPECT_EQ(s->ops, (std::vector<std::string>{"aten.relu.default"}));
  EXPECT_EQ(s->min_bytes, s->inputs[0].bytes() + s->outputs[0].bytes());
  EXPECT_EQ(s->traced_on, "meta");
}

TEST(TaskSpecTest, ParsesParametersScalarsAndSeveralOutputs) {
  auto s = parse_task_spec(fixture("mixed_io.json"));
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(s->inputs.size(), 5u);
  EXPECT_EQ(s->inputs[1].kind, ArgKind::kScalar);
  EXPECT_EQ(s->inputs[1].ctype, "double");
  EXPECT_EQ(s->inputs[1].value, "0.5");
  EXPECT_EQ(s->inputs[2].ctype, "bool");
  EXPECT_EQ(s->inputs[2].value, "true");
  EXPECT_EQ(s->inputs[3].name, "arg3");
  EXPECT_EQ(s->inputs[4].ctype, "int64_t");
  ASSERT_EQ(s->params.size(), 2u);
  EXPECT_EQ(s->params[0].kind, ArgKind::kBuffer);
  EXPECT_EQ(s->params[1].name, "proj.weight");
  EXPECT_EQ(s->params[1].kind, ArgKind::kParameter);
  ASSERT_EQ(s->outputs.size(), 2u);
  EXPECT_EQ(s->outputs[0].name, "out0");
  EXPECT_EQ(s->outputs[0].dtype, DType::kBFloat16);
  EXPECT_EQ(s->outputs[1].dtype, DType::kInt64);
  EXPECT_EQ(s->init_args, (std::vector<std::string>{"256", "0.1"}));
}

TEST(TaskSpecTest, ParsesConstantsAndFixedScalars) {
  auto s = parse_task_spec(fixture("linear_multiply_leaky.json"));
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_GE(s->constants.size(), 4u);
  EXPECT_EQ(s->constants[2].name, "multiplier");
  EXPECT_EQ(s->constants[2].source, "init");
  EXPECT_EQ(s->constants[2].ctype, "double");
  EXPECT_EQ(s->constants[2].value, "2.0");
  auto m = parse_task_spec(fixture("mixed_io.json"));
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_TRUE(m->inputs[1].fixed);
  auto odd = parse_task_spec(fixture("odd_names.json"));
  ASSERT_TRUE(odd.ok()) << odd.message();
  EXPECT_FALSE(odd->inputs[1].fixed) << "absent means not fixed";
  EXPECT_EQ(odd->constants[1].value, "-inf");
}

TEST(TaskSpecTest, ConstantsOfTheWrongTypeNameTheField) {
  std::string base = fixture("relu.json");
  auto with = [&](const std::string& constants) {
    auto j = nlohmann::json::parse(base);
    j["constants"] = nlohmann::json::parse(constants);
    return parse_task_spec(j.dump());
  };
  EXPECT_TRUE(with(R"([{"name": "k", "source": "init", "ctype": "int64_t", "value": 3}])").ok());
  struct Case {
    const char* constants;
    const char* message;
  };
  for (auto& c : {Case{R"([{"name": "k", "source": "init", "ctype": "int64_t", "value": 2.5}])",
                       "constants[0].value: 2.5 is not a int64_t"},
                  Case{R"([{"name": "k", "source": "init", "ctype": "double", "value": "big"}])",
                       "constants[0].value: \"big\" is not a double"},
                  Case{R"([{"name": "k", "source": "init", "ctype": "float", "value": 1.0}])",
                       "constants[0].ctype: unknown scalar type 'float'"},
                  Case{R"([{"name": "k", "ctype": "bool", "value": true}])", "constants[0]: missing 'source'"},
                  Case{R"({"k": 1})", "TaskSpec.constants: expected an array"}}) {
    auto r = with(c.constants);
    ASSERT_FALSE(r.ok()) << c.constants;
    EXPECT_EQ(r.message(), c.message);
  }
}

TEST(TaskSpecTest, ZeroDimTensorHasOneElement) {
  auto s = parse_task_spec(fixture("odd_names.json"));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->inputs[2].numel(), 1);
  EXPECT_EQ(s->inputs[2].bytes(), 1);
  EXPECT_EQ(s->params[0].bytes(), 40);
  EXPECT_EQ(s->seed, 7);
}

TEST(TaskSpecTest, BridgeErrorDocumentBecomesTheError) {
  auto s = parse_task_spec(R"({"error": "t.py: fails to import: ValueError: bad", "kind": "import",
                               "detail": "  File \"t.py\", line 3\nValueError: bad"})");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "t.py: fails to import: ValueError: bad\n  File \"t.py\", line 3\nValueError: bad");
  auto one = parse_task_spec(R"({"error": "t.py: defines no `Model`", "kind": "no_model", "detail": ""})");
  EXPECT_EQ(one.message(), "t.py: defines no `Model`");
}

TEST(TaskSpecTest, MalformedDocumentsNameTheField) {
  struct Case {
    std::string edit_from, edit_to, expected;
  };
  const Case cases[] = {
      {R"("dtype": "float32", "shape": [4096)", R"("dtype": "complex64", "shape": [4096)",
       "inputs[0].dtype: unknown dtype 'complex64'"},
      {R"("strides": [65536, 1])", R"("strides": [1])", "inputs[0]: 2 dims but 1 strides"},
      {R"("flops": 0)", R"("flops": "many")", "TaskSpec.flops: unexpected string"},
      {R"("kind": "tensor")", R"("kind": "blob")", "inputs[0].kind: unknown kind 'blob'"},
      {R"("min_bytes")", R"("minbytes")", "TaskSpec: missing 'min_bytes'"},
  };
  std::string base = R"({"name": "relu", "path": "/t.py", "seed": 0, "init_args": [],
    "inputs": [{"name": "x", "kind": "tensor", "dtype": "float32", "shape": [4096, 65536], "strides": [65536, 1]}],
    "params": [], "outputs": [{"name": "out", "dtype": "float32", "shape": [4], "strides": [1]}],
    "ops": [], "flops": 0, "min_bytes": 16})";
  ASSERT_TRUE(parse_task_spec(base).ok()) << parse_task_spec(base).message();
  for (auto& c : cases) {
    auto text = base;
    auto at = text.find(c.edit_from);
    ASSERT_NE(at, std::string::npos) << c.edit_from;
    text.replace(at, c.edit_from.size(), c.edit_to);
    auto s = parse_task_spec(text);
    ASSERT_FALSE(s.ok()) << c.expected;
    EXPECT_NE(s.message().find(c.expected), std::string::npos) << s.message();
  }
  EXPECT_EQ(parse_task_spec("{not json").message(), "TaskSpec: not valid JSON");
  EXPECT_EQ(parse_task_spec("[1]").message(), "TaskSpec: expected a JSON object");
}

TEST(TaskSpecTest, DtypeTableCoversTheContract) {
  for (auto [name, c_type] : {std::pair{"float32", "float"},
                              {"float16", "__half"},
                              {"bfloat16", "__nv_bfloat16"},
                              {"float64", "double"},
                              {"int64", "int64_t"},
                              {"int32", "int32_t"},
                              {"int8", "int8_t"},
                              {"uint8", "uint8_t"},
                              {"bool", "bool"}}) {
    auto d = parse_dtype(name);
    ASSERT_TRUE(d.ok()) << name;
    EXPECT_STREQ(dtype_info(*d).c_type, c_type);
    EXPECT_STREQ(dtype_info(*d).name, name);
  }
}

}  // namespace
}  // namespace cutegen
