// A line diff of two sources (longest common subsequence), for the report's view of what changed
// between successive kept kernels.
#pragma once

#include <string>
#include <vector>

namespace cutegen {

struct DiffLine {
  char kind =
      ' ';  // ' ' both, '-' only in the old source, '+' only in the new one, '~' a run of unchanged lines left out
  std::string text;  // the line; for '~', how many lines were left out
};

// The lines of `after` against `before`, with `context` unchanged lines kept around each change.
std::vector<DiffLine> line_diff(const std::string& before, const std::string& after, int context = 3);

}  // namespace cutegen
