// A template's tuning parameters and the space of them the search walks. The space is data: a
// table of (name, field, candidate values) filtered by what a recipe's shapes allow.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "expert/recipe.h"

namespace cutegen {

struct Params {
  int threads = 256;       // threads per block
  int vec = 4;             // elements per vector access (128-bit for 4 floats or 8 halves)
  int unroll = 4;          // elementwise: vectors in flight per thread per tile
  int blocks_per_sm = 0;   // elementwise: persistent grid of k blocks per SM; 0 = one tile per block
  int split = 1;           // rownorm: blocks per row (> 1: two passes through a workspace);
                           // reduce over a middle dim: threads splitting the reduced extent
  bool operator==(const Params&) const = default;
};

struct ParamDef {
  const char* name;
  int Params::*field;
  std::vector<int> values;  // every value any template may take, ascending
};
const std::vector<ParamDef>& param_defs();

std::string to_string(const Params& p);  // "threads=256,vec=4,unroll=4,blocks_per_sm=0,split=1"
// Reads "name=value,..." over the defaults; unknown names and non-numbers are errors.
Result<Params> parse_params(const std::string& text, Params base = {});

// Why `p` cannot instantiate the recipe's template ("" when it can).
std::string invalid_reason(const Recipe& r, const Params& p);
// Every valid point, a heuristic favourite first; deterministic order.
std::vector<Params> search_space(const Recipe& r);
Params default_params(const Recipe& r);

}  // namespace cutegen
