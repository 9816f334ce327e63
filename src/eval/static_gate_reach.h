// What of the candidate's own code can run, read from its preprocessed, literal-blanked text
// (see static_gate_text.h) by a light scan of its top-level definitions, not a C++ parser.
#pragma once

#include <string>
#include <vector>

namespace cutegen {

// `code` with every top-level definition blanked that cutegen_forward cannot reach by name:
// reachable are cutegen_forward and, in turn, every function, class, alias or variable whose
// name a reachable definition mentions (the kernels it launches, their helpers). Namespaces and
// extern "C" blocks are looked through. A class counts whole once it is named.
std::string reachable_code(const std::string& code);

// Positions of `asm` statements that run on the host: outside any function, or inside a function
// that is not __device__/__global__ alone (its lambdas and blocks included). Device-side asm is
// PTX for the GPU; host-side asm could issue system calls no name betrays.
std::vector<size_t> host_assembly(const std::string& code);

}  // namespace cutegen
