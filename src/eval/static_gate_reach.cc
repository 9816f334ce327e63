#include "eval/static_gate_reach.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

namespace cutegen {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Preprocessor lines left in the text (#pragma) are not declarations; blank them in place.
std::string without_directives(std::string s) {
  for (size_t i = 0; i < s.size();) {
    size_t eol = std::min(s.find('\n', i), s.size());
    size_t first = s.find_first_not_of(" \t", i);
    if (first < eol && s[first] == '#') std::fill(s.begin() + long(first), s.begin() + long(eol), ' ');
    i = eol + 1;
  }
  return s;
}

// Removes a leading `template <...>` header (balanced angle brackets) from a declaration.
std::string strip_template_header(const std::string& h) {
  static const std::regex start(R"(^\s*template\s*<)");
  std::smatch m;
  if (!std::regex_search(h, m, start)) return h;
  int depth = 1;
  size_t i = m.length();
  for (; i < h.size() && depth > 0; ++i)
    depth += (h[i] == '<') - (h[i] == '>');
  return strip_template_header(h.substr(i));
}

struct Chunk {
  size_t begin, end;
  std::string name;
};

// The name a top-level declaration or definition introduces (see reachable_code).
std::string chunk_name(const std::string& text) {
  static const std::regex attribute(R"(__attribute__\s*\(\([^;{]*?\)\)|alignas\s*\([^;{]*?\))");
  std::string h = std::regex_replace(strip_template_header(text), attribute, " ");
  static const std::regex record(R"(^\s*(?:typedef\s+)?(?:struct|class|union|enum(?:\s+class|\s+struct)?)\s+(\w+))");
  static const std::regex alias(R"(^\s*using\s+(\w+)\s*=)");
  std::smatch m;
  if (std::regex_search(h, m, record) || std::regex_search(h, m, alias)) return m[1];
  // A function's name stands before its parameter list; a variable's before = { ( [ or ;.
  size_t stop = h.find_first_of("=({[;");
  if (stop == std::string::npos) stop = h.size();
  size_t e = stop;
  while (e > 0 && std::isspace(static_cast<unsigned char>(h[e - 1])))
    --e;
  size_t b = e;
  while (b > 0 && ident_char(h[b - 1]))
    --b;
  return h.substr(b, e - b);
}

// Splits the text into top-level declarations and definitions. A chunk ends at a top-level `;`,
// or at the `}` closing a top-level brace unless `;` ( ) , . [ follows (a class's `};`, a
// lambda initializer's `}();`, `= {...};`). `namespace x {` and `extern "C" {` open no chunk.
std::vector<Chunk> chunks(const std::string& s) {
  static const std::regex transparent(R"(^\s*((inline\s+)?namespace\b[^{}();]*|extern\s*"\s*")\s*$)");
  std::vector<Chunk> out;
  size_t start = 0;
  int depth = 0;
  auto close = [&](size_t end) {
    std::string text = s.substr(start, end - start);
    if (text.find_first_not_of(" \t\n;") != std::string::npos) out.push_back({start, end, chunk_name(text)});
    start = end;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '{') {
      if (depth == 0 && std::regex_match(s.substr(start, i - start), transparent)) {
        start = i + 1;
        continue;
      }
      ++depth;
    } else if (c == '}') {
      if (depth == 0) {  // closes a namespace or extern "C" block
        close(i);
        start = i + 1;
        continue;
      }
      if (--depth == 0) {
        size_t next = s.find_first_not_of(" \t\n", i + 1);
        if (next == std::string::npos || std::string(";(),.[").find(s[next]) == std::string::npos) close(i + 1);
      }
    } else if (c == ';' && depth == 0) {
      close(i + 1);
    }
  }
  close(s.size());
  return out;
}

}  // namespace

std::string reachable_code(const std::string& code) {
  std::string s = without_directives(code);
  auto all = chunks(s);
  std::multimap<std::string, size_t> by_name;
  for (size_t i = 0; i < all.size(); ++i)
    by_name.emplace(all[i].name, i);
  std::set<size_t> reached;
  std::vector<size_t> todo;
  for (auto [it, end] = by_name.equal_range("cutegen_forward"); it != end; ++it)
    todo.push_back(it->second);
  static const std::regex ident(R"([A-Za-z_]\w*)");
  while (!todo.empty()) {
    size_t k = todo.back();
    todo.pop_back();
    if (!reached.insert(k).second) continue;
    std::string body = s.substr(all[k].begin, all[k].end - all[k].begin);
    std::set<std::string> names;
    for (auto it = std::sregex_iterator(body.begin(), body.end(), ident); it != std::sregex_iterator(); ++it)
      names.insert(it->str());
    for (auto& n : names)
      for (auto [it, end] = by_name.equal_range(n); it != end; ++it)
        if (!reached.count(it->second)) todo.push_back(it->second);
  }
  std::string out = code;
  for (size_t i = 0; i < all.size(); ++i)
    if (!reached.count(i))
      for (size_t p = all[i].begin; p < all[i].end; ++p)
        if (out[p] != '\n') out[p] = ' ';
  return out;
}

namespace {

enum class Side { kNone, kHost, kDevice };  // outside functions, host-runnable code, GPU-only code

// What a `{` opens, from the text since the previous ; { or }: a named function's body gets its
// own side; blocks, control statements, lambdas and classes inside a function share its side.
Side opened_side(const std::string& header, Side outer) {
  static const std::regex function_like(
      R"(\)\s*(?:(?:const|noexcept|override|final|mutable|volatile|&&?|->[^;{}]*|__attribute__\s*\(\([^;{}]*\)\))\s*)*$)");
  static const std::regex control(R"(^\s*(?:else\s+)?(?:if|for|while|switch|catch)\b)");
  if (outer != Side::kNone || !std::regex_search(header, function_like)) return outer;
  if (std::regex_search(header, control)) return outer;
  bool device = header.find("__attribute__((device))") != std::string::npos ||
                header.find("__attribute__((global))") != std::string::npos;
  bool host = header.find("__attribute__((host))") != std::string::npos;
  return device && !host ? Side::kDevice : Side::kHost;
}

}  // namespace

std::vector<size_t> host_assembly(const std::string& code) {
  std::string s = without_directives(code);
  static const std::regex asm_word(R"(\b(asm|__asm__|__asm)\b)");
  std::vector<Side> stack = {Side::kNone};
  std::vector<size_t> out;
  size_t header_start = 0;
  auto next_asm = std::sregex_iterator(s.begin(), s.end(), asm_word);
  for (size_t i = 0; i < s.size(); ++i) {
    for (; next_asm != std::sregex_iterator() && size_t(next_asm->position()) == i; ++next_asm)
      if (stack.back() != Side::kDevice) out.push_back(i);
    char c = s[i];
    if (c == '{') {
      stack.push_back(opened_side(s.substr(header_start, i - header_start), stack.back()));
      header_start = i + 1;
    } else if (c == '}' || c == ';') {
      if (c == '}' && stack.size() > 1) stack.pop_back();
      header_start = i + 1;
    }
  }
  return out;
}

}  // namespace cutegen
