#include "eval/static_gate_text.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "core/strings.h"

namespace cutegen {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A ' inside a number is a digit separator (1'000'000), not the start of a character literal.
bool digit_separator(const std::string& s, size_t quote) {
  size_t b = quote;
  while (b > 0 && (ident_char(s[b - 1]) || s[b - 1] == '\'' || s[b - 1] == '.'))
    --b;
  return b < quote && std::isdigit(static_cast<unsigned char>(s[b]));
}

// Where a raw string starting at the `"` of R"delim( ends (one past its closing quote).
size_t raw_string_end(const std::string& s, size_t quote) {
  size_t open = s.find('(', quote);
  if (open == std::string::npos) return s.size();
  std::string close = ")" + s.substr(quote + 1, open - quote - 1) + "\"";
  size_t end = s.find(close, open);
  return end == std::string::npos ? s.size() : end + close.size();
}

// A raw string's R stands alone or after an encoding prefix (u8R, uR, UR, LR).
bool raw_prefix(const std::string& s, size_t quote) {
  if (quote == 0 || s[quote - 1] != 'R') return false;
  size_t b = quote - 1;
  while (b > 0 && ident_char(s[b - 1]))
    --b;
  std::string prefix = s.substr(b, quote - b);
  return prefix == "R" || prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR";
}

void blank_range(std::string& s, size_t from, size_t to) {
  for (size_t i = from; i < to && i < s.size(); ++i)
    if (s[i] != '\n') s[i] = ' ';
}

// One past the closing quote of a literal opened at `open`; escapes skipped, a newline ends it.
size_t quoted_end(const std::string& s, size_t open) {
  char q = s[open];
  size_t i = open + 1;
  while (i < s.size() && s[i] != q && s[i] != '\n')
    i += s[i] == '\\' ? 2 : 1;
  return std::min(s.size(), i + 1);
}

}  // namespace

std::string blank(const std::string& code, Blank what) {
  std::string s = code;
  const bool literals = what == Blank::kCommentsAndLiterals;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      size_t end = s.find('\n', i);
      end = end == std::string::npos ? s.size() : end;
      blank_range(s, i, end);
      i = end;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? s.size() : end + 2;
      blank_range(s, i, end);
      i = end;
    } else if ((s[i] == '"' || s[i] == '\'') && !(s[i] == '\'' && digit_separator(s, i))) {
      // Literals are skipped whole even when kept, so that a // inside one is not a comment.
      size_t end = s[i] == '"' && raw_prefix(s, i) ? raw_string_end(s, i) : quoted_end(s, i);
      if (literals) blank_range(s, i + 1, end - 1);
      i = end;
    } else {
      ++i;
    }
  }
  return s;
}

int OwnCode::line_at(size_t pos) const {
  size_t k =
      static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(pos, text.size())), '\n'));
  return k < lines.size() ? lines[k] : 0;
}

OwnCode own_code(const std::string& preprocessed, const std::string& source_path) {
  // GNU markers: `# 12 "file"` plus flags (1: entering an include, 2: returning to a file).
  static const std::regex marker(R"re(^# (\d+) "((?:[^"\\]|\\.)*)"(.*)$)re");
  OwnCode own;
  std::string file, raw;
  int line = 0;
  std::vector<std::string> pulled_in;  // files entered since the candidate's last own line
  for (auto& l : split_lines(preprocessed)) {
    std::smatch m;
    if (l.rfind("# ", 0) == 0 && std::regex_match(l, m, marker)) {
      file = m[2];
      line = std::stoi(m[1]);
      if (file != source_path) {
        pulled_in.push_back(file);
      } else {
        // Back in the candidate's file (flag 2) at line N: its #include sat on line N - 1. Files
        // before its first line are the harness's forced includes.
        if (contains(std::string(m[3]), "2"))
          for (auto& p : pulled_in)
            own.includes.push_back({line - 1, p});
        pulled_in.clear();
      }
      continue;
    }
    if (file == source_path) {
      raw += l + "\n";
      own.lines.push_back(line);
    }
    ++line;
  }
  own.text = blank(raw, Blank::kCommentsAndLiterals);
  return own;
}

}  // namespace cutegen
