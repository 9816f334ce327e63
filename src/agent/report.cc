#include "agent/report.h"

#include "core/text_template.h"

#include <nlohmann/json.hpp>

#include "agent/html.h"
#include "agent/kernelbench_metrics.h"
#include "agent/line_diff.h"
#include "agent/prompts.h"
#include "agent/report_plot.h"
#include "agent/summary.h"
#include "core/strings.h"
#include "report_page_html.h"

namespace cutegen {
namespace {

using nlohmann::json;

std::string badge(const std::string& word) {
  return "<span class=\"badge " + html_escape(word) + "\">" + html_escape(word) + "</span>";
}

std::string anchor(const std::string& task) { return "task-" + html_escape(task); }

// "1.18x" with its interval below, or a dash where nothing was measured.
std::string speedup_cell(double point, double low, double high) {
  if (point <= 0) return "<td class=\"num\">&ndash;</td>";
  return strf("<td class=\"num\">%.2fx<br><span class=\"ci\">[%.2f, %.2f]</span></td>", point, low, high);
}

json final_of(const TaskRow& t) {
  auto f = json::parse(t.final_json.empty() ? "{}" : t.final_json, nullptr, false);
  return f.is_object() ? f : json::object();
}

bool verified(const TaskRow& t) {
  return t.status == TaskStatus::kDone && parse_name<Verdict>(final_of(t).value("verdict", "")) == Verdict::kPass;
}

std::string aggregates(const RunRecord& run) {
  std::vector<TaskSpeedup> eager, compiled;
  long tokens = 0, steps = 0;
  double dollars = 0;
  for (auto& t : run.tasks) {
    auto f = final_of(t);
    eager.push_back({verified(t), f.value("speedup", 0.0)});
    compiled.push_back({verified(t), f.value("compile_speedup", 0.0)});
    if (run.spend.count(t.name)) tokens += run.spend.at(t.name).tokens, dollars += run.spend.at(t.name).dollars;
    steps += run.steps.count(t.name) ? static_cast<long>(run.steps.at(t.name).size()) : 0;
  }
  int n_verified = 0;
  for (auto& e : eager)
    n_verified += e.verified;
  auto card = [](const std::string& value, const std::string& label) {
    return "<div class=\"card\"><div class=\"value\">" + value + "</div><div class=\"label\">" + label + "</div></div>";
  };
  std::string out = "<div class=\"cards\">";
  out += card(strf("%d / %zu", n_verified, run.tasks.size()), "tasks with a verified kernel");
  out += card(strf("%.2fx", geomean_speedup(eager)), "geometric mean speedup over eager");
  out += card(strf("%.0f%%", 100 * fast_p(eager, 1.0)), "fast<sub>1.0</sub> over eager");
  out += card(std::to_string(steps), "steps");
  out += card(std::to_string(tokens), "model tokens");
  out += card(strf("$%.4f", dollars), "model cost");
  out +=
      "</div>\n<h3>KernelBench aggregates</h3>\n<table class=\"aggregates\"><tr><th>baseline</th><th>fast<sub>0</sub> "
      "(verified)</th><th>fast<sub>1.0</sub></th><th>fast<sub>1.5</sub></th><th>fast<sub>2.0</sub></th><th>geometric "
      "mean</th></tr>\n";
  bool any_compiled = false;
  for (auto& c : compiled)
    any_compiled |= c.speedup > 0;
  for (auto& [name, tasks] : {std::pair{"eager", &eager}, std::pair{"torch.compile", &compiled}}) {
    if (tasks == &compiled && !any_compiled) continue;  // the evaluator timed no torch.compile
    out += strf("<tr><td>%s</td>", name);
    for (double p : {0.0, 1.0, 1.5, 2.0})
      out += strf("<td class=\"num\">%.0f%%</td>", 100 * fast_p(*tasks, p));
    out += strf("<td class=\"num\">%.2fx</td></tr>\n", geomean_speedup(*tasks));
  }
  return out + "</table>\n";
}

std::string run_table(const RunRecord& run) {
  std::string out =
      "<table class=\"runs\"><tr><th>task</th><th>status</th><th>verdict</th><th>vs eager</th>"
      "<th>vs torch.compile</th><th>roofline</th><th>steps</th><th>tokens</th><th>cost</th><th>stop</th></tr>\n";
  for (auto& t : run.tasks) {
    auto f = final_of(t);
    Spend sp = run.spend.count(t.name) ? run.spend.at(t.name) : Spend{};
    size_t n = run.steps.count(t.name) ? run.steps.at(t.name).size() : 0;
    out += "<tr class=\"task-row\" data-task=\"" + html_escape(t.name) + "\"><td><a href=\"#" + anchor(t.name) + "\">" +
           html_escape(t.name) + "</a></td><td>" + badge(name(t.status)) + "</td><td>" +
           (f.contains("verdict") ? badge(f.value("verdict", "")) : "&ndash;") + "</td>";
    out += speedup_cell(f.value("speedup", 0.0), f.value("speedup_low", 0.0), f.value("speedup_high", 0.0));
    out += speedup_cell(f.value("compile_speedup", 0.0), f.value("compile_speedup_low", 0.0),
                        f.value("compile_speedup_high", 0.0));
    out += f.contains("roofline_fraction")
               ? strf("<td class=\"num\">%.0f%%</td>", 100 * f.value("roofline_fraction", 0.0))
               : "<td class=\"num\">&ndash;</td>";
    out += strf("<td class=\"num\">%zu</td><td class=\"num\">%ld</td><td class=\"num\">$%.4f</td>", n, sp.tokens,
                sp.dollars);
    out += "<td>" + html_escape(t.stop_reason.substr(0, t.stop_reason.find('\n'))) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string steps_table(const std::vector<StepRecord>& steps) {
  std::string out =
      "<table class=\"steps\"><tr><th>step</th><th>stage</th><th>edit</th><th>verdict</th><th>vs eager</th>"
      "<th>roofline</th><th>outcome</th><th>note</th></tr>\n";
  for (auto& s : steps) {
    bool pass = s.verdict == Verdict::kPass;
    out +=
        strf("<tr class=\"step-row %s\"><td class=\"num\">%d</td>", html_escape(name(s.outcome)).c_str(), s.step + 1);
    out += std::string("<td>") + name(s.stage) + (s.profiled ? " <span class=\"badge\">+profile</span>" : "") + "</td>";
    out += "<td><code>" + html_escape(step_edit_label(s)) + "</code></td><td>" + badge(step_verdict_name(s)) + "</td>";
    out += pass ? speedup_cell(s.speedup, s.speedup_low, s.speedup_high) : "<td class=\"num\">&ndash;</td>";
    out += pass ? strf("<td class=\"num\">%.0f%%</td>", 100 * s.roofline_fraction) : "<td class=\"num\">&ndash;</td>";
    out += "<td>" + badge(name(s.outcome)) + "</td><td>" + html_escape(s.note) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string diff_block(const std::string& before, const std::string& after) {
  std::string out = "<pre class=\"diff\">";
  for (auto& l : line_diff(before, after)) {
    if (l.kind == '~')
      out += "<span class=\"gap\">&hellip; " + l.text + " unchanged lines</span>";
    else
      out += std::string("<span class=\"") +
             (l.kind == '+'   ? "add"
              : l.kind == '-' ? "del"
                              : "ctx") +
             "\">" + l.kind + ' ' + html_escape(l.text) + "</span>";
  }
  return out + "</pre>";
}

// The first kept kernel whole, then each later kept kernel as a diff against the one before it.
std::string kept_kernels(const std::vector<StepRecord>& steps) {
  std::string out;
  const StepRecord* prev = nullptr;
  for (auto& s : steps) {
    if (s.outcome != StepOutcome::kAccepted) continue;
    if (!prev)
      out += strf("<details class=\"kernel\"><summary>step %d: the first kept kernel (%.2fx, %zu lines)</summary><pre>",
                  s.step + 1, s.speedup, split_lines(s.source).size()) +
             html_escape(s.source) + "</pre></details>\n";
    else
      out += strf("<details class=\"kernel-diff\" open><summary>step %d &rarr; step %d (%.2fx &rarr; %.2fx)</summary>",
                  prev->step + 1, s.step + 1, prev->speedup, s.speedup) +
             diff_block(prev->source, s.source) + "</details>\n";
    prev = &s;
  }
  return out.empty() ? "<p class=\"empty\">No kernel was kept.</p>\n" : out;
}

// Each profile once, with the steps whose prompts carried it.
std::string profiles_seen(const std::vector<ProfileSeen>& seen) {
  std::string out;
  for (size_t i = 0; i < seen.size();) {
    size_t j = i;
    std::string by;
    for (; j < seen.size() && seen[j].parent == seen[i].parent && seen[j].summary == seen[i].summary; ++j)
      by += (by.empty() ? "" : ", ") + std::to_string(seen[j].step + 1);
    out += strf(
               "<details class=\"profile\"%s><summary>the profile of step %d's kernel, in the prompt of step%s "
               "%s</summary>",
               i == 0 ? " open" : "", seen[i].parent + 1, j - i > 1 ? "s" : "", by.c_str()) +
           "<pre class=\"profile\">" + html_escape(seen[i].summary) + "</pre></details>\n";
    i = j;
  }
  return out.empty() ? "<p class=\"empty\">No prompt carried a runtime profile.</p>\n" : out;
}

std::string findings(const std::vector<StepRecord>& steps) {
  std::string out;
  for (auto& s : steps) {
    if (s.outcome != StepOutcome::kFailed) continue;
    std::string text = s.report.empty() ? s.summary : s.report;
    out += strf("<details class=\"finding\" open><summary>step %d (%s): ", s.step + 1, name(s.stage)) +
           badge(step_verdict_name(s)) + " " + html_escape(s.summary) + "</summary><pre class=\"finding\">" +
           html_escape(truncate_middle(text, 6000)) + "</pre></details>\n";
  }
  return out.empty() ? "<p class=\"empty\">No step failed.</p>\n" : out;
}

std::string task_section(const RunRecord& run, const TaskRow& t) {
  static const std::vector<StepRecord> none;
  static const std::vector<ProfileSeen> no_profiles;
  const auto& steps = run.steps.count(t.name) ? run.steps.at(t.name) : none;
  std::string out = "<section class=\"task\" id=\"" + anchor(t.name) + "\" data-task=\"" + html_escape(t.name) +
                    "\">\n<div class=\"head\"><h2>" + html_escape(t.name) + "</h2>" + badge(name(t.status)) +
                    "<span class=\"meta\"><code>" + html_escape(t.path) + "</code></span></div>\n";
  if (steps.empty()) {
    out += "<p class=\"empty\">No steps.</p>";
    if (!t.stop_reason.empty()) out += "<pre class=\"finding\">" + html_escape(t.stop_reason) + "</pre>";
    return out + "</section>\n";
  }
  if (!t.stop_reason.empty()) out += "<p class=\"meta\">Stopped: " + html_escape(t.stop_reason) + "</p>\n";
  out += "<div class=\"plot\">" + speedup_plot_svg(t.name, steps) + "</div>\n";
  out += "<h3>Steps</h3>\n" + steps_table(steps);
  out += "<h3>Kept kernels</h3>\n" + kept_kernels(steps);
  out += "<h3>Profiles the model saw</h3>\n" +
         profiles_seen(run.profiles.count(t.name) ? run.profiles.at(t.name) : no_profiles);
  out += "<h3>Evaluator findings for failed steps</h3>\n" + findings(steps);
  return out + "</section>\n";
}

}  // namespace

std::string run_report_html(const RunRecord& run) {
  std::string tasks;
  for (auto& t : run.tasks)
    tasks += task_section(run, t);
  auto page = render_template(kReportPageTemplate,
                              {{"run_id", html_escape(run.meta.id)},
                               {"model", html_escape(run.meta.llm)},
                               {"created", html_escape(run.meta.created)},
                               {"aggregates", aggregates(run)},
                               {"run_table", run_table(run)},
                               {"tasks", tasks}},
                              "report_page.html");
  return page ? *page : "<!DOCTYPE html><p>report template: " + html_escape(page.message()) + "</p>";
}

}  // namespace cutegen
