#include "task/summary.h"

#include <cstdio>

#include "core/strings.h"

namespace cutegen {
namespace {

std::string format(const char* fmt, double v, const char* unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v, unit);
  return buf;
}

std::string arg_line(const TaskArg& a) {
  char buf[512];
  if (!a.is_tensor()) {
    std::snprintf(buf, sizeof buf, "  %-24s %-9s = %s\n", a.name.c_str(), a.ctype.c_str(), a.value.c_str());
    return buf;
  }
  std::string kind = a.kind == ArgKind::kBuffer ? " (buffer)" : "";
  std::snprintf(buf, sizeof buf, "  %-24s %-9s %-20s strides %-16s %s%s\n", a.name.c_str(), dtype_info(a.dtype).name,
                dims_text(a.shape).c_str(), dims_text(a.strides).c_str(), human_bytes(a.bytes()).c_str(), kind.c_str());
  return buf;
}

std::string section(const char* title, const std::vector<TaskArg>& args) {
  if (args.empty()) return std::string(title) + ": none\n";
  std::string s = std::string(title) + ":\n";
  for (auto& a : args)
    s += arg_line(a);
  return s;
}

// Consecutive repeats folded: "aten.mm.default x12".
std::string op_list(const std::vector<std::string>& ops) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < ops.size();) {
    size_t j = i;
    while (j < ops.size() && ops[j] == ops[i])
      ++j;
    parts.push_back(j - i > 1 ? ops[i] + " x" + std::to_string(j - i) : ops[i]);
    i = j;
  }
  return parts.empty() ? "none" : join(parts, ", ");
}

}  // namespace

std::string human_bytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4)
    v /= 1024, ++u;
  return u == 0 ? std::to_string(bytes) + " B" : format("%.2f %s", v, units[u]);
}

std::string human_flops(int64_t flops) {
  const char* units[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP"};
  if (flops == 0) return "0";
  double v = static_cast<double>(flops);
  int u = 0;
  while (v >= 1000 && u < 5)
    v /= 1000, ++u;
  return format("%.1f %s", v, units[u]);
}

std::string task_summary(const TaskSpec& spec) {
  std::string s = "task " + spec.name + " (" + spec.path + ", seed " + std::to_string(spec.seed) +
                  (spec.traced_on.empty() ? "" : ", traced on " + spec.traced_on) + ")\n";
  s += "init args: " + (spec.init_args.empty() ? std::string("none") : join(spec.init_args, ", ")) + "\n";
  s += section("inputs", spec.inputs);
  s += section("params", spec.params);
  s += section("outputs", spec.outputs);
  s += "ops: " + op_list(spec.ops) + "\n";
  s += "flops: " +
       (spec.flops == 0 ? std::string("0 (only matmul/conv-class ops are counted)")
                        : std::to_string(spec.flops) + " (" + human_flops(spec.flops) + ")") +
       "\n";
  s += "min bytes: " + std::to_string(spec.min_bytes) + " (" + human_bytes(spec.min_bytes) + ")";
  if (spec.flops > 0 && spec.min_bytes > 0)
    s += format(", %.1f FLOP/byte", static_cast<double>(spec.flops) / static_cast<double>(spec.min_bytes), "");
  return s + "\n";
}

}  // namespace cutegen
