#include "store/run_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

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

StepRecord step(int n, const std::string& outcome) {
  StepRecord s;
  s.task = "relu", s.step = n, s.stage = n == 0 ? "generate" : "optimize", s.parent = n - 1;
  s.source = "// kernel " + std::to_string(n), s.verdict = "pass", s.speedup = 1.0 + n, s.outcome = outcome;
  return s;
}

TEST(RunStore, RoundTripsRunTasksStepsProfilesAndEvents) {
  TempRun t;
  {
    auto s = RunStore::create(t.run(), {.id = "r1", .config = "agent.max_steps = 3", .llm = "replay:x"});
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(s->add_task({.name = "relu", .path = "/t/relu.py", .position = 0}).ok());
    ASSERT_TRUE(s->add_task({.name = "relu", .path = "/other.py", .position = 5}).ok());  // idempotent
    ASSERT_TRUE(s->commit_step(step(0, "accepted")).ok());
    ASSERT_TRUE(s->commit_step(step(1, "reverted")).ok());
    auto again = step(1, "accepted");
    ASSERT_TRUE(s->commit_step(again).ok());  // a redone step keeps the first record
    ASSERT_TRUE(s->save_profile("relu", 0, "profile text").ok());
    auto rows = *s->tasks();
    rows[0].status = "done", rows[0].best_step = 0;
    ASSERT_TRUE(s->update_task(rows[0]).ok());
  }
  auto s = RunStore::open(t.run());
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->meta()->config, "agent.max_steps = 3");
  auto tasks = *s->tasks();
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].path, "/t/relu.py");
  EXPECT_EQ(tasks[0].status, "done");
  auto steps = *s->steps("relu");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[1].outcome, "reverted");
  EXPECT_DOUBLE_EQ(steps[1].speedup, 2.0);
  EXPECT_EQ(*s->profile("relu", 0), "profile text");
  EXPECT_EQ(*s->profile("relu", 1), "");
  EXPECT_EQ(s->events()->size(), 3u);
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
