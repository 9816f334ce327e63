#include "task/task_spec.h"

#include <algorithm>
#include <set>
#include <nlohmann/json.hpp>

namespace cutegen {
namespace {

using nlohmann::json;

struct KindName {
  ArgKind kind;
  const char* name;
};
constexpr KindName kKindNames[] = {{ArgKind::kTensor, "tensor"},
                                   {ArgKind::kScalar, "scalar"},
                                   {ArgKind::kParameter, "parameter"},
                                   {ArgKind::kBuffer, "buffer"},
                                   {ArgKind::kOutput, "output"}};
constexpr const char* kScalarCTypes[] = {"int64_t", "double", "bool"};

// Reads j[key] as T; nlohmann's own messages do not say which field was wrong.
template <class T>
Result<T> field(const json& j, const std::string& key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) return error(where + ": missing '" + key + "'");
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    return error(where + "." + key + ": unexpected " + std::string(j.at(key).type_name()) + " " +
                 j.at(key).dump().substr(0, 60));
  }
}

Result<ArgKind> parse_kind(const std::string& name, const std::string& where) {
  for (auto& k : kKindNames)
    if (name == k.name) return k.kind;
  return error(where + ".kind: unknown kind '" + name + "'");
}

Status check_ctype(const std::string& ctype, const std::string& where) {
  if (std::find(std::begin(kScalarCTypes), std::end(kScalarCTypes), ctype) == std::end(kScalarCTypes))
    return error(where + ".ctype: unknown scalar type '" + ctype + "'");
  return Ok{};
}

Result<TaskArg> parse_arg(const json& j, const std::string& where, ArgKind default_kind) {
  TaskArg a;
  a.name = CUTEGEN_TRY(field<std::string>(j, "name", where));
  a.kind = j.contains("kind") ? CUTEGEN_TRY(parse_kind(CUTEGEN_TRY(field<std::string>(j, "kind", where)), where))
                              : default_kind;
  if (a.kind == ArgKind::kScalar) {
    a.ctype = CUTEGEN_TRY(field<std::string>(j, "ctype", where));
    CUTEGEN_TRY(check_ctype(a.ctype, where));
    if (!j.contains("value")) return error(where + ": missing 'value'");
    a.value = j.at("value").dump();
    if (j.contains("fixed")) a.fixed = CUTEGEN_TRY(field<bool>(j, "fixed", where));
    return a;
  }
  auto dtype = parse_dtype(CUTEGEN_TRY(field<std::string>(j, "dtype", where)));
  if (!dtype) return error(where + ".dtype: " + dtype.message());
  a.dtype = *dtype;
  a.shape = CUTEGEN_TRY(field<std::vector<int64_t>>(j, "shape", where));
  a.strides = CUTEGEN_TRY(field<std::vector<int64_t>>(j, "strides", where));
  if (a.strides.size() != a.shape.size())
    return error(where + ": " + std::to_string(a.shape.size()) + " dims but " + std::to_string(a.strides.size()) +
                 " strides");
  return a;
}

Result<TaskConstant> parse_constant(const json& j, const std::string& where) {
  TaskConstant c;
  c.name = CUTEGEN_TRY(field<std::string>(j, "name", where));
  c.source = CUTEGEN_TRY(field<std::string>(j, "source", where));
  c.ctype = CUTEGEN_TRY(field<std::string>(j, "ctype", where));
  CUTEGEN_TRY(check_ctype(c.ctype, where));
  if (!j.contains("value")) return error(where + ": missing 'value'");
  const json& v = j.at("value");
  // JSON has no inf or NaN: the bridge sends those as strings.
  static const std::set<std::string> non_finite = {"inf", "-inf", "nan"};
  bool ok = c.ctype == "bool"      ? v.is_boolean()
            : c.ctype == "int64_t" ? v.is_number_integer()
                                   : v.is_number() || (v.is_string() && non_finite.count(v.get<std::string>()));
  if (!ok) return error(where + ".value: " + v.dump().substr(0, 60) + " is not a " + c.ctype);
  c.value = v.is_string() ? v.get<std::string>() : v.dump();
  return c;
}

Result<std::vector<TaskArg>> parse_args(const json& doc, const std::string& key, ArgKind default_kind) {
  if (!doc.contains(key) || !doc[key].is_array()) return error("TaskSpec: missing array '" + key + "'");
  std::vector<TaskArg> args;
  for (size_t i = 0; i < doc[key].size(); ++i)
    args.push_back(CUTEGEN_TRY(parse_arg(doc[key][i], key + "[" + std::to_string(i) + "]", default_kind)));
  return args;
}

}  // namespace

const char* to_string(ArgKind k) {
  for (auto& row : kKindNames)
    if (row.kind == k) return row.name;
  return "?";
}

std::string dims_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s.append(i ? ", " : "").append(std::to_string(dims[i]));
  return s + "]";
}

int64_t TaskArg::numel() const {
  int64_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

int64_t TaskArg::bytes() const { return is_tensor() ? numel() * dtype_info(dtype).bytes : 0; }

Result<TaskSpec> parse_task_spec(const std::string& json_text) {
  json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return error("TaskSpec: not valid JSON");
  if (!doc.is_object()) return error("TaskSpec: expected a JSON object");
  // The bridge's failure document: one line, then the condensed Python cause.
  if (doc.contains("error")) {
    std::string message = doc["error"].is_string() ? doc["error"].get<std::string>() : doc["error"].dump();
    if (doc.contains("detail") && doc["detail"].is_string() && !doc["detail"].get<std::string>().empty())
      message.append("\n").append(doc["detail"].get<std::string>());
    return error(message);
  }
  const std::string where = "TaskSpec";
  TaskSpec s;
  s.name = CUTEGEN_TRY(field<std::string>(doc, "name", where));
  s.path = CUTEGEN_TRY(field<std::string>(doc, "path", where));
  s.seed = CUTEGEN_TRY(field<int64_t>(doc, "seed", where));
  s.init_args = CUTEGEN_TRY(field<std::vector<std::string>>(doc, "init_args", where));
  s.inputs = CUTEGEN_TRY(parse_args(doc, "inputs", ArgKind::kTensor));
  s.params = CUTEGEN_TRY(parse_args(doc, "params", ArgKind::kParameter));
  s.outputs = CUTEGEN_TRY(parse_args(doc, "outputs", ArgKind::kOutput));
  if (doc.contains("constants")) {
    if (!doc["constants"].is_array()) return error("TaskSpec.constants: expected an array");
    for (size_t i = 0; i < doc["constants"].size(); ++i)
      s.constants.push_back(CUTEGEN_TRY(parse_constant(doc["constants"][i], "constants[" + std::to_string(i) + "]")));
  }
  s.ops = CUTEGEN_TRY(field<std::vector<std::string>>(doc, "ops", where));
  s.flops = CUTEGEN_TRY(field<int64_t>(doc, "flops", where));
  s.min_bytes = CUTEGEN_TRY(field<int64_t>(doc, "min_bytes", where));
  if (doc.contains("traced_on")) s.traced_on = CUTEGEN_TRY(field<std::string>(doc, "traced_on", where));
  for (auto& p : s.params)
    if (p.kind != ArgKind::kParameter && p.kind != ArgKind::kBuffer)
      return error("TaskSpec: params entry '" + p.name + "' has kind '" + to_string(p.kind) + "'");
  for (auto& o : s.outputs)
    if (o.kind != ArgKind::kOutput) return error("TaskSpec: output '" + o.name + "' must be a tensor");
  if (s.outputs.empty()) return error("TaskSpec: no outputs");
  s.json = json_text;
  return s;
}

}  // namespace cutegen
