// Reads the output of `ncu --csv --page raw`: ==PROF==/==WARNING== lines, then a CSV with a
// header row, an optional units row, and one row per profiled kernel launch.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct Measure {
  std::string text;  // as printed: "1,356,704", "no data", "(384, 1, 1)"
  std::string unit;  // "ns", "%", "byte/s", or "" when the metric has none
  double value = 0;  // the number in `text` (thousands separators removed)
  bool numeric = false;
};

struct NcuKernelRow {
  std::string name;                        // "Kernel Name" as ncu prints it (demangled)
  std::map<std::string, Measure> metrics;  // every column, keyed by metric name
};

struct NcuTable {
  std::vector<NcuKernelRow> kernels;  // in launch order
  std::vector<std::string> messages;  // the ==PROF==, ==WARNING==, ==ERROR== lines
};

// Errors only when a CSV is there but malformed (no "Kernel Name" column, ragged rows).
// Output with no CSV at all (ncu failed, or nothing was profiled) is an empty table.
Result<NcuTable> parse_ncu_csv(const std::string& output);

// One CSV record per line, with "..." quoting and "" as an escaped quote.
std::vector<std::string> split_csv_line(const std::string& line);
// "1,356,704" -> 1356704; "87.91" -> 87.91; false for "no data", "n/a", "(384, 1, 1)".
bool parse_ncu_number(const std::string& text, double* value);

}  // namespace cutegen
