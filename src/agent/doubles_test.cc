// The scripted evaluator answering with recorded `cutegen eval --json` answers (tests/fixtures/answers):
// each verdict reaches the agent under its name, with the report a repair prompt shows.
#include "agent/doubles.h"

#include <gtest/gtest.h>

#include "agent/recorded_fixtures.h"
#include "core/strings.h"

namespace cutegen {
namespace {

TEST(ScriptedEvaluator, RecordedAnswersKeepTheirVerdictsReportsAndNumbers) {
  struct Case {
    const char* file;
    Verdict verdict;
    const char* report;  // a piece of the report
  };
  const Case cases[] = {
      {"relu_compile_error.json", Verdict::kCompileError, "kernel.cu:33: expected a \";\""},
      {"relu_wrong_half_written.json", Verdict::kWrong, "trial seed 0: out: 134217728 of 268435456 wrong"},
      {"relu_rejected_side_stream.json", Verdict::kRejected, "side stream: line 19: cudaStreamCreateWithFlags"},
      {"relu_fault_illegal_address.json", Verdict::kFault, "an illegal memory access was encountered"},
      {"relu_timeout_hang.json", Verdict::kTimeout, "evaluation timed out after 45.2 s"},
      {"relu_pass_0.940x.json", Verdict::kPass, ""},
  };
  nlohmann::json script = {{"baseline", "relu_pass_0.940x.json"}, {"rules", nlohmann::json::array()}};
  for (auto& c : cases)
    script["rules"].push_back({{"match", c.file}, {"answer", c.file}});
  ScriptedEvaluator eval(script, kRecordedAnswers);
  TaskSpec spec = recorded_spec("relu").value();
  for (auto& c : cases) {
    auto e = eval.evaluate(spec, std::string("// ") + c.file, "relu.cu");
    ASSERT_TRUE(e.ok()) << c.file << ": " << e.message();
    EXPECT_EQ(e->verdict, c.verdict) << c.file;
    EXPECT_TRUE(contains(e->report, c.report)) << c.file << ": " << e->report;
  }
  auto pass = *eval.evaluate(spec, "// relu_pass_0.940x.json", "relu.cu");
  EXPECT_NEAR(pass.speedup, 0.9396, 1e-4);
  EXPECT_NEAR(pass.roofline_fraction, 0.9343, 1e-4);
  EXPECT_TRUE(pass.report.empty());
  auto base = *eval.baseline(spec);
  EXPECT_NEAR(base.eager_ms, 0.5077, 1e-4);
  EXPECT_NEAR(base.floor_ms, 0.5048, 1e-4);
  EXPECT_EQ(base.bound, RooflineLimit::kMemory);
}

TEST(ScriptedEvaluator, AMissingOrForeignAnswerFileIsAnError) {
  ScriptedEvaluator eval(
      {{"rules", {{{"match", "A"}, {"answer", "no_such.json"}}, {{"match", "B"}, {"answer", "README.md"}}}}},
      kRecordedAnswers);
  TaskSpec spec = recorded_spec("relu").value();
  EXPECT_TRUE(contains(eval.evaluate(spec, "A", "k.cu").message(), "no_such.json"))
      << eval.evaluate(spec, "A", "k.cu").message();
  EXPECT_TRUE(contains(eval.evaluate(spec, "B", "k.cu").message(), "not a recorded evaluator answer"));
}

// Rules spell verdicts by name, as recorded answers may by phrase; anything else is a typo to report.
TEST(ScriptedEvaluator, RulesTakeEitherSpellingAndRefuseOthers) {
  ScriptedEvaluator eval(nlohmann::json::parse(R"({"rules": [{"match": "A", "verdict": "compile_error"},
    {"match": "B", "verdict": "CUDA fault"}, {"match": "C", "verdict": "compile-error"}]})"));
  TaskSpec spec = recorded_spec("relu").value();
  EXPECT_EQ(eval.evaluate(spec, "A", "k.cu")->verdict, Verdict::kCompileError);
  EXPECT_EQ(eval.evaluate(spec, "B", "k.cu")->verdict, Verdict::kFault);
  auto typo = eval.evaluate(spec, "C", "k.cu");
  ASSERT_FALSE(typo.ok());
  EXPECT_TRUE(
      contains(typo.message(), "unknown verdict 'compile-error' (pass, wrong, rejected, timeout, compile_error"))
      << typo.message();
}

}  // namespace
}  // namespace cutegen
