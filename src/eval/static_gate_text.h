// The text the static gate judges: the candidate's own lines of a preprocessed translation unit,
// with comments and literals blanked, each mapped back to its line in the file as written.
#pragma once

#include <string>
#include <vector>

namespace cutegen {

// What to blank: comments only (the file as written, where #include names must survive), or
// comments and string/char literals (raw strings too), so text inside them is never code.
enum class Blank { kComments, kCommentsAndLiterals };
// Blanked characters become spaces; newlines and literal delimiters stay, so positions, line
// numbers and the shape of `extern "C"` are kept.
std::string blank(const std::string& code, Blank what);

struct IncludedFile {
  int line = 0;      // the candidate's line whose #include pulled it in (directly or through others)
  std::string path;  // as the line markers name it
};

struct OwnCode {
  std::string text;                    // the candidate's lines after preprocessing, literals blanked
  std::vector<int> lines;              // the original line number of each line of `text`
  std::vector<IncludedFile> includes;  // every file the candidate's #include lines brought in

  int line_at(size_t pos) const;  // original line of the character at `pos` in `text`
};

// Follows the `# N "file"` markers of `preprocessed` and keeps the lines that came from
// `source_path`, after macro expansion; lines from headers (CuTe, the CUDA runtime, the ABI
// header) are left out, so a name spelled there never counts against the candidate.
OwnCode own_code(const std::string& preprocessed, const std::string& source_path);

}  // namespace cutegen
