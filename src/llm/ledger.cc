#include "llm/ledger.h"

#include <sqlite3.h>

#include "llm/redact.h"

namespace cutegen {
namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS llm_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  run_id TEXT NOT NULL, task_id TEXT NOT NULL, role TEXT NOT NULL, model TEXT NOT NULL,
  input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
  cached_tokens INTEGER NOT NULL, reasoning_tokens INTEGER NOT NULL,
  latency_s REAL NOT NULL, cost_usd REAL NOT NULL, outcome TEXT NOT NULL,
  request_id TEXT NOT NULL, prompt_key TEXT NOT NULL, error TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS llm_calls_run ON llm_calls(run_id, task_id);
)";

// Outcomes that did not reach a model spend nothing and do not count as calls.
constexpr const char* kSpendingOutcomes = "('ok', 'truncated', 'error')";

struct Stmt {
  sqlite3_stmt* s = nullptr;
  ~Stmt() { sqlite3_finalize(s); }
};

std::string db_error(sqlite3* db, const std::string& path, const char* what) {
  return path + ": " + what + ": " + sqlite3_errmsg(db);
}

}  // namespace

Result<Ledger> Ledger::open(const std::string& db_path) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(db_path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                           nullptr);
  std::shared_ptr<sqlite3> db(raw, sqlite3_close);
  if (rc != SQLITE_OK) return error(db_error(raw, db_path, "cannot open ledger"));
  sqlite3_busy_timeout(raw, 5000);
  char* msg = nullptr;
  if (sqlite3_exec(raw, "PRAGMA journal_mode=WAL;", nullptr, nullptr, &msg) != SQLITE_OK ||
      sqlite3_exec(raw, kSchema, nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string why = msg ? msg : "unknown error";
    sqlite3_free(msg);
    return error(db_path + ": cannot create the ledger table: " + why);
  }
  return Ledger(std::move(db), db_path);
}

Status Ledger::record(const CallRecord& c) {
  Stmt st;
  const char* sql =
      "INSERT INTO llm_calls (run_id, task_id, role, model, input_tokens, output_tokens, cached_tokens, "
      "reasoning_tokens, latency_s, cost_usd, outcome, request_id, prompt_key, error) "
      "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
  if (sqlite3_prepare_v2(db_.get(), sql, -1, &st.s, nullptr) != SQLITE_OK)
    return error(db_error(db_.get(), path_, "cannot record a call"));
  std::string texts[] = {redact(c.run_id), redact(c.task_id), redact(c.role), redact(c.model)};
  for (int i = 0; i < 4; ++i)
    sqlite3_bind_text(st.s, i + 1, texts[i].c_str(), -1, SQLITE_TRANSIENT);
  long nums[] = {c.usage.input, c.usage.output, c.usage.cached, c.usage.reasoning};
  for (int i = 0; i < 4; ++i)
    sqlite3_bind_int64(st.s, i + 5, nums[i]);
  sqlite3_bind_double(st.s, 9, c.latency_s);
  sqlite3_bind_double(st.s, 10, c.cost_usd);
  std::string tail[] = {redact(c.outcome), redact(c.request_id), redact(c.prompt_key), redact(c.error)};
  for (int i = 0; i < 4; ++i)
    sqlite3_bind_text(st.s, i + 11, tail[i].c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(st.s) != SQLITE_DONE) return error(db_error(db_.get(), path_, "cannot record a call"));
  return Ok{};
}

Result<Spend> Ledger::spent(const std::string& run_id, const std::string& task_id) const {
  Stmt st;
  std::string sql = std::string(
                        "SELECT COUNT(*), COALESCE(SUM(input_tokens + output_tokens), 0), "
                        "COALESCE(SUM(cost_usd), 0) FROM llm_calls WHERE outcome IN ") +
                    kSpendingOutcomes + " AND run_id = ?" + (task_id.empty() ? "" : " AND task_id = ?");
  if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &st.s, nullptr) != SQLITE_OK)
    return error(db_error(db_.get(), path_, "cannot read the ledger"));
  sqlite3_bind_text(st.s, 1, run_id.c_str(), -1, SQLITE_TRANSIENT);
  if (!task_id.empty()) sqlite3_bind_text(st.s, 2, task_id.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(st.s) != SQLITE_ROW) return error(db_error(db_.get(), path_, "cannot read the ledger"));
  return Spend{sqlite3_column_int64(st.s, 0), sqlite3_column_int64(st.s, 1), sqlite3_column_double(st.s, 2)};
}

Result<std::vector<CallRecord>> Ledger::calls(const std::string& run_id) const {
  Stmt st;
  const char* sql =
      "SELECT run_id, task_id, role, model, input_tokens, output_tokens, cached_tokens, reasoning_tokens, "
      "latency_s, cost_usd, outcome, request_id, prompt_key, error FROM llm_calls WHERE run_id = ? ORDER BY id";
  if (sqlite3_prepare_v2(db_.get(), sql, -1, &st.s, nullptr) != SQLITE_OK)
    return error(db_error(db_.get(), path_, "cannot read the ledger"));
  sqlite3_bind_text(st.s, 1, run_id.c_str(), -1, SQLITE_TRANSIENT);
  auto text = [&](int i) -> std::string {
    auto p = sqlite3_column_text(st.s, i);
    return p ? std::string(reinterpret_cast<const char*>(p)) : "";
  };
  std::vector<CallRecord> out;
  while (sqlite3_step(st.s) == SQLITE_ROW) {
    CallRecord c{text(0), text(1), text(2), text(3)};
    c.usage = Usage{sqlite3_column_int64(st.s, 4), sqlite3_column_int64(st.s, 5), sqlite3_column_int64(st.s, 6),
                    sqlite3_column_int64(st.s, 7)};
    c.latency_s = sqlite3_column_double(st.s, 8);
    c.cost_usd = sqlite3_column_double(st.s, 9);
    c.outcome = text(10), c.request_id = text(11), c.prompt_key = text(12), c.error = text(13);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace cutegen
