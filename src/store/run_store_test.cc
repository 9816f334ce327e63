#include "store/run_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "cutegen_paths.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

struct TempRun {
  std::string dir;
  TempRun() {
    char tmpl[] = "/tmp/cutegen-store-XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~TempRun() { std::filesystem::remove_all(dir); }
  std::string run() const { return dir + "/run"; }
};

StepRecord step(int n, StepOutcome outcome) {
  StepRecord s;
  s.task = "relu", s.step = n, s.stage = n == 0 ? Stage::kGenerate : Stage::kOptimize, s.parent = n - 1;
  s.source = "// kernel " + std::to_string(n), s.verdict = Verdict::kPass, s.speedup = 1.0 + n, s.outcome = outcome;
  return s;
}

TEST(RunStore, RoundTripsRunTasksStepsProfilesAndEvents) {
  TempRun t;
  {
    auto s = RunStore::create(t.run(), {.id = "r1", .config = "agent.max_steps = 3", .llm = "replay:x"});
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(s->add_task({.name = "relu", .path = "/t/relu.py", .position = 0}).ok());
    ASSERT_TRUE(s->add_task({.name = "relu", .path = "/other.py", .position = 5}).ok());  // idempotent
    ASSERT_TRUE(s->commit_step(step(0, StepOutcome::kAccepted)).ok());
    ASSERT_TRUE(s->commit_step(step(1, StepOutcome::kReverted)).ok());
    auto again = step(1, StepOutcome::kAccepted);
    ASSERT_TRUE(s->commit_step(again).ok());  // a redone step keeps the first record
    auto none = step(2, StepOutcome::kFailed);
    none.verdict = std::nullopt, none.point = "threads=128,vec=4";
    ASSERT_TRUE(s->commit_step(none).ok());
    ASSERT_TRUE(s->save_profile("relu", 0, {"profile text", BoundVerdict{Bound::kMemory, 62.5}}).ok());
    ASSERT_TRUE(s->save_profile("relu", 2, {"no counters", std::nullopt}).ok());
    auto rows = *s->tasks();
    rows[0].status = TaskStatus::kDone, rows[0].best_step = 0;
    ASSERT_TRUE(s->update_task(rows[0]).ok());
  }
  auto s = RunStore::open(t.run());
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->meta()->config, "agent.max_steps = 3");
  auto tasks = *s->tasks();
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].path, "/t/relu.py");
  EXPECT_EQ(tasks[0].status, TaskStatus::kDone);
  auto steps = *s->steps("relu");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[1].outcome, StepOutcome::kReverted);
  EXPECT_EQ(steps[1].verdict, Verdict::kPass);
  EXPECT_DOUBLE_EQ(steps[1].speedup, 2.0);
  EXPECT_EQ(steps[2].verdict, std::nullopt);
  EXPECT_EQ(steps[2].point, "threads=128,vec=4");
  auto p0 = *s->profile("relu", 0);
  ASSERT_TRUE(p0);
  EXPECT_EQ(p0->text, "profile text");
  EXPECT_EQ(p0->verdict, (BoundVerdict{Bound::kMemory, 62.5}));
  EXPECT_EQ(*s->profile("relu", 1), std::nullopt);
  auto p2 = *s->profile("relu", 2);
  ASSERT_TRUE(p2);
  EXPECT_EQ(p2->verdict, std::nullopt);
  auto events = *s->events();
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[3].kind, EventKind::kStep);
  EXPECT_EQ(events[3].detail, "optimize: no_candidate, failed");  // the file's spellings
}

// The verdicts, outcomes and statuses are stored by name: what an older cutegen wrote reads back.
TEST(RunStore, StoredNamesAreTheOnesOlderRunsHold) {
  TempRun t;
  {
    auto s = *RunStore::create(t.run(), {.id = "r1"}, {{.name = "relu", .path = "/t/relu.py"}});
    auto r = step(0, StepOutcome::kFailed);
    r.verdict = Verdict::kCompileError, r.stage = Stage::kRepairCompile, r.edit_how = EditHow::kWholeFile;
    ASSERT_TRUE(s.commit_step(r).ok());
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((t.run() + "/run.db").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT e.verdict, e.outcome, t.status, c.stage, c.edit_how, v.kind "
                     "FROM evaluations e, tasks t, candidates c, events v",
                     -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  auto col = [&](int i) { return std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, i))); };
  EXPECT_EQ(col(0), "compile_error");
  EXPECT_EQ(col(1), "failed");
  EXPECT_EQ(col(2), "pending");
  EXPECT_EQ(col(3), "repair_compile");
  EXPECT_EQ(col(4), "whole_file");
  EXPECT_EQ(col(5), "step");
  sqlite3_finalize(st);
  // A step without a candidate was stored with an empty edit_how before "none" had a name.
  sqlite3_exec(db, "UPDATE candidates SET edit_how = ''", nullptr, nullptr, nullptr);
  {
    auto s = *RunStore::open_readonly(t.run());
    auto steps = s.steps("relu");
    ASSERT_TRUE(steps.ok()) << steps.message();
    EXPECT_EQ(steps->at(0).edit_how, EditHow::kNone);
    EXPECT_EQ(steps->at(0).stage, Stage::kRepairCompile);
  }
  for (auto [update, complaint] :
       {std::pair{"UPDATE evaluations SET verdict = 'compiled_badly'",
                  "verdict 'compiled_badly' is none of pass, wrong,"},
        {"UPDATE candidates SET stage = 'polish'", "stage 'polish' is none of generate,"},
        {"UPDATE candidates SET edit_how = 'guess'", "edit_how 'guess' is none of exact,"}}) {
    sqlite3_exec(db, update, nullptr, nullptr, nullptr);
    auto s = *RunStore::open_readonly(t.run());
    auto steps = s.steps("relu");
    ASSERT_FALSE(steps.ok()) << update;
    EXPECT_NE(steps.message().find(complaint), std::string::npos) << steps.message();
    sqlite3_exec(db, "UPDATE evaluations SET verdict = 'pass'", nullptr, nullptr, nullptr);
    sqlite3_exec(db, "UPDATE candidates SET stage = 'optimize', edit_how = 'exact'", nullptr, nullptr, nullptr);
  }
  sqlite3_exec(db, "UPDATE events SET kind = 'party'", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  auto s = *RunStore::open_readonly(t.run());
  EXPECT_NE(s.events().message().find("kind 'party' is none of step,"), std::string::npos);
}

// A copy of a run that the schema-1 cutegen wrote and was killed in (tests/fixtures/runs/README.md).
struct Schema1Run : TempRun {
  Schema1Run() {
    std::filesystem::create_directories(run());
    std::filesystem::copy_file(std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/runs/schema1_expert_relu/run.db",
                               run() + "/run.db");
  }
  int user_version() const {
    sqlite3* db = nullptr;
    sqlite3_open((run() + "/run.db").c_str(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
    sqlite3_step(st);
    int v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
  }
};

constexpr const char* kSchema1Points[] = {
    "threads=256,vec=4,unroll=1,blocks_per_sm=0,split=1,passes=2,cluster=0,regs=0",
    "threads=256,vec=8,unroll=1,blocks_per_sm=0,split=1,passes=2,cluster=0,regs=0",
    "threads=256,vec=4,unroll=2,blocks_per_sm=0,split=1,passes=2,cluster=0,regs=0",
    "threads=256,vec=4,unroll=1,blocks_per_sm=2,split=1,passes=2,cluster=0,regs=0",
    "threads=512,vec=4,unroll=1,blocks_per_sm=0,split=1,passes=2,cluster=0,regs=0"};

// The five steps the schema-1 run recorded, then `more` steps recorded since.
void expect_schema1_steps(const RunStore& s, size_t more = 0) {
  auto tasks = s.tasks();
  ASSERT_TRUE(tasks.ok()) << tasks.message();
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ(tasks->at(0).status, TaskStatus::kRunning);
  auto steps = s.steps("relu");
  ASSERT_TRUE(steps.ok()) << steps.message();
  ASSERT_EQ(steps->size(), 5u + more);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(steps->at(i).verdict, Verdict::kPass) << i;
    EXPECT_EQ(steps->at(i).point, kSchema1Points[i]) << i;
  }
  EXPECT_EQ(steps->at(0).outcome, StepOutcome::kAccepted);
  EXPECT_EQ(steps->at(0).stage, Stage::kGenerate);
  EXPECT_EQ(steps->at(1).stage, Stage::kOptimize);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(steps->at(i).edit_how, EditHow::kExpert) << i;
  EXPECT_EQ(steps->at(1).outcome, StepOutcome::kReverted);
  EXPECT_EQ(steps->at(4).outcome, StepOutcome::kAccepted);
}

TEST(RunStore, Schema1RunReadsAsItIsWithoutTheLock) {
  Schema1Run t;
  auto s = RunStore::open_readonly(t.run());
  ASSERT_TRUE(s.ok()) << s.message();
  expect_schema1_steps(*s);
  EXPECT_EQ(t.user_version(), 1);  // a reader changes nothing
}

TEST(RunStore, Schema1RunIsMigratedWhenOpenedToResume) {
  Schema1Run t;
  {
    auto s = RunStore::open(t.run());
    ASSERT_TRUE(s.ok()) << s.message();
    expect_schema1_steps(*s);
    // Its profiles kept no verdict: none is offered, and the step's next profile replaces the row.
    EXPECT_EQ(*s->profile("relu", 4), std::nullopt);
    ASSERT_TRUE(s->save_profile("relu", 4, {"again", BoundVerdict{Bound::kLatency, 20}}).ok());
    EXPECT_EQ((*s->profile("relu", 4))->verdict, (BoundVerdict{Bound::kLatency, 20}));
    auto r = step(5, StepOutcome::kReverted);
    r.point = "threads=512,vec=8";
    ASSERT_TRUE(s->commit_step(r).ok());
  }
  EXPECT_EQ(t.user_version(), kRunStoreSchemaVersion);
  auto s = RunStore::open(t.run());
  ASSERT_TRUE(s.ok()) << s.message();
  expect_schema1_steps(*s, 1);
  EXPECT_EQ(s->steps("relu")->at(5).point, "threads=512,vec=8");
}

TEST(RunStore, SecondProcessOnOneRunIsRefused) {
  TempRun t;
  auto first = RunStore::create(t.run(), {.id = "r1"});
  ASSERT_TRUE(first.ok());
  auto second = RunStore::open(t.run());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.message().find("in use by another cutegen process (pid " + std::to_string(getpid())),
            std::string::npos)
      << second.message();
  EXPECT_TRUE(RunStore::open_readonly(t.run()).ok());
}

TEST(RunStore, CreateRefusesAnExistingRunAndOpenAMissingOne) {
  TempRun t;
  { ASSERT_TRUE(RunStore::create(t.run(), {.id = "r1"}).ok()); }
  EXPECT_NE(RunStore::create(t.run(), {.id = "r2"}).message().find("already holds a run"), std::string::npos);
  EXPECT_NE(RunStore::open(t.dir + "/nope").message().find("no run here"), std::string::npos);
}

TEST(RunStore, CorruptAndForeignFilesAreRecognisedAndLeftAlone) {
  TempRun t;
  ASSERT_TRUE(make_dirs(t.run()).ok());
  ASSERT_TRUE(write_file_atomic(t.run() + "/run.db", std::string(4096, 'x')).ok());
  auto corrupt = RunStore::open(t.run());
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.message().find("not a CuTeGen run file (corrupt"), std::string::npos) << corrupt.message();
  EXPECT_EQ(*read_file(t.run() + "/run.db"), std::string(4096, 'x'));  // no data lost

  std::string foreign = t.dir + "/foreign";
  ASSERT_TRUE(make_dirs(foreign).ok());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((foreign + "/run.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE x (a); INSERT INTO x VALUES (1);", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto f = RunStore::open(foreign);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.message().find("foreign SQLite database"), std::string::npos) << f.message();
}

TEST(RunStore, NewerSchemaIsRefused) {
  TempRun t;
  { ASSERT_TRUE(RunStore::create(t.run(), {.id = "r1"}).ok()); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((t.run() + "/run.db").c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  EXPECT_NE(RunStore::open(t.run()).message().find("newer cutegen"), std::string::npos);
}

TEST(RunStore, RunIdsAreTimestampedAndDistinct) {
  auto a = new_run_id(), b = new_run_id();
  EXPECT_EQ(a.size(), 20u);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace cutegen
