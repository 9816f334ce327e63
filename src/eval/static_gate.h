// Checks made before a candidate ever runs: what its source may do, what its binary links
// against, and how much CuTe it really uses. The source rules judge what the compiler reads: the
// candidate's own lines after preprocessing (build/preprocess.h), literals and comments blanked.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "build/preprocess.h"
#include "core/result.h"

namespace cutegen {

struct GateFinding {
  std::string rule;    // e.g. "side stream", "forbidden symbol"
  std::string detail;  // names the construct or symbol, with the line where known
};

// CuTe constructs found in code, by kind ("Layout", "Tensor", "tiled copy", "MMA atom", ...).
using CuteUsage = std::map<std::string, int>;

CuteUsage cute_usage(const std::string& code);
std::string describe_usage(const CuteUsage& usage);  // "Tensor x4, Layout x2, tiled copy x1"

// Rules on the file as written, before preprocessing: no torch/cuBLAS/cuDNN headers (a missing
// one would otherwise surface as a mere compile error) and no #line directives (they would
// relabel the candidate's lines as a header's, hiding them from the rules below).
std::vector<GateFinding> check_written_source(const std::string& source);

struct SourceGate {
  std::vector<GateFinding> findings;
  CuteUsage cute;  // counted in the code cutegen_forward can reach, the most any pass shows
};
// Rules on every pass of the preprocessed candidate (lines numbered as written): no forbidden
// headers pulled in, no dynamic loading or library lookup, no vendor library or Python calls, no
// stream creation or stream handles made from integers, every launch on the passed stream, no
// processes, threads, raw system calls, file or environment access, no host-side asm; and, when
// `require_cute`, some CuTe in reachable code.
SourceGate check_preprocessed(const Preprocessed& pp, bool require_cute);

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
