#include "build/diagnostics.h"

#include <regex>
#include <set>

#include "build/failure_signatures.h"
#include "core/strings.h"

namespace cutegen {
namespace {

// `file(12): error: msg` (EDG front end) and `file:12:5: error: msg` (host compiler).
const std::regex kEdgHead(R"(^(.+?)\((\d+)\): (error|warning)[^:]*: (.*)$)");
const std::regex kGccHead(R"(^(.+?):(\d+):(?:\d+:)? (error|fatal error|warning): (.*)$)");
const std::regex kOtherErr(R"(^(ptxas|nvlink|ld|/usr/bin/ld|nvcc)\S*\s*(fatal|error)\s*:?\s*(.*)$)");
// Instantiation frames: `... at line 45 of /tmp/x/kernel.cu`.
const std::regex kAtLine(R"(at line (\d+) of (.+?)\s*$)");

bool same_file(const std::string& printed, const std::string& user_file) {
  if (printed == user_file) return true;
  auto base = user_file.substr(user_file.find_last_of('/') + 1);
  return printed.size() >= base.size() && printed.compare(printed.size() - base.size(), base.size(), base) == 0 &&
         (printed.size() == base.size() || printed[printed.size() - base.size() - 1] == '/');
}

std::string source_line(const std::vector<std::string>& lines, int n) {
  return n >= 1 && n <= static_cast<int>(lines.size()) ? trim(lines[n - 1]) : "";
}

// Lines for the start of a report: the likely cause of each known signature, and where the
// failing file is nvcc's generated host stub, that the device code compiled.
std::string known_causes(const std::vector<Diagnostic>& diags) {
  std::string text;
  for (auto* s : match_signatures(diags))
    text += std::string("likely cause: ") + s->cause + "; fix: " + s->fix + "\n";
  for (auto& d : diags)
    if (d.severity == "error" && in_host_stub(d)) {
      text += "note: the failing file is nvcc's generated host stub (" + d.file.substr(d.file.find_last_of('/') + 1) +
              "): the device code compiled, the host-side code built from it did not\n";
      break;
    }
  return text;
}

}  // namespace

std::string shorten_templates(const std::string& text, int keep_depth, size_t max_len) {
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    // "operator<" / "<<" and comparisons are rare in these messages; angle brackets are templates.
    if (c == '<') {
      ++depth;
      if (depth == keep_depth + 1) out += "<...>";
      if (depth <= keep_depth) out += c;
    } else if (c == '>' && depth > 0) {
      if (depth <= keep_depth) out += c;
      --depth;
    } else if (depth <= keep_depth) {
      out += c;
    }
  }
  // "[with T=..., U=...]" clauses repeat the types above; keep their start only.
  static const std::regex with_clause(R"(\[with ([^\]]{80})[^\]]*\])");
  out = std::regex_replace(out, with_clause, "[with $1...]");
  return out.size() > max_len ? out.substr(0, max_len) + "..." : out;
}

std::vector<Diagnostic> condense_diagnostics(const std::string& log, const std::string& user_file,
                                             const std::string& source) {
  auto src_lines = split_lines(source);
  std::vector<Diagnostic> out;
  std::set<std::string> seen;
  Diagnostic* cur = nullptr;
  auto finish = [&]() {
    if (!cur) return;
    std::string key = cur->file + ":" + std::to_string(cur->line) + ":" + cur->message;
    if (!seen.insert(key).second) out.pop_back();
    cur = nullptr;
  };
  for (auto& raw : split_lines(log)) {
    std::smatch m;
    if (std::regex_match(raw, m, kEdgHead) || std::regex_match(raw, m, kGccHead)) {
      finish();
      Diagnostic d;
      d.file = m[1];
      d.line = std::stoi(m[2]);
      d.severity = contains(m[3].str(), "error") ? "error" : "warning";
      d.message = shorten_templates(m[4]);
      if (same_file(d.file, user_file)) d.user_line = d.line;
      out.push_back(d);
      cur = &out.back();
      continue;
    }
    if (std::regex_match(raw, m, kOtherErr)) {
      finish();
      out.push_back({.severity = "error", .file = m[1], .message = shorten_templates(m[3])});
      cur = &out.back();
      continue;
    }
    if (!cur) continue;
    // Instantiation frames run outermost-last; the first one in the user's file is the innermost.
    if (std::regex_search(raw, m, kAtLine) && same_file(m[2], user_file)) {
      if (cur->user_line == 0 || cur->user_line != cur->line) {
        if (cur->user_line == 0) cur->user_line = std::stoi(m[1]);
      }
      continue;
    }
    auto t = trim(raw);
    if (!t.empty() && cur->context.size() < 3 && !contains(t, "detected during") && t != "^" &&
        !contains(t, "instantiation of") && !contains(t, ": note #"))
      cur->context.push_back(shorten_templates(t, 1, 200));
  }
  finish();
  for (auto& d : out)
    d.user_source = source_line(src_lines, d.user_line);
  return out;
}

std::string render_diagnostics(const std::vector<Diagnostic>& diags, const std::string& display_name, size_t max_errors,
                               size_t max_chars) {
  std::string text = known_causes(diags);
  size_t errors = 0, shown_warnings = 0, total_errors = 0;
  for (auto& d : diags)
    total_errors += d.severity == "error";
  for (const std::string pass : {"error", "warning"}) {
    for (auto& d : diags) {
      if (d.severity != pass) continue;
      if (pass == "error" && errors >= max_errors) break;
      std::string where = d.user_line ? display_name + ":" + std::to_string(d.user_line)
                                      : (d.file + (d.line ? ":" + std::to_string(d.line) : ""));
      std::string block = d.severity + " at " + where + ": " + d.message + "\n";
      if (d.user_line && d.file != "" && d.user_line != d.line)
        block +=
            "  (raised inside " + d.file.substr(d.file.find_last_of('/') + 1) + ":" + std::to_string(d.line) + ")\n";
      if (!d.user_source.empty()) block += "  > " + d.user_source + "\n";
      for (auto& c : d.context)
        block += "    " + c + "\n";
      if (text.size() + block.size() > max_chars) break;
      text += block;
      pass == "error" ? ++errors : ++shown_warnings;
    }
  }
  if (errors < total_errors) text += "(" + std::to_string(total_errors - errors) + " more errors not shown)\n";
  return text;
}

}  // namespace cutegen
