// Checks made before a candidate ever runs: what its source may do, what its binary links
// against, and how much CuTe it really uses.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct GateFinding {
  std::string rule;    // e.g. "side stream", "forbidden symbol"
  std::string detail;  // names the construct or symbol, with the line where known
};

// CuTe constructs found in the source, by kind ("Layout", "Tensor", "tiled copy", "MMA atom", ...).
using CuteUsage = std::map<std::string, int>;

CuteUsage cute_usage(const std::string& source);
std::string describe_usage(const CuteUsage& usage);  // "Tensor x4, Layout x2, tiled copy x1"

// Source rules: no torch/cuBLAS/cuDNN headers, no dlopen, no stream creation, no launch on a
// stream other than the one passed in; and, when `require_cute`, some CuTe beyond the include.
std::vector<GateFinding> check_source(const std::string& source, bool require_cute);

// `undefined` are the library's undefined dynamic symbols with their version tags
// ("memcpy@GLIBC_2.14"); `defined` its defined ones; `strings` its printable strings.
std::vector<GateFinding> check_symbols(const std::vector<std::string>& undefined,
                                       const std::vector<std::string>& defined,
                                       const std::vector<std::string>& strings);

struct LibrarySymbols {
  std::vector<std::string> undefined;
  std::vector<std::string> defined;
  std::vector<std::string> strings;  // printable runs of 6+ characters
};
// Reads the dynamic symbol table with `nm -D` and the strings from the file itself.
Result<LibrarySymbols> read_library_symbols(const std::string& library_path);

}  // namespace cutegen
