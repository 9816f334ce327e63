// What `run`, `resume` and `status` print and leave behind for a run, read as one (store/run_view.h):
// summary.md in the run folder and the table of tasks.
#pragma once

#include "cli/context.h"
#include "store/run_view.h"

namespace cutegen {

Status write_summary(const RunView& run);
void print_table(const RunView& run, const Context& ctx);

}  // namespace cutegen
