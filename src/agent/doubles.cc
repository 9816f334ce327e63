#include "agent/doubles.h"

#include <chrono>
#include <filesystem>
#include <regex>
#include <set>
#include <thread>

#include "core/hash.h"
#include "sys/fs.h"

namespace cutegen {

Result<std::unique_ptr<ScriptedEvaluator>> ScriptedEvaluator::load(const std::string& path) {
  auto text = CUTEGEN_TRY(read_file(path));
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("rules") || !j["rules"].is_array())
    return error(path + ": not an evaluator script (a JSON object with a \"rules\" array)");
  return std::make_unique<ScriptedEvaluator>(std::move(j), std::filesystem::path(path).parent_path().string());
}

Result<nlohmann::json> ScriptedEvaluator::recorded(const std::string& file) const {
  std::string path = (std::filesystem::path(base_dir_) / file).string();
  auto j = nlohmann::json::parse(CUTEGEN_TRY(read_file(path)), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("verdict"))
    return error(path + ": not a recorded evaluator answer (`cutegen eval --json` output)");
  return j;
}

Result<Baseline> ScriptedEvaluator::baseline(const TaskSpec&) {
  if (std::string file = script_.value("baseline", ""); !file.empty()) {
    auto a = CUTEGEN_TRY(recorded(file));
    return Baseline{a.value("/timing/eager/median_ms"_json_pointer, 0.0),
                    a.value("/roofline/floor_ms"_json_pointer, 0.0),
                    parse_name<RooflineLimit>(a.value("/roofline/bound"_json_pointer, std::string()))};
  }
  std::string bound = script_.value("bound", std::string(name(RooflineLimit::kMemory)));
  auto limit = parse_name<RooflineLimit>(bound);
  if (!limit) return error("evaluator script: unknown bound '" + bound + "' (" + names_list<RooflineLimit>() + ")");
  Baseline b{script_.value("eager_ms", 0.0), script_.value("floor_ms", 0.0), limit,
             script_.value("eager_rel_err", 0.0)};
  b.accuracy_limit = script_.value("accuracy_limit", 0.0);
  b.tf32_rel_err = script_.value("tf32_rel_err", 0.0);
  return b;
}

namespace {

// A verdict as a script or an answer spells it: its name ("compile_error") or, as `cutegen eval`
// writes it, its phrase ("compile error").
Result<Verdict> verdict_from(const std::string& text, const std::string& where) {
  if (auto v = parse_name<Verdict>(text)) return *v;
  return error(where + ": unknown verdict '" + text + "' (" + names_list<Verdict>() + ")");
}

}  // namespace

Result<KernelEval> kernel_eval_from_answer(const nlohmann::json& a) {
  using nlohmann::json;
  KernelEval e{.verdict = CUTEGEN_TRY(verdict_from(a.value("verdict", ""), "recorded answer")),
               .summary = a.value("summary", "")};
  if (e.verdict == Verdict::kCompileError) e.report = a.value("/build/diagnostics"_json_pointer, std::string());
  for (auto& g : a.value("gate", json::array()))
    if (g.is_object()) e.report += g.value("rule", "") + ": " + g.value("detail", "") + "\n";
  for (auto& t : a.value("trials", json::array()))
    for (auto& f : t.is_object() ? t.value("failures", json::array()) : json::array())
      if (f.is_string())
        e.report += "trial seed " + std::to_string(t.value("seed", 0)) + ": " + f.get<std::string>() + "\n";
  if (e.report.empty() && !e.pass()) e.report = e.summary;
  e.speedup = a.value("/timing/speedup/point"_json_pointer, 0.0);
  e.speedup_low = a.value("/timing/speedup/low"_json_pointer, 0.0);
  e.speedup_high = a.value("/timing/speedup/high"_json_pointer, 0.0);
  e.compile_speedup = a.value("/timing/speedup_vs_compile/point"_json_pointer, 0.0);
  e.compile_speedup_low = a.value("/timing/speedup_vs_compile/low"_json_pointer, 0.0);
  e.compile_speedup_high = a.value("/timing/speedup_vs_compile/high"_json_pointer, 0.0);
  e.roofline_fraction = a.value("/roofline/fraction"_json_pointer, 0.0);
  return e;
}

Result<KernelEval> ScriptedEvaluator::evaluate(const TaskSpec&, const std::string& source, const std::string&) {
  ++calls_;
  if (int d = script_.value("delay_ms", 0); d > 0) std::this_thread::sleep_for(std::chrono::milliseconds(d));
  for (auto& rule : script_["rules"]) {
    if (source.find(rule.value("match", std::string("\x01"))) == std::string::npos) continue;
    if (std::string file = rule.value("answer", ""); !file.empty()) {
      KernelEval e = CUTEGEN_TRY(kernel_eval_from_answer(CUTEGEN_TRY(recorded(file))));
      e.fingerprint = rule.value("fingerprint", structure_fingerprint(source, 1));
      return e;
    }
    KernelEval e;
    std::string verdict = rule.value("verdict", std::string(name(Verdict::kPass)));
    e.verdict = CUTEGEN_TRY(verdict_from(verdict, "evaluator script rule '" + rule.value("match", "") + "'"));
    e.summary = rule.value("summary", verdict);
    e.report = rule.value("report", "");
    e.speedup = rule.value("speedup", 0.0);
    e.speedup_low = rule.value("speedup_low", e.speedup * 0.98);
    e.speedup_high = rule.value("speedup_high", e.speedup * 1.02);
    e.compile_speedup = rule.value("speedup_vs_compile", 0.0);
    e.compile_speedup_low = rule.value("speedup_vs_compile_low", e.compile_speedup * 0.98);
    e.compile_speedup_high = rule.value("speedup_vs_compile_high", e.compile_speedup * 1.02);
    e.roofline_fraction = rule.value("roofline_fraction", 0.0);
    e.statics = rule.value("statics", "");
    e.fingerprint = rule.value("fingerprint", structure_fingerprint(source, 1));
    return e;
  }
  return KernelEval{.verdict = Verdict::kWrong,
                    .summary = "scripted evaluator: no rule matches this source",
                    .report = "no rule matched"};
}

Result<ProfileSummary> ScriptedProfiler::profile(const TaskSpec& task, const std::string& source) {
  ++calls;
  return ProfileSummary{"scripted profile of " + task.name + " kernel " + hash_hex(source).substr(0, 8) +
                            ": memory-bound, 71% of DRAM bandwidth; lever: more bytes in flight per thread",
                        BoundVerdict{Bound::kMemory, 71}};
}

std::string structure_fingerprint(const std::string& source, int kernel_count) {
  static const std::regex shapes(R"((Shape|Tile|Int)\s*<[^;{}()]*?>)");
  static const std::regex atoms(R"(\b(SM[0-9]{2}_[A-Za-z0-9_]+|UniversalCopy<[^>]*>|DefaultCopy))");
  std::set<std::string> parts;
  for (auto* re : {&shapes, &atoms})
    for (std::sregex_iterator it(source.begin(), source.end(), *re), end; it != end; ++it)
      parts.insert(it->str());
  Hasher h;
  h.add(std::to_string(kernel_count));
  for (auto& p : parts)
    h.add(p);
  return h.hex().substr(0, 16);
}

}  // namespace cutegen
