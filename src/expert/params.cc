#include "expert/params.h"

#include <algorithm>
#include <charconv>

#include "core/strings.h"

namespace cutegen {
namespace {

int elem_bytes(const std::string& c_type) { return c_type == "float" ? 4 : c_type == "int64_t" ? 8 : 2; }

// Which parameters a template reads; the others stay at their defaults so points do not alias.
std::vector<std::string> used_params(const Recipe& r) {
  switch (r.kind) {
    case TemplateKind::kElementwise: return {"threads", "vec", "unroll", "blocks_per_sm"};
    case TemplateKind::kReduce: return r.rows.inner == 1 ? std::vector<std::string>{"threads", "vec"}
                                                         : std::vector<std::string>{"threads", "split"};
    case TemplateKind::kRowNorm: return r.rows.inner == 1 ? std::vector<std::string>{"threads", "vec", "split"}
                                                          : std::vector<std::string>{"threads"};
  }
  return {};
}

}  // namespace

const std::vector<ParamDef>& param_defs() {
  static const std::vector<ParamDef> defs = {
      {"threads", &Params::threads, {64, 128, 256, 512, 1024}},
      {"vec", &Params::vec, {1, 2, 4, 8}},
      {"unroll", &Params::unroll, {1, 2, 4, 8}},
      {"blocks_per_sm", &Params::blocks_per_sm, {0, 2, 4, 8, 16}},
      {"split", &Params::split, {1, 2, 4, 8, 16, 32, 64, 128, 256}},
  };
  return defs;
}

std::string to_string(const Params& p) {
  std::vector<std::string> parts;
  for (auto& d : param_defs()) parts.push_back(std::string(d.name) + "=" + std::to_string(p.*d.field));
  return join(parts, ",");
}

Result<Params> parse_params(const std::string& text, Params base) {
  for (auto& item : split(text, ',')) {
    if (trim(item).empty()) continue;
    auto kv = split(item, '=');
    if (kv.size() != 2) return error("params: `" + item + "` is not name=value");
    const ParamDef* def = nullptr;
    for (auto& d : param_defs())
      if (trim(kv[0]) == d.name) def = &d;
    if (!def) return error("params: unknown parameter `" + trim(kv[0]) + "`");
    std::string v = trim(kv[1]);
    int value = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    if (ec != std::errc() || ptr != v.data() + v.size()) return error("params: `" + v + "` is not an integer");
    base.*(def->field) = value;
  }
  return base;
}

std::string invalid_reason(const Recipe& r, const Params& p) {
  for (auto& d : param_defs())
    if (std::find(d.values.begin(), d.values.end(), p.*d.field) == d.values.end())
      return std::string(d.name) + "=" + std::to_string(p.*d.field) + " is not a candidate value";
  auto used = used_params(r);
  Params defaults;
  for (auto& d : param_defs())
    if (std::find(used.begin(), used.end(), d.name) == used.end() && p.*d.field != defaults.*d.field)
      return std::string(d.name) + " does not apply to this template";
  int bytes = elem_bytes(r.kind == TemplateKind::kElementwise ? r.out_type : r.in_type);
  if (r.kind == TemplateKind::kElementwise) {
    for (auto& o : r.operands) bytes = std::min(bytes, elem_bytes(o.c_type));
    int widest = 4;
    for (auto& o : r.operands) widest = std::max(widest, elem_bytes(o.c_type));
    if (p.vec < 4 || p.vec * std::max(widest, elem_bytes(r.out_type)) > 32) return "vec must be 4 or 8 and at most 32 bytes";
    if (p.threads > 1024 || p.threads < 128) return "threads must be 128..1024";
    return "";
  }
  if (p.vec * bytes > 16) return "vec=" + std::to_string(p.vec) + " exceeds 128 bits";
  if (r.rows.inner == 1 && r.rows.extent % p.vec != 0) return "the row length is not a multiple of vec";
  if (p.threads < 64 || p.threads > 1024) return "threads must be 64..1024";
  if (r.kind == TemplateKind::kReduce && r.rows.inner > 1 && p.threads / p.split < 32)
    return "fewer than 32 columns per block";
  if (r.kind == TemplateKind::kRowNorm && r.rows.inner == 1 && p.split > 1 &&
      r.rows.extent / p.split < int64_t(p.threads) * p.vec)
    return "split leaves chunks smaller than one tile";
  return "";
}

Params default_params(const Recipe& r) {
  Params p;
  if (r.kind == TemplateKind::kElementwise) {
    p.vec = r.out_type == "float" && r.operands.size() == 1 && r.operands[0].c_type == "float" ? 4 : 8;
    p.blocks_per_sm = 8;
    return p;
  }
  if (r.rows.inner > 1) {
    if (r.kind == TemplateKind::kReduce) p.split = 4;
    return p;
  }
  for (int v : {8, 4, 2, 1}) {
    p.vec = v;
    if (invalid_reason(r, p).empty()) break;
  }
  // Enough blocks per row to fill about two waves of the GPU's SMs when there are few rows.
  if (r.kind == TemplateKind::kRowNorm)
    for (Params q = p; r.rows.outer * p.split < 264; p = q) {
      q.split = p.split * 2;
      if (!invalid_reason(r, q).empty()) break;
    }
  return p;
}

std::vector<Params> search_space(const Recipe& r) {
  std::vector<Params> points = {default_params(r)};
  auto used = used_params(r);
  // Cartesian product over the used parameters, in table order.
  std::vector<Params> all = {Params{}};
  for (auto& d : param_defs()) {
    if (std::find(used.begin(), used.end(), d.name) == used.end()) continue;
    std::vector<Params> next;
    for (auto& base : all)
      for (int v : d.values) {
        Params q = base;
        q.*d.field = v;
        next.push_back(q);
      }
    all = std::move(next);
  }
  for (auto& q : all)
    if (invalid_reason(r, q).empty() && !(q == points[0])) points.push_back(q);
  if (!invalid_reason(r, points[0]).empty()) points.erase(points.begin());
  return points;
}

}  // namespace cutegen
