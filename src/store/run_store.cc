#include "store/run_store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <cstdio>
#include <random>

#include "sys/fs.h"

namespace cutegen {
namespace {

constexpr const char* kSchema = R"(
CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, config TEXT NOT NULL, llm TEXT NOT NULL,
  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
CREATE TABLE IF NOT EXISTS tasks (name TEXT PRIMARY KEY, path TEXT NOT NULL, position INTEGER NOT NULL,
  status TEXT NOT NULL, spec_json TEXT NOT NULL, stop_reason TEXT NOT NULL, best_step INTEGER NOT NULL,
  final_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS candidates (task TEXT NOT NULL, step INTEGER NOT NULL, stage TEXT NOT NULL,
  parent INTEGER NOT NULL, source TEXT NOT NULL, edit TEXT NOT NULL, edit_how TEXT NOT NULL,
  profiled INTEGER NOT NULL, tokens INTEGER NOT NULL, point TEXT NOT NULL DEFAULT '', PRIMARY KEY (task, step));
CREATE TABLE IF NOT EXISTS evaluations (task TEXT NOT NULL, step INTEGER NOT NULL, verdict TEXT NOT NULL,
  summary TEXT NOT NULL, report TEXT NOT NULL, speedup REAL NOT NULL, speedup_low REAL NOT NULL,
  speedup_high REAL NOT NULL, roofline_fraction REAL NOT NULL, fingerprint TEXT NOT NULL,
  statics TEXT NOT NULL, outcome TEXT NOT NULL, note TEXT NOT NULL, PRIMARY KEY (task, step));
CREATE TABLE IF NOT EXISTS profiles (task TEXT NOT NULL, step INTEGER NOT NULL, summary TEXT NOT NULL,
  bound TEXT, percent_of_peak REAL NOT NULL DEFAULT 0, PRIMARY KEY (task, step));
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), task TEXT NOT NULL, step INTEGER NOT NULL,
  kind TEXT NOT NULL, detail TEXT NOT NULL);
)";

// Schema 1 kept an expert step's point only in its edit's first line, "expert point: NAME=V,...".
constexpr const char* kSchema1Point =
    "CASE WHEN edit_how = 'expert' AND substr(edit, 1, 14) = 'expert point: ' "
    "THEN substr(edit, 15, instr(edit || char(10), char(10)) - 15) ELSE '' END";

constexpr const char* kNoCandidate = "no_candidate";

// A prepared statement with positional binding of text, integers and doubles.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) { ok_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) == SQLITE_OK; }
  ~Stmt() { sqlite3_finalize(s_); }
  template <class... A>
  Stmt& bind(const A&... a) {
    int i = 0;
    (put(++i, a), ...);
    return *this;
  }
  bool ok() const { return ok_; }
  int step() { return ok_ ? sqlite3_step(s_) : SQLITE_ERROR; }
  std::string text(int i) const {
    auto p = sqlite3_column_text(s_, i);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  long integer(int i) const { return sqlite3_column_int64(s_, i); }
  double real(int i) const { return sqlite3_column_double(s_, i); }

 private:
  void put(int i, const std::string& v) { sqlite3_bind_text(s_, i, v.c_str(), -1, SQLITE_TRANSIENT); }
  void put(int i, const char* v) { sqlite3_bind_text(s_, i, v, -1, SQLITE_TRANSIENT); }
  void put(int i, int v) { sqlite3_bind_int64(s_, i, v); }
  void put(int i, long v) { sqlite3_bind_int64(s_, i, v); }
  void put(int i, bool v) { sqlite3_bind_int64(s_, i, v ? 1 : 0); }
  void put(int i, double v) { sqlite3_bind_double(s_, i, v); }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  bool ok_ = false;
};

Result<int> pragma_int(sqlite3* db, const char* pragma) {
  Stmt st(db, pragma);
  if (!st.ok() || st.step() != SQLITE_ROW) return error(sqlite3_errmsg(db));
  return static_cast<int>(st.integer(0));
}

// flock on <dir>/run.lock, holding our pid for the message another process prints.
Result<std::shared_ptr<int>> take_lock(const std::string& dir) {
  std::string path = dir + "/run.lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return error(path + ": cannot open the run lock");
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    char buf[32] = {};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    ::close(fd);
    std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "?";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    return error("run " + dir + " is in use by another cutegen process (pid " + pid + "); wait for it or stop it");
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) < 0) { /* the pid is only a courtesy */
  }
  return std::shared_ptr<int>(new int(fd), [](int* p) {
    ::close(*p);
    delete p;
  });
}

// A name read back from the file as its enum; an unknown name is a damaged or foreign row.
template <class E>
Result<E> parse_stored(const std::string& text, const std::string& what) {
  if (auto v = parse_name<E>(text)) return *v;
  return error(what + " '" + text + "' is none of " + names_list<E>());
}

}  // namespace

const char* step_verdict_name(const StepRecord& s) { return s.verdict ? name(*s.verdict) : kNoCandidate; }

std::string new_run_id() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  std::random_device rd;
  char tail[8];
  std::snprintf(tail, sizeof tail, "%04x", rd() & 0xffff);
  return std::string(buf) + "-" + tail;
}

Status RunStore::exec(const std::string& sql) const {
  char* msg = nullptr;
  if (sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &msg) == SQLITE_OK) return Ok{};
  std::string why = msg ? msg : sqlite3_errmsg(db_.get());
  sqlite3_free(msg);
  return error(db_path() + ": " + why);
}

Result<RunStore> RunStore::open_db(const std::string& dir, bool create, bool lock) {
  RunStore s;
  s.dir_ = dir;
  std::string path = s.db_path();
  if (!create && !file_exists(path)) return error(dir + ": no run here (no run.db)");
  if (create && file_exists(path)) return error(dir + ": already holds a run; use `cutegen resume`");
  if (create) CUTEGEN_TRY(make_dirs(dir));
  if (lock) s.lock_fd_ = CUTEGEN_TRY(take_lock(dir));
  sqlite3* raw = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  s.db_.reset(raw, sqlite3_close);
  if (rc != SQLITE_OK) return error(path + ": cannot open: " + sqlite3_errmsg(raw));
  sqlite3_busy_timeout(raw, 5000);
  auto app = pragma_int(raw, "PRAGMA application_id");
  if (!app) return error(path + ": not a CuTeGen run file (corrupt or not SQLite: " + app.message() + ")");
  if (create) {
    CUTEGEN_TRY(s.exec("PRAGMA journal_mode=WAL; PRAGMA application_id=" + std::to_string(kRunStoreApplicationId) +
                       "; PRAGMA user_version=" + std::to_string(kRunStoreSchemaVersion) + ";"));
    CUTEGEN_TRY(s.exec(kSchema));
    return s;
  }
  if (*app != kRunStoreApplicationId) return error(path + ": not a CuTeGen run file (foreign SQLite database)");
  int version = CUTEGEN_TRY(pragma_int(raw, "PRAGMA user_version"));
  if (version > kRunStoreSchemaVersion)
    return error(path + ": written by a newer cutegen (schema " + std::to_string(version) + ", this one reads " +
                 std::to_string(kRunStoreSchemaVersion) + ")");
  if (version < 1) return error(path + ": not a CuTeGen run file (no schema version)");
  CUTEGEN_TRY(s.exec("PRAGMA journal_mode=WAL;"));
  s.version_ = version;
  if (lock && version == 1) {
    CUTEGEN_TRY(s.migrate_from_1());
    s.version_ = 2;
  }
  return s;
}

Status RunStore::migrate_from_1() const {
  // Schema 1 to 2: the expert's point gets its column, filled from the edits; profiles get the
  // verdict's columns, NULL (never recorded) in the rows schema 1 wrote.
  std::string sql =
      "BEGIN IMMEDIATE;"
      "ALTER TABLE candidates ADD COLUMN point TEXT NOT NULL DEFAULT '';"
      "UPDATE candidates SET point = " +
      std::string(kSchema1Point) +
      ";"
      "ALTER TABLE profiles ADD COLUMN bound TEXT;"
      "ALTER TABLE profiles ADD COLUMN percent_of_peak REAL NOT NULL DEFAULT 0;"
      "PRAGMA user_version=2; COMMIT;";
  if (auto st = exec(sql); !st) {
    (void)exec("ROLLBACK");
    return error(st.message() + " (migrating the run from schema 1)");
  }
  return Ok{};
}

Result<RunStore> RunStore::create(const std::string& dir, const RunMeta& meta, const std::vector<TaskRow>& tasks) {
  if (file_exists(dir + "/run.db")) return error(dir + ": already holds a run; use `cutegen resume`");
  // The run and its tasks are written in a side folder that is renamed into place, so a process
  // killed while creating a run leaves either no run or a whole one.
  std::string side = dir + ".creating-" + std::to_string(getpid());
  std::error_code ec;
  std::filesystem::remove_all(side, ec);
  {
    auto s = CUTEGEN_TRY(open_db(side, true, false));
    CUTEGEN_TRY(s.exec("BEGIN IMMEDIATE;"));
    Stmt st(s.db_.get(), "INSERT INTO runs (id, config, llm) VALUES (?,?,?)");
    if (st.bind(meta.id, meta.config, meta.llm).step() != SQLITE_DONE)
      return error(s.db_path() + ": cannot record the run");
    for (auto& t : tasks)
      CUTEGEN_TRY(s.add_task(t));
    CUTEGEN_TRY(s.exec("COMMIT;"));
  }
  std::filesystem::rename(side, dir, ec);
  if (ec) return error(dir + ": cannot create the run folder: " + ec.message());
  return open(dir);
}

Result<RunStore> RunStore::open(const std::string& dir) { return open_db(dir, false, true); }
Result<RunStore> RunStore::open_readonly(const std::string& dir) { return open_db(dir, false, false); }

Result<RunMeta> RunStore::meta() const {
  Stmt st(db_.get(), "SELECT id, config, llm, created FROM runs LIMIT 1");
  if (st.step() != SQLITE_ROW) return error(db_path() + ": the run record is missing");
  return RunMeta{st.text(0), st.text(1), st.text(2), st.text(3)};
}

Status RunStore::add_task(const TaskRow& t) {
  Stmt st(db_.get(),
          "INSERT OR IGNORE INTO tasks (name, path, position, status, spec_json, stop_reason, best_step, final_json) "
          "VALUES (?,?,?,?,?,?,?,?)");
  if (st.bind(t.name, t.path, t.position, name(t.status), t.spec_json, t.stop_reason, t.best_step, t.final_json)
          .step() != SQLITE_DONE)
    return error(db_path() + ": cannot add task " + t.name + ": " + sqlite3_errmsg(db_.get()));
  return Ok{};
}

Result<std::vector<TaskRow>> RunStore::tasks() const {
  Stmt st(db_.get(),
          "SELECT name, path, position, status, spec_json, stop_reason, best_step, final_json FROM tasks ORDER BY "
          "position");
  std::vector<TaskRow> out;
  while (st.step() == SQLITE_ROW) {
    auto status = CUTEGEN_TRY(parse_stored<TaskStatus>(st.text(3), db_path() + ": task " + st.text(0) + ": status"));
    out.push_back({st.text(0), st.text(1), static_cast<int>(st.integer(2)), status, st.text(4), st.text(5),
                   static_cast<int>(st.integer(6)), st.text(7)});
  }
  return out;
}

Status RunStore::update_task(const TaskRow& t) {
  Stmt st(db_.get(), "UPDATE tasks SET status=?, spec_json=?, stop_reason=?, best_step=?, final_json=? WHERE name=?");
  if (st.bind(name(t.status), t.spec_json, t.stop_reason, t.best_step, t.final_json, t.name).step() != SQLITE_DONE)
    return error(db_path() + ": cannot update task " + t.name + ": " + sqlite3_errmsg(db_.get()));
  return Ok{};
}

Status RunStore::commit_step(const StepRecord& s) {
  CUTEGEN_TRY(exec("BEGIN IMMEDIATE"));
  Stmt c(
      db_.get(),
      "INSERT OR IGNORE INTO candidates (task, step, stage, parent, source, edit, edit_how, profiled, tokens, point) "
      "VALUES (?,?,?,?,?,?,?,?,?,?)");
  Stmt e(db_.get(),
         "INSERT OR IGNORE INTO evaluations (task, step, verdict, summary, report, speedup, speedup_low, speedup_high, "
         "roofline_fraction, fingerprint, statics, outcome, note) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
  Stmt ev(db_.get(), "INSERT INTO events (task, step, kind, detail) VALUES (?,?,?,?)");
  const char* verdict = step_verdict_name(s);
  const char* outcome = name(s.outcome);
  bool ok =
      c.bind(s.task, s.step, name(s.stage), s.parent, s.source, s.edit, name(s.edit_how), s.profiled, s.tokens, s.point)
              .step() == SQLITE_DONE &&
      e.bind(s.task, s.step, verdict, s.summary, s.report, s.speedup, s.speedup_low, s.speedup_high,
             s.roofline_fraction, s.fingerprint, s.statics, outcome, s.note)
              .step() == SQLITE_DONE &&
      ev.bind(s.task, s.step, name(EventKind::kStep), name(s.stage) + (": " + std::string(verdict)) + ", " + outcome)
              .step() == SQLITE_DONE;
  if (!ok) {
    std::string why = sqlite3_errmsg(db_.get());
    (void)exec("ROLLBACK");
    return error(db_path() + ": cannot record step " + std::to_string(s.step) + " of " + s.task + ": " + why);
  }
  return exec("COMMIT");
}

Result<std::vector<StepRecord>> RunStore::steps(const std::string& task) const {
  std::string sql =
      "SELECT c.step, c.stage, c.parent, c.source, c.edit, c.edit_how, e.verdict, e.summary, e.report, e.speedup, "
      "e.speedup_low, e.speedup_high, e.roofline_fraction, e.fingerprint, e.statics, e.outcome, e.note, c.profiled, "
      "c.tokens, " +
      std::string(version_ >= 2 ? "c.point" : kSchema1Point) +
      " FROM candidates c JOIN evaluations e ON c.task = e.task AND c.step = e.step WHERE c.task = ? ORDER BY c.step";
  Stmt st(db_.get(), sql.c_str());
  st.bind(task);
  std::vector<StepRecord> out;
  while (st.step() == SQLITE_ROW) {
    StepRecord r;
    r.task = task;
    r.step = static_cast<int>(st.integer(0));
    r.parent = static_cast<int>(st.integer(2)), r.source = st.text(3), r.edit = st.text(4);
    std::string what = db_path() + ": step " + std::to_string(r.step) + " of " + task + ": ";
    r.stage = CUTEGEN_TRY(parse_stored<Stage>(st.text(1), what + "stage"));
    // Before "none" had a name, a step without a candidate was stored with an empty edit_how.
    r.edit_how =
        st.text(5).empty() ? EditHow::kNone : CUTEGEN_TRY(parse_stored<EditHow>(st.text(5), what + "edit_how"));
    if (st.text(6) != kNoCandidate) r.verdict = CUTEGEN_TRY(parse_stored<Verdict>(st.text(6), what + "verdict"));
    r.outcome = CUTEGEN_TRY(parse_stored<StepOutcome>(st.text(15), what + "outcome"));
    r.summary = st.text(7), r.report = st.text(8);
    r.speedup = st.real(9), r.speedup_low = st.real(10), r.speedup_high = st.real(11),
    r.roofline_fraction = st.real(12);
    r.fingerprint = st.text(13), r.statics = st.text(14), r.note = st.text(16);
    r.profiled = st.integer(17) != 0, r.tokens = st.integer(18), r.point = st.text(19);
    out.push_back(std::move(r));
  }
  return out;
}

Status RunStore::save_profile(const std::string& task, int step, const ProfileSummary& p) {
  Stmt st(db_.get(),
          "INSERT OR REPLACE INTO profiles (task, step, summary, bound, percent_of_peak) VALUES (?,?,?,?,?)");
  // The bound's name, or "" for a profile without counters (NULL is a schema-1 row: not recorded).
  const char* bound = p.verdict ? name(p.verdict->bound) : "";
  if (st.bind(task, step, p.text, bound, p.verdict ? p.verdict->percent_of_peak : 0.0).step() != SQLITE_DONE)
    return error(db_path() + ": cannot save a profile");
  return Ok{};
}

Result<std::optional<ProfileSummary>> RunStore::profile(const std::string& task, int step) const {
  if (version_ < 2) return std::optional<ProfileSummary>();
  Stmt st(db_.get(),
          "SELECT summary, bound, percent_of_peak FROM profiles WHERE task = ? AND step = ? AND bound IS NOT NULL");
  st.bind(task, step);
  if (st.step() != SQLITE_ROW) return std::optional<ProfileSummary>();
  ProfileSummary p{.text = st.text(0)};
  if (!st.text(1).empty()) {
    std::string what = db_path() + ": profile of step " + std::to_string(step) + " of " + task + ": bound";
    auto bound = CUTEGEN_TRY(parse_stored<Bound>(st.text(1), what));
    p.verdict = BoundVerdict{bound, st.real(2)};
  }
  return std::optional<ProfileSummary>(std::move(p));
}

Status RunStore::event(const std::string& task, int step, EventKind kind, const std::string& detail) {
  Stmt st(db_.get(), "INSERT INTO events (task, step, kind, detail) VALUES (?,?,?,?)");
  if (st.bind(task, step, name(kind), detail).step() != SQLITE_DONE)
    return error(db_path() + ": cannot record an event");
  return Ok{};
}

Result<std::vector<EventRow>> RunStore::events() const {
  Stmt st(db_.get(), "SELECT id, at, task, step, kind, detail FROM events ORDER BY id");
  std::vector<EventRow> out;
  while (st.step() == SQLITE_ROW) {
    auto kind = CUTEGEN_TRY(parse_stored<EventKind>(st.text(4), db_path() + ": event " + st.text(0) + ": kind"));
    out.push_back({st.integer(0), st.text(1), st.text(2), static_cast<int>(st.integer(3)), kind, st.text(5)});
  }
  return out;
}

}  // namespace cutegen
