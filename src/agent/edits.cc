#include "agent/edits.h"

#include "core/strings.h"

namespace cutegen {
namespace {

bool starts(const std::string& line, const char* marker) { return trim(line).starts_with(marker); }

// Lines of `s` with their trailing newline kept, so splicing preserves the file exactly.
std::vector<std::string> lines_with_ends(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t nl = s.find('\n', at);
    size_t end = nl == std::string::npos ? s.size() : nl + 1;
    out.push_back(s.substr(at, end - at));
    at = end;
  }
  return out;
}

std::string collapse_ws(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : trim(s)) {
    if (c == ' ' || c == '\t' || c == '\r')
      space = true;
    else {
      if (space && !out.empty()) out += ' ';
      out += c, space = false;
    }
  }
  return out;
}

size_t count_occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1))
    ++n;
  return n;
}

// Whitespace-tolerant match: the SEARCH lines (blank ones ignored) against a window of source lines.
Result<std::string> apply_fuzzy(const std::string& source, const EditBlock& b, const std::string& label) {
  auto src = lines_with_ends(source);
  std::vector<std::string> want;
  for (auto& l : split_lines(b.search))
    if (!trim(l).empty()) want.push_back(collapse_ws(l));
  if (want.empty()) return error(label + ": the SEARCH text is empty");
  std::vector<std::pair<size_t, size_t>> hits;  // [first, last] source line
  for (size_t i = 0; i < src.size(); ++i) {
    size_t j = i, k = 0;
    while (j < src.size() && k < want.size()) {
      if (trim(src[j]).empty()) {
        ++j;
        continue;
      }
      if (collapse_ws(src[j]) != want[k]) break;
      ++j, ++k;
    }
    if (k == want.size()) hits.push_back({i, j});
  }
  if (hits.empty())
    return error(label + ": the SEARCH text does not occur in the current source (not even ignoring whitespace)");
  if (hits.size() > 1)
    return error(label + ": the SEARCH text occurs " + std::to_string(hits.size()) +
                 " times; include more lines to make it unique");
  std::string out;
  for (size_t i = 0; i < hits[0].first; ++i)
    out += src[i];
  out += b.replace;
  if (!b.replace.empty() && b.replace.back() != '\n') out += '\n';
  for (size_t i = hits[0].second; i < src.size(); ++i)
    out += src[i];
  return out;
}

}  // namespace

Result<ParsedAnswer> parse_answer(const std::string& text) {
  ParsedAnswer a;
  auto lines = split_lines(text);
  enum { kOutside, kSearch, kReplace } state = kOutside;
  EditBlock cur;
  std::string fence_lang, fence_body;
  bool in_fence = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    std::string label = "edit block " + std::to_string(a.blocks.size() + 1);
    if (state == kOutside && starts(l, "<<<<<<< SEARCH")) {
      state = kSearch, cur = {};
      continue;
    }
    if (state == kSearch && starts(l, "=======")) {
      state = kReplace;
      continue;
    }
    if (state == kSearch && starts(l, ">>>>>>> REPLACE"))
      return error(label + ": REPLACE marker before the ======= line");
    if (state == kReplace && starts(l, ">>>>>>> REPLACE")) {
      a.blocks.push_back(cur), state = kOutside;
      continue;
    }
    if (state == kSearch) {
      cur.search += l + "\n";
      continue;
    }
    if (state == kReplace) {
      cur.replace += l + "\n";
      continue;
    }
    if (starts(l, "```")) {
      if (!in_fence) {
        in_fence = true, fence_lang = lowercase(trim(trim(l).substr(3))), fence_body.clear();
        continue;
      }
      in_fence = false;
      bool code_lang = fence_lang.empty() || fence_lang == "cuda" || fence_lang == "cpp" || fence_lang == "c++" ||
                       fence_lang == "cu";
      if (code_lang && contains(fence_body, "cutegen_forward")) a.whole_file = fence_body;
      continue;
    }
    if (in_fence) fence_body += l + "\n";
  }
  if (state != kOutside)
    return error("edit block " + std::to_string(a.blocks.size() + 1) +
                 ": not closed with >>>>>>> REPLACE (truncated?)");
  return a;
}

Result<Applied> apply_edits(const std::string& source, const std::vector<EditBlock>& blocks) {
  Applied out{source, EditHow::kExact};
  for (size_t i = 0; i < blocks.size(); ++i) {
    std::string label = "edit block " + std::to_string(i + 1);
    const auto& b = blocks[i];
    if (trim(b.search).empty()) return error(label + ": the SEARCH text is empty");
    size_t n = count_occurrences(out.source, b.search);
    if (n == 1) {
      out.source.replace(out.source.find(b.search), b.search.size(), b.replace);
      continue;
    }
    if (n > 1)
      return error(label + ": the SEARCH text occurs " + std::to_string(n) +
                   " times; include more lines to make it unique");
    out.source = CUTEGEN_TRY(apply_fuzzy(out.source, b, label));
    out.how = EditHow::kWhitespace;
  }
  return out;
}

Result<Applied> resolve_answer(const std::string& base, const std::string& text) {
  auto parsed = CUTEGEN_TRY(parse_answer(text));
  if (!parsed.blocks.empty()) {
    if (base.empty())
      return error("there is no current source to edit yet; answer with the whole file in a ```cuda block");
    auto edited = apply_edits(base, parsed.blocks);
    if (edited.ok() || parsed.whole_file.empty()) return edited;
  }
  if (!parsed.whole_file.empty()) return Applied{parsed.whole_file, EditHow::kWholeFile};
  if (trim(text).empty()) return error("the answer is empty");
  return error("the answer holds neither SEARCH/REPLACE blocks nor a ```cuda block defining cutegen_forward");
}

Status check_source_rules(const std::string& source) {
  int n = 0;
  for (auto& l : split_lines(source)) {
    ++n;
    std::string t = trim(l);
    if (t.starts_with("#include") && contains(t, "\""))
      return error("line " + std::to_string(n) + ": `" + t +
                   "`: do not include files by path; the harness force-includes "
                   "the ABI header and provides the CuTe/CUTLASS include paths (use <cute/...> headers)");
    if (t.starts_with("#pragma comment") || t.starts_with("// nvcc ") || t.starts_with("#pragma nv_build"))
      return error("line " + std::to_string(n) + ": `" + t + "`: build flags are the harness's, not the kernel's");
  }
  return Ok{};
}

}  // namespace cutegen
