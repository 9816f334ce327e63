#include "cli/deal.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "core/strings.h"
#include "store/run_view.h"
#include "sys/fs.h"
#include "sys/gpu.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace {

using Clock = std::chrono::steady_clock;

std::string self_exe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "cutegen" : p.string();
}

bool finished(TaskStatus s) { return s == TaskStatus::kDone || s == TaskStatus::kFailed; }

// What one GPU is doing, for the progress line.
struct Slot {
  std::string gpu, task;
  Clock::time_point since;
};

// The dealer's shared state: the queue of tasks, what each slot runs, and what came back.
struct Table {
  std::mutex mu;
  std::vector<TaskRow> queue;
  size_t next = 0;
  std::vector<Slot> slots;
  int done = 0, total = 0, running = 0;
  std::vector<double> seconds;  // wall time of the tasks finished here
  DealResult result;
  bool stop = false;  // a child failed: deal nothing new
};

// Waits for a killed earlier child to let go of the shard's lock (it dies with its parent, but
// not always before the next resume starts).
void wait_for_shard(const std::string& dir) {
  if (!file_exists(dir + "/run.db")) return;
  for (int i = 0; i < 100; ++i) {
    auto s = RunStore::open(dir);
    if (s.ok() || !contains(s.message(), "in use")) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// The child for one task: resume its shard, or start one (a folder left half-made is started over).
std::vector<std::string> child_argv(const std::string& run_dir, const TaskRow& row, const std::string& gpu,
                                    const std::vector<std::string>& flags) {
  std::vector<std::string> argv = {self_exe()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  if (!gpu.empty()) argv.insert(argv.end(), {"--set", "eval.gpu=" + gpu});
  std::string dir = shard_dir(run_dir, row.name);
  if (file_exists(dir + "/run.db")) {
    argv.insert(argv.end(), {"resume", dir});
    return argv;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  argv.insert(argv.end(), {"--set", "store.dir=" + run_dir + "/shards", "run", row.path, "--run-id", row.name});
  return argv;
}

std::string last_line(const std::string& text) {
  auto lines = split_lines(trim(text));
  return lines.empty() ? "" : lines.back();
}

void run_slot(Table& t, size_t index, const std::string& run_dir, const std::vector<std::string>& flags) {
  for (;;) {
    TaskRow row;
    std::string gpu;
    {
      std::lock_guard<std::mutex> lock(t.mu);
      if (t.stop || t.next >= t.queue.size()) return;
      row = t.queue[t.next++];
      gpu = t.slots[index].gpu;
      t.slots[index].task = row.name;
      t.slots[index].since = Clock::now();
      ++t.running;
    }
    wait_for_shard(shard_dir(run_dir, row.name));
    auto r = run_process({.argv = child_argv(run_dir, row, gpu, flags), .die_with_parent = true});
    std::string log = r.ok() ? r->err : r.message();
    (void)make_dirs(run_dir + "/logs");
    std::ofstream(run_dir + "/logs/" + row.name + ".log", std::ios::app) << log;
    std::lock_guard<std::mutex> lock(t.mu);
    --t.running;
    t.slots[index].task.clear();
    t.seconds.push_back(std::chrono::duration<double>(Clock::now() - t.slots[index].since).count());
    int code = r.ok() ? (r->signal ? 128 + r->signal : r->exit_code) : 2;
    if (code == 0 || code == 1) {
      ++t.done;
      if (code == 1 && t.result.exit_code == 0) t.result.exit_code = 1;
      continue;
    }
    if (t.result.error.empty()) t.result = {code, row.name + ": " + last_line(log)};
    t.stop = true;
  }
}

std::string duration_text(double s) {
  char b[32];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%dh%02dm", static_cast<int>(s / 3600), static_cast<int>(s / 60) % 60);
  else if (s >= 60)
    std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  else
    std::snprintf(b, sizeof b, "%ds", static_cast<int>(s));
  return b;
}

// Who runs what: the progress line's part that a log (no terminal) prints a line for when it changes.
std::string assignment_key(Table& t) {
  std::lock_guard<std::mutex> lock(t.mu);
  std::string key = std::to_string(t.done);
  for (auto& s : t.slots)
    key += "," + s.task;
  return key;
}

// "[2/5 tasks] gpu0: relu step 3 best 1.80x | gpu1: idle | ETA 40s": the steps from each task's shard.
std::string progress_text(Table& t, const std::string& run_dir) {
  std::lock_guard<std::mutex> lock(t.mu);
  std::string line = "[" + std::to_string(t.done) + "/" + std::to_string(t.total) + " tasks]";
  for (auto& s : t.slots) {
    line += " gpu" + (s.gpu.empty() ? std::string("-") : s.gpu) + ": ";
    if (s.task.empty()) {
      line += "idle |";
      continue;
    }
    line += s.task;
    if (auto st = RunStore::open_readonly(shard_dir(run_dir, s.task)); st.ok())
      if (auto steps = st->steps(s.task); steps.ok()) {
        double best = 0;
        for (auto& r : *steps)
          if (r.outcome == StepOutcome::kAccepted) best = std::max(best, r.speedup);
        char b[64];
        if (best > 0)
          std::snprintf(b, sizeof b, " step %zu best %.2fx", steps->size(), best);
        else
          std::snprintf(b, sizeof b, " step %zu best -", steps->size());  // no kept step yet
        line += b;
      }
    line += " |";
  }
  size_t left = t.queue.size() - t.next + t.running;  // what this dealer still has to run
  if (t.seconds.empty()) {
    line += " ETA -";
  } else {
    double mean = 0;
    for (double s : t.seconds)
      mean += s;
    mean /= t.seconds.size();
    line += " ETA " + duration_text(mean * left / std::max<size_t>(1, t.slots.size()));
  }
  return line;
}

}  // namespace

Result<std::vector<std::string>> parse_gpus(const Context& ctx, const std::string& spec) {
  std::vector<std::string> out;
  if (spec != "all") {
    for (auto& g : split(spec, ','))
      if (!trim(g).empty()) out.push_back(trim(g));
    if (out.empty()) return error("--gpus: expected all or a list of GPU indices such as 0,2, got '" + spec + "'");
    return out;
  }
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"); v && *v) {
    for (auto& g : split(v, ','))
      if (!trim(g).empty()) out.push_back(trim(g));
  } else if (auto gpus = query_gpus(); gpus.ok()) {
    for (auto& g : *gpus)
      out.push_back(std::to_string(g.index));
  }
  if (out.empty() && ctx.config.str("agent.evaluator") != "real") out.push_back("");  // scripted: no GPU needed
  if (out.empty()) return error("--gpus all: no NVIDIA GPU on this machine");
  return out;
}

std::vector<std::string> child_flags(const Context& ctx, const std::string& recorded_config) {
  std::vector<std::string> f;
  if (!ctx.config_path.empty()) f.insert(f.end(), {"--config", ctx.config_path});
  for (auto& line : split_lines(recorded_config)) {
    auto eq = line.find(" = ");
    if (eq != std::string::npos) f.insert(f.end(), {"--set", line.substr(0, eq) + "=" + line.substr(eq + 3)});
  }
  for (auto& kv : ctx.overrides)
    f.insert(f.end(), {"--set", kv});
  if (ctx.verbose) f.push_back("--verbose");
  return f;
}

DealResult deal_tasks(const std::string& run_dir, const std::vector<TaskRow>& todo,
                      const std::vector<std::string>& gpus, const std::vector<std::string>& flags) {
  Table t;
  t.queue = todo;
  for (auto& g : gpus)
    t.slots.push_back({.gpu = g});
  if (auto view = RunView::open(run_dir); view.ok())
    if (auto rows = view->tasks(); rows.ok()) {
      t.total = static_cast<int>(rows->size());
      for (auto& r : *rows)
        t.done += finished(r.status);
    }
  t.done = std::min(t.done, t.total - static_cast<int>(todo.size()));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < t.slots.size(); ++i)
    threads.emplace_back(run_slot, std::ref(t), i, run_dir, std::cref(flags));
  bool tty = isatty(2);
  std::string shown;
  auto joined = [&]() {
    std::lock_guard<std::mutex> lock(t.mu);
    return t.running == 0 && (t.stop || t.next >= t.queue.size());
  };
  while (!joined()) {
    // A terminal redraws in place; a log gets a line when which task runs where changes.
    std::string key = assignment_key(t);
    if (tty)
      std::fprintf(stderr, "\r\033[K%s", progress_text(t, run_dir).c_str());
    else if (key != shown)
      std::fprintf(stderr, "%s\n", progress_text(t, run_dir).c_str());
    shown = key;
    std::this_thread::sleep_for(std::chrono::milliseconds(tty ? 500 : 1000));
  }
  for (auto& th : threads)
    th.join();
  std::fprintf(stderr, tty ? "\r\033[K%s\n" : "%s\n", progress_text(t, run_dir).c_str());
  return t.result;
}

}  // namespace cutegen
