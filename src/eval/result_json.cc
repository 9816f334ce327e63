#include "eval/result_json.h"

namespace cutegen {
namespace {

nlohmann::json summary_json(const Summary& s) {
  return {{"median_ms", s.median}, {"p10_ms", s.p10}, {"p90_ms", s.p90}, {"min_ms", s.min}, {"n", s.n}};
}

nlohmann::json interval_json(const Interval& i) { return {{"point", i.point}, {"low", i.low}, {"high", i.high}}; }

}  // namespace

nlohmann::json eval_result_json(const EvalResult& r) {
  // "verdict" is the phrase ("compile error"), as eval has always written it; the agent reads either.
  nlohmann::json j = {{"verdict", phrase(r.verdict)}, {"exit_code", exit_code(r.verdict)}, {"summary", r.summary}};
  j["build"] = {
      {"outcome", phrase(r.build.outcome)}, {"key", r.build.key},
      {"cache_hit", r.build.cache_hit},     {"library", r.build.library_path},
      {"message", r.build.message},         {"diagnostics", render_diagnostics(r.build.diagnostics, "kernel.cu")}};
  j["cute_usage"] = r.cute;
  j["gate"] = nlohmann::json::array();
  for (auto& g : r.gate)
    j["gate"].push_back({{"rule", g.rule}, {"detail", g.detail}});
  j["trials"] = nlohmann::json::array();
  for (auto& t : r.trials)
    j["trials"].push_back({{"seed", t.seed}, {"pass", t.pass}, {"failures", t.failures}});
  if (r.timing) {
    auto& t = *r.timing;
    j["timing"] = {{"candidate", summary_json(t.candidate)},
                   {"eager", summary_json(t.eager)},
                   {"speedup", interval_json(t.speedup)},
                   {"event_overhead_ms", t.event_overhead_ms},
                   {"input_sets", t.input_sets},
                   {"accounting",
                    {{"batches", t.accounting.batches},
                     {"overhead_ms", t.accounting.overhead_ms},
                     {"tolerance_ms", t.accounting.tolerance_ms},
                     {"worst_unaccounted_ms", t.accounting.worst_unaccounted_ms},
                     {"waited_ms", t.accounting.waited_ms},
                     {"runner_cpu_ms", t.accounting.runner_cpu_ms},
                     {"runner_batch_ms", t.accounting.runner_batch_ms},
                     {"flush_ms", {t.accounting.flush_min_ms, t.accounting.flush_max_ms}},
                     {"worst_probe_ms", t.accounting.worst_probe_ms},
                     {"probe_limit_ms", t.accounting.probe_limit_ms}}}};
    if (t.compiled) {
      j["timing"]["compile"] = summary_json(*t.compiled);
      j["timing"]["speedup_vs_compile"] = interval_json(*t.speedup_vs_compile);
    }
  }
  if (r.roofline)
    j["roofline"] = {{"floor_ms", r.roofline->floor_ms},     {"memory_ms", r.roofline->memory_ms},
                     {"compute_ms", r.roofline->compute_ms}, {"bound", name(r.roofline->bound)},
                     {"math_rate", r.roofline->math_rate},   {"fraction", r.roofline_fraction}};
  j["isolation"] = r.isolation;
  j["eval_seconds"] = r.eval_seconds;
  if (!r.refused_first.empty()) j["refused_first"] = r.refused_first;
  j["worker"] = r.worker_doc;
  return j;
}

}  // namespace cutegen
