// Repairs and optimizations are edits: anchored search/replace blocks against the current source,
//   <<<<<<< SEARCH
//   lines copied from the current source
//   =======
//   the lines that replace them
//   >>>>>>> REPLACE
// applied exactly (the SEARCH text must occur once), else line by line ignoring whitespace
// differences; an answer without blocks may carry a whole file in a ```cuda fence instead.
#pragma once

#include <string>
#include <vector>

#include "core/outcomes.h"
#include "core/result.h"

namespace cutegen {

struct EditBlock {
  std::string search, replace;
};

struct ParsedAnswer {
  std::vector<EditBlock> blocks;
  std::string whole_file;  // the last fenced code block that looks like a kernel; "" when none
};

// Errors describe a malformed block ("block 2: no ======= line").
Result<ParsedAnswer> parse_answer(const std::string& text);

struct Applied {
  std::string source;
  EditHow how = EditHow::kExact;  // edits: the weakest match any block needed; or kWholeFile
};

// Applies every block in order; the error names the block and why it does not apply.
Result<Applied> apply_edits(const std::string& source, const std::vector<EditBlock>& blocks);

// The source the answer means: edits applied to `base` when there are blocks, else the whole
// file. An answer with neither is an error.
Result<Applied> resolve_answer(const std::string& base, const std::string& text);

// The rule that the model writes no include paths or build flags: quoted #includes, #pragma
// comment(lib) and -I/-L style text in the source are refused with the reason.
Status check_source_rules(const std::string& source);

}  // namespace cutegen
