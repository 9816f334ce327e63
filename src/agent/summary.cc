#include "agent/summary.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace cutegen {
namespace {

// Text for one table cell: a newline or a '|' would end it (the table names a stop reason's first
// line; a task without steps shows its reason whole below).
std::string cell(std::string s, size_t max_chars) {
  for (auto& c : s)
    if (c == '|' || c == '\n') c = ' ';
  return s.substr(0, max_chars);
}

}  // namespace

std::string step_edit_label(const StepRecord& r) {
  std::string edit = r.edit_how == EditHow::kNone ? "-" : name(r.edit_how);
  if (!r.point.empty()) {
    edit += ' ';  // appended piecewise: GCC 12 reports a false -Wrestrict on `" " + string`
    edit += r.point;
  }
  return edit;
}

std::string run_summary_markdown(const RunRecord& run) {
  const auto& tasks = run.tasks;
  const auto& steps = run.steps;
  const auto& spend = run.spend;
  std::string out = "# CuTeGen run " + run.meta.id + "\n\nModel: `" + run.meta.llm + "`\n\n";
  out += "| task | status | verdict | speedup vs eager | roofline | steps | tokens | cost | stop |\n";
  out += "|---|---|---|---|---|---|---|---|---|\n";
  char b[512];
  for (auto& t : tasks) {
    auto f = nlohmann::json::parse(t.final_json.empty() ? "{}" : t.final_json, nullptr, false);
    auto sp = spend.count(t.name) ? spend.at(t.name) : Spend{};
    size_t n = steps.count(t.name) ? steps.at(t.name).size() : 0;
    char speed[96] = "-", roofline[32] = "-";  // a dash where nothing was measured (a pending task)
    if (f.value("speedup", 0.0) > 0) {
      std::snprintf(speed, sizeof speed, "%.2fx [%.2f, %.2f]", f.value("speedup", 0.0), f.value("speedup_low", 0.0),
                    f.value("speedup_high", 0.0));
      std::snprintf(roofline, sizeof roofline, "%.0f%%", 100 * f.value("roofline_fraction", 0.0));
    }
    std::snprintf(b, sizeof b, "| %s | %s | %s | %s | %s | %zu | %ld | $%.4f | %s |\n", t.name.c_str(), name(t.status),
                  f.value("verdict", std::string("-")).c_str(), speed, roofline, n, sp.tokens, sp.dollars,
                  cell(t.stop_reason.substr(0, t.stop_reason.find('\n')), 300).c_str());
    out += b;
  }
  for (auto& t : tasks) {
    if (!steps.count(t.name) || steps.at(t.name).empty()) {  // e.g. a file that would not load: its error whole
      out += "\n## " + t.name + "\n\nNo steps (status " + name(t.status) + ").\n";
      if (!t.stop_reason.empty()) out += "\n```\n" + t.stop_reason + "\n```\n";
      continue;
    }
    out += "\n## " + t.name +
           "\n\n| step | stage | edit | verdict | speedup | roofline | outcome | note "
           "|\n|---|---|---|---|---|---|---|---|\n";
    for (auto& r : steps.at(t.name)) {
      std::string edit = step_edit_label(r);
      std::snprintf(b, sizeof b, "| %d | %s%s | %s | %s | %.2fx | %.0f%% | %s | ", r.step + 1, name(r.stage),
                    r.profiled ? " +profile" : "", edit.c_str(), step_verdict_name(r), r.speedup,
                    100 * r.roofline_fraction, name(r.outcome));
      out += b + cell(r.note, 200) + " |\n";
    }
  }
  return out;
}

}  // namespace cutegen
