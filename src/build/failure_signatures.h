// Known nvcc failures: a pattern over one condensed diagnostic, and the one-line cause and fix it
// usually means, so that a report can name the cause that nvcc's own text hides.
#pragma once

#include <string>
#include <vector>

#include "build/diagnostics.h"

namespace cutegen {

struct FailureSignature {
  const char* id;       // also names its real-nvcc fixture, src/build/testdata/signatures/<id>.cu
  const char* pattern;  // ECMAScript regex, searched in signature_text(d) of each error
  const char* cause;
  const char* fix;
};

const std::vector<FailureSignature>& failure_signatures();

// What a pattern is searched in: "file: message | context | context".
std::string signature_text(const Diagnostic& d);

// The signatures some error matches, in table order, each once.
std::vector<const FailureSignature*> match_signatures(const std::vector<Diagnostic>& diags);

// Whether the diagnostic is in the host code nvcc generates (`*.cudafe1.stub.c`, `*.cudafe1.cpp`),
// which is compiled only after the device code compiled.
bool in_host_stub(const Diagnostic& d);

}  // namespace cutegen
