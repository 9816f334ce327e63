#include "llm/ledger.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "llm/fixture_for_tests.h"
#include "llm/redact.h"

namespace cutegen {

TEST(Ledger, RecordsAndSumsCallsPerRunAndTask) {
  TempDir dir;
  auto l = Ledger::open(dir / "run.db");
  ASSERT_TRUE(l.ok()) << l.message();
  auto rec = [&](const char* task, const char* outcome, long in, long out, double cost) {
    CallRecord c{.run_id = "r1", .task_id = task, .role = "generator", .model = "openai:m"};
    c.usage = Usage{.input = in, .output = out, .cached = 1, .reasoning = 2};
    c.cost_usd = cost, c.outcome = outcome, c.latency_s = 0.5;
    ASSERT_TRUE(l->record(c).ok());
  };
  rec("t1", "ok", 10, 5, 0.01);
  rec("t1", "truncated", 10, 20, 0.02);
  rec("t2", "ok", 100, 50, 0.1);
  rec("t2", "budget_exhausted", 0, 0, 0);
  rec("t2", "waiting", 0, 0, 0);
  auto run = l->spent("r1");
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->calls, 3);
  EXPECT_EQ(run->tokens, 195);
  EXPECT_NEAR(run->dollars, 0.13, 1e-12);
  auto t1 = l->spent("r1", "t1");
  EXPECT_EQ(t1->calls, 2);
  EXPECT_EQ(t1->tokens, 45);
  auto rows = l->calls("r1");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 5u);
  EXPECT_EQ((*rows)[1].outcome, "truncated");
  EXPECT_EQ((*rows)[1].usage.reasoning, 2);
  EXPECT_EQ(l->spent("other")->calls, 0);
}

TEST(Ledger, SharesADatabaseWithOtherTablesInWalMode) {
  TempDir dir;
  std::string db = dir / "store.db";
  {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, "CREATE TABLE runs (id TEXT)", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
  }
  ASSERT_TRUE(Ledger::open(db).ok());
  auto again = Ledger::open(db);  // CREATE TABLE IF NOT EXISTS: opening twice is fine
  ASSERT_TRUE(again.ok()) << again.message();
  ASSERT_TRUE(again->record({.run_id = "r", .outcome = "ok"}).ok());
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  std::string mode;
  sqlite3_exec(
      raw, "PRAGMA journal_mode",
      [](void* out, int, char** v, char**) {
        *static_cast<std::string*>(out) = v[0];
        return 0;
      },
      &mode, nullptr);
  int tables = 0;
  sqlite3_exec(
      raw, "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name IN ('runs','llm_calls')",
      [](void* out, int, char** v, char**) {
        *static_cast<int*>(out) = std::stoi(v[0]);
        return 0;
      },
      &tables, nullptr);
  sqlite3_close(raw);
  EXPECT_EQ(mode, "wal");
  EXPECT_EQ(tables, 2);
}

TEST(Ledger, StoresNoKey) {
  TempDir dir;
  register_secret("sk-ledger-secret-999");
  auto l = Ledger::open(dir / "l.db");
  ASSERT_TRUE(l.ok());
  ASSERT_TRUE(l->record({.run_id = "r", .outcome = "error", .error = "server said sk-ledger-secret-999"}).ok());
  EXPECT_EQ((*l->calls("r"))[0].error, "server said [REDACTED]");
}

TEST(Ledger, UnopenablePathIsOneError) {
  TempDir dir;
  auto l = Ledger::open(dir / "no/such/dir/x.db");
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.message().find("cannot open ledger"), std::string::npos);
}

}  // namespace cutegen
