#include "agent/export_model_new.h"

#include <cstdio>

#include "agent/prompts.h"
#include "build/builder.h"
#include "core/strings.h"
#include "export_model_new_py.h"

namespace cutegen {

std::string python_literal(const std::string& text, bool block) {
  std::string out = block ? "\"\"\"\\\n" : "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\\') out += "\\\\";
    // In a block a quote is escaped only where it could start or end the closing """.
    else if (c == '"' && (!block || i + 1 == text.size() || text[i + 1] == '"'))
      out += "\\\"";
    else if (c == '\n')
      out += block ? "\n" : "\\n";
    else if (c == '\t')
      out += block ? "\t" : "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else
      out += static_cast<char>(c);  // UTF-8 passes through: Python reads sources as UTF-8
  }
  return out + (block ? "\"\"\"" : "\"");
}

namespace {

std::string tuple_text(const std::vector<int64_t>& v) {
  std::vector<std::string> parts;
  for (auto x : v)
    parts.push_back(std::to_string(x));
  std::string t = "(";  // appended, not "(" + ...: g++ 12 warns falsely (-Wrestrict) on that form
  t += join(parts, ", ");
  t += v.size() == 1 ? ",)" : ")";  // a 1-tuple needs its comma
  return t;
}

std::string tensor_row(const TaskArg& a) {
  return "    {\"name\": " + python_literal(a.name) + ", \"dtype\": torch." + dtype_info(a.dtype).name +
         ", \"shape\": " + tuple_text(a.shape) + ", \"strides\": " + tuple_text(a.strides) + "},\n";
}

std::string row(const TaskArg& a) {
  if (a.is_tensor()) return tensor_row(a);
  return "    {\"name\": " + python_literal(a.name) + ", \"ctype\": " + python_literal(a.ctype) + "},\n";
}

// `name = (rows)`, one dict per ABI argument, in ABI order.
std::string table(const std::string& name, const std::vector<TaskArg>& args) {
  std::string t = name + " = (\n";
  for (auto& a : args)
    t += row(a);
  return t + ")\n";
}

}  // namespace

Result<std::string> model_new_python(const TaskSpec& spec, const std::string& reference,
                                     const std::string& kernel_source, const Target& target) {
  // The harness's own kernel flags; -I is added at build time.
  std::vector<std::string> quoted;
  for (auto& f : kernel_flags(target))
    quoted.push_back(python_literal(f));
  std::string data = "\n_TASK = " + python_literal(spec.name) + "\n";
  data += "_NVCC_FLAGS = (" + join(quoted, ", ") + ")\n";
  data += "# cutegen_forward(inputs..., parameters and buffers..., outputs..., stream), in this order.\n";
  data += table("_INPUTS", spec.inputs) + table("_STATE", spec.params) + table("_OUTPUTS", spec.outputs);
  data += "# The task file this kernel was made for, as it was at export.\n";
  data += "_REFERENCE_SOURCE = " + python_literal(reference, true) + "\n";
  data += "# The kernel with the task's ABI header at the top (also written beside this file as a .cu).\n";
  data += "_KERNEL_SOURCE = " + python_literal(kernel_source, true);
  return render_template(kModelNewTemplate, {{"task", spec.name}, {"data", data}}, "export_model_new.py");
}

}  // namespace cutegen
