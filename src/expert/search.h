// The expert's search, as data in and proposals out: given the points evaluated so far (time,
// or failure, and an optional profile verdict), propose unevaluated neighbours of the best point,
// one parameter changed at a time. Deterministic: the same history gives the same proposals.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/outcomes.h"
#include "expert/params.h"

namespace cutegen {

struct Trial {
  Params params;
  bool ok = false;                      // built and verified
  double ms = 0;                        // measured time when ok
  std::optional<BoundVerdict> profile;  // what the profile says bounds the kernel, when profiled
};

// The fastest verified trial, if any.
std::optional<Trial> best_trial(const std::vector<Trial>& history);

// Up to `count` points of `space` not yet in `history`: with no verified trial yet, the first
// untried points of the space; otherwise neighbours of the best along one parameter (the next
// smaller and larger value present in the space), ordered by what the best's verdict suggests
// (memory-bound below ~80% of peak or latency-bound: more bytes in flight first — unroll,
// vec, blocks_per_sm, group, split — then threads), then the untried `seeds` (other strategies' points).
std::vector<Params> next_candidates(const std::vector<Trial>& history, const std::vector<Params>& space, int count,
                                    const std::vector<Params>& seeds = {});

}  // namespace cutegen
