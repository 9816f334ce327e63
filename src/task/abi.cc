#include "task/abi.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/strings.h"

namespace cutegen {
namespace {

// Valid Python names that cannot name a C++ parameter, plus names the ABI uses itself.
const std::set<std::string>& reserved_names() {
  static const std::set<std::string> names = {
      "alignas",     "alignof",      "asm",
      "auto",        "bool",         "case",
      "catch",       "char",         "char8_t",
      "char16_t",    "char32_t",     "concept",
      "const",       "consteval",    "constexpr",
      "constinit",   "const_cast",   "co_await",
      "co_return",   "co_yield",     "decltype",
      "default",     "delete",       "do",
      "double",      "dynamic_cast", "enum",
      "explicit",    "export",       "extern",
      "false",       "float",        "friend",
      "goto",        "inline",       "int",
      "long",        "mutable",      "namespace",
      "new",         "noexcept",     "nullptr",
      "operator",    "private",      "protected",
      "public",      "register",     "reinterpret_cast",
      "requires",    "short",        "signed",
      "sizeof",      "static",       "static_assert",
      "static_cast", "struct",       "switch",
      "template",    "this",         "thread_local",
      "throw",       "true",         "typedef",
      "typeid",      "typename",     "union",
      "unsigned",    "using",        "virtual",
      "void",        "volatile",     "wchar_t",
      "NULL",        "stream",       "cutegen_forward",
  };
  return names;
}

std::string c_type(const TaskArg& a) { return a.is_tensor() ? dtype_info(a.dtype).c_type : a.ctype; }

std::string describe(const TaskArg& a) {
  std::string role = a.kind == ArgKind::kTensor ? "input" : to_string(a.kind);
  if (!a.is_tensor()) return role + " " + a.name + ": " + a.ctype + " (example value " + a.value + ")";
  return role + " " + a.name + ": " + dtype_info(a.dtype).name + " " + dims_text(a.shape) + " strides " +
         dims_text(a.strides);
}

// A comment line that cannot continue onto the next line (a trailing backslash would splice it).
std::string comment(const std::string& text) {
  std::string line = "// " + text;
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.pop_back();
  if (!line.empty() && line.back() == '\\') line += " (end)";
  return line + "\n";
}

// JSON text of a number as a C++ literal; inf and NaN through builtins that are constant expressions.
std::string cpp_literal(const std::string& c_type, const std::string& value) {
  if (c_type != "double") return value;
  if (value == "inf") return "__builtin_huge_val()";
  if (value == "-inf") return "-__builtin_huge_val()";
  if (value == "nan") return "__builtin_nan(\"\")";
  return value;
}

std::string guard_name(const std::string& task) {
  std::string g = "CUTEGEN_ABI_" + c_identifier(task) + "_H_";
  for (auto& c : g)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return g;
}

}  // namespace

std::string c_identifier(const std::string& name) {
  std::string id;
  for (char c : name)
    id += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "_" + id;
  if (reserved_names().count(id)) id += "_";
  return id;
}

std::vector<AbiParam> abi_params(const TaskSpec& spec) {
  std::vector<AbiParam> params;
  std::set<std::string> used;
  auto add = [&](const TaskArg& a) {
    std::string id = c_identifier(a.name);
    for (int n = 2; used.count(id); ++n)
      id = c_identifier(a.name) + "_" + std::to_string(n);
    used.insert(id);
    std::string decl = !a.is_tensor()               ? c_type(a) + " " + id
                       : a.kind == ArgKind::kOutput ? c_type(a) + "* " + id
                                                    : "const " + c_type(a) + "* " + id;
    params.push_back({id, decl, &a});
  };
  for (auto* group : {&spec.inputs, &spec.params, &spec.outputs})
    for (auto& a : *group)
      add(a);
  return params;
}

std::vector<AbiConstant> abi_constants(const TaskSpec& spec) {
  std::vector<AbiConstant> out;
  std::set<std::string> used;
  auto add = [&](std::string id, std::string c_type, std::string value, std::string origin) {
    std::string unique = id;
    for (int n = 2; used.count(unique); ++n)
      unique = id + "_" + std::to_string(n);
    used.insert(unique);
    out.push_back({unique, c_type, value, cpp_literal(c_type, value), std::move(origin)});
  };
  auto params = abi_params(spec);
  for (auto& p : params) {
    if (!p.arg->is_tensor()) continue;
    add(p.c_name + "_numel", "int64_t", std::to_string(p.arg->numel()), "size");
    for (size_t d = 0; d < p.arg->shape.size(); ++d)
      add(p.c_name + "_dim" + std::to_string(d), "int64_t", std::to_string(p.arg->shape[d]), "size");
  }
  for (auto& p : params)
    if (!p.arg->is_tensor() && p.arg->fixed)
      add(p.c_name, p.arg->ctype, p.arg->value, "scalar input " + p.arg->name + " (also passed by value)");
  for (auto& c : spec.constants)
    add(c_identifier(c.name), c.ctype, c.value, (c.source == "init" ? "constructor argument " : "attribute ") + c.name);
  return out;
}

std::string abi_header(const TaskSpec& spec) {
  std::string h;
  h += comment("CuTeGen ABI for task '" + spec.name + "' (generated from " + spec.path + ", seed " +
               std::to_string(spec.seed) + ").");
  h += comment("Implement cutegen_forward exactly as declared; launch all work on `stream`. Strides are in");
  h += comment("elements. Parameters and buffers hold Model's values, in state_dict order; parameters that");
  h += comment("Model's constructor leaves constant get random values, so read them, never assume them.");
  h += comment("");
  h += comment("Model was constructed as Model(*init_args) with:");
  if (spec.init_args.empty()) h += comment("  (no init args)");
  for (size_t i = 0; i < spec.init_args.size(); ++i) {
    auto lines = split_lines(spec.init_args[i]);
    for (size_t l = 0; l < lines.size(); ++l)
      h += comment((l == 0 ? "  [" + std::to_string(i) + "] " : "      ") + lines[l]);
  }
  std::string guard = guard_name(spec.name);
  h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  h += "#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include <cstdint>\n\n";
  h += "extern \"C\" void cutegen_forward(\n";
  for (auto& p : abi_params(spec))
    h += "    " + p.c_decl + ",  " + comment(describe(*p.arg));
  h += "    cudaStream_t stream);\n\n";
  // The sizes as constants, so a kernel never restates them by hand (and a task resized in its
  // file stays consistent with the kernel after a rebuild).
  // The model's Python numbers too, so a kernel reads `multiplier` instead of copying 2.0 from a comment.
  h += "namespace cutegen_abi {\n";
  for (auto& c : abi_constants(spec)) {
    std::string decl = "constexpr " + c.c_type + " " + c.c_name + " = " + c.literal + ";";
    h += c.is_size() ? decl + "\n" : decl + "  " + comment(c.origin);
  }
  h += "}  // namespace cutegen_abi\n\n#endif  // " + guard + "\n";
  return h;
}

}  // namespace cutegen
