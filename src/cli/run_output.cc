#include "cli/run_output.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "agent/summary.h"
#include "cli/decline.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

Status write_summary(const RunView& run) {
  return write_file_atomic(run.run().dir() + "/summary.md", run_summary_markdown(CUTEGEN_TRY(read_run(run))));
}

void print_table(const RunView& run, const Context& ctx) {
  bool json = ctx.json;
  auto tasks = must(run.tasks());
  nlohmann::json j = nlohmann::json::array();
  if (!json)
    std::printf("%-24s %-8s %-10s %-10s %-9s %-6s %s\n", "task", "status", "verdict", "speedup", "roofline", "steps",
                "stop");
  for (auto& t : tasks) {
    auto f = nlohmann::json::parse(t.final_json.empty() ? "{}" : t.final_json, nullptr, false);
    size_t n = must(run.steps(t.name)).size();
    if (json) {
      j.push_back({{"task", t.name},
                   {"status", name(t.status)},
                   {"best_step", t.best_step},
                   {"final", f},
                   {"steps", n},
                   {"stop_reason", t.stop_reason}});
      continue;
    }
    // A loader's error may go on with Python's detail: summary.md has it whole.
    std::string stop = decline_message(first_line(t.stop_reason), ctx.verbose);
    std::printf("%-24s %-8s %-10s %8.2fx  %7.0f%%  %-6zu %s\n", t.name.c_str(), name(t.status),
                f.value("verdict", std::string("-")).c_str(), f.value("speedup", 0.0),
                100 * f.value("roofline_fraction", 0.0), n, stop.c_str());
  }
  if (json) std::printf("%s\n", nlohmann::json{{"run", run.run().dir()}, {"tasks", j}}.dump(2).c_str());
}

}  // namespace cutegen
