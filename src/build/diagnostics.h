// Condenses nvcc's output (thousands of lines of CuTe template instantiation) into a short list
// of errors that name the user's own source line, for people and for the repair prompt.
#pragma once

#include <string>
#include <vector>

namespace cutegen {

struct Diagnostic {
  std::string severity;  // "error" or "warning"
  std::string file;      // as nvcc printed it
  int line = 0;
  std::string message;               // with template argument lists shortened
  int user_line = 0;                 // innermost frame in the user's file (0: none found)
  std::string user_source;           // that line's text
  std::vector<std::string> context;  // a few shortened lines that followed the message
};

// `user_file` is the path the source was compiled from; `source` its text (to quote lines).
std::vector<Diagnostic> condense_diagnostics(const std::string& log, const std::string& user_file,
                                             const std::string& source);

// Collapses template argument lists nested deeper than `keep_depth` to "<...>" and caps length.
std::string shorten_templates(const std::string& text, int keep_depth = 1, size_t max_len = 300);

// A bounded text rendering: first a "likely cause: ...; fix: ..." line per known failure signature
// (failure_signatures.h) and a note when the host stub failed, then at most `max_errors` errors,
// then warnings if room is left.
std::string render_diagnostics(const std::vector<Diagnostic>& diags, const std::string& display_name,
                               size_t max_errors = 6, size_t max_chars = 6000);

}  // namespace cutegen
