// What the optimizer reads: a compact text block per kernel (about 25 lines: the numbers, what
// bounds the kernel, and the lever that usually moves it), and the same report as JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "profile/profiler.h"

namespace cutegen {

// The usual lever for each verdict, warp-stall reason and occupancy limiter (tables in the .cc).
std::string lever_for(Bound b);
std::string lever_for_stall(const std::string& reason);
// "registers", "shared memory", "block size", "block count", "barriers", or "" when not limited.
std::string occupancy_limiter(const KernelCounters& k);

std::string render_summary(const ProfileReport& r);
// The rendered summary with the first kernel's verdict as numbers (none without runtime counters).
ProfileSummary profile_summary(const ProfileReport& r);
nlohmann::json report_json(const ProfileReport& r);

// "void at::foo<4>(int)" -> "foo": how runtime kernel names meet ptxas names.
std::string kernel_base_name(const std::string& name);

}  // namespace cutegen
