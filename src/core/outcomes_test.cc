#include "core/outcomes.h"

#include <gtest/gtest.h>

#include <set>

namespace cutegen {
namespace {

// Every value of E (all of 0..last) has exactly one row, and no spelling names two values.
template <class E>
void expect_whole_table(E last) {
  std::set<std::string> spellings;
  size_t rows = 0;
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    E v = static_cast<E>(i);
    EXPECT_EQ(name_row(v).value, v) << i;
    EXPECT_EQ(parse_name<E>(name(v)), v) << name(v);
    EXPECT_EQ(parse_name<E>(phrase(v)), v) << phrase(v);
    spellings.insert(name(v));
    if (std::string(phrase(v)) != name(v)) spellings.insert(phrase(v));
    rows += std::string(phrase(v)) != name(v) ? 2 : 1;
  }
  EXPECT_EQ(name_table<E>().size(), static_cast<size_t>(last) + 1);
  EXPECT_EQ(spellings.size(), rows) << "a spelling names two values";
}

TEST(Outcomes, EveryValueHasOneRowAndReadsBackFromEitherSpelling) {
  expect_whole_table(Verdict::kSetupError);
  expect_whole_table(TaskStatus::kFailed);
  expect_whole_table(StepOutcome::kFailed);
  expect_whole_table(Bound::kLatency);
  expect_whole_table(RooflineLimit::kCompute);
  expect_whole_table(BuildOutcome::kRefused);
  expect_whole_table(Stage::kTune);
  expect_whole_table(EditHow::kNone);
  expect_whole_table(EventKind::kSlurmSubmit);
}

// These spellings are in run.db files and scripts: they may not change.
TEST(Outcomes, StoredAndPrintedSpellingsStay) {
  EXPECT_STREQ(name(Verdict::kCompileError), "compile_error");
  EXPECT_STREQ(phrase(Verdict::kCompileError), "compile error");
  EXPECT_STREQ(name(Verdict::kFault), "fault");
  EXPECT_STREQ(phrase(Verdict::kFault), "CUDA fault");
  EXPECT_STREQ(name(Verdict::kSetupError), "setup_error");
  EXPECT_STREQ(name(TaskStatus::kWaiting), "waiting");
  EXPECT_STREQ(name(StepOutcome::kReverted), "reverted");
  EXPECT_STREQ(name(Bound::kMemory), "memory-bound");
  EXPECT_STREQ(name(Stage::kRepairCompile), "repair_compile");
  EXPECT_STREQ(name(EditHow::kWholeFile), "whole_file");
  EXPECT_STREQ(name(EditHow::kExpert), "expert");
  EXPECT_STREQ(name(EventKind::kSlurmSubmit), "slurm_submit");
  EXPECT_EQ(parse_name<Verdict>("compile-error"), std::nullopt);
  EXPECT_EQ(parse_name<Verdict>(""), std::nullopt);
  EXPECT_EQ(names_list<StepOutcome>(), "accepted, reverted, failed");
}

TEST(Outcomes, VerdictsExitAsEvalDocumentsThem) {
  EXPECT_EQ(exit_code(Verdict::kPass), 0);
  for (auto v : {Verdict::kWrong, Verdict::kCompileError, Verdict::kFault})
    EXPECT_EQ(exit_code(v), 1) << name(v);
  EXPECT_EQ(exit_code(Verdict::kSetupError), 2);
  EXPECT_EQ(exit_code(Verdict::kRejected), 3);
  EXPECT_EQ(exit_code(Verdict::kTimeout), 4);
}

}  // namespace
}  // namespace cutegen
