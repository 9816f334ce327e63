// A template's tuning parameters and the space of them the search walks. The space is data: a
// table of (name, field, candidate values) filtered by what a recipe's shapes allow.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "expert/recipe.h"

namespace cutegen {

struct Params {
  int threads = 256;       // threads per block; last-dim reductions and row norms: 32 = a warp per row
  int vec = 4;             // elements per vector access (128-bit for 4 floats or 8 halves)
  int unroll = 4;          // vectors (or, for columns, elements) in flight per thread per step
  int blocks_per_sm = 0;   // elementwise: persistent grid of k blocks per SM; 0 = one tile per block;
                           // row clusters: k > 0 = persistent clusters of up to k CTAs per SM,
                           // each prefetching its next row
  int split = 1;           // rownorm: blocks per row (> 1: two passes through a workspace);
                           // reduce over a middle dim: threads splitting the reduced extent
  int passes = 2;          // rownorm with split > 1: 2 = two launches (statistics, normalization);
                           // 1 = one launch, items in a ticket order that re-reads chunks from L2
  int cluster = 0;         // rownorm: a row held in shared memory across a thread-block cluster of
                           // this many CTAs (1 = one CTA; 16, beyond the portable 8, is opted
                           // into at launch) and read from DRAM once; 0 = streamed
  int regs = 0;            // rownorm with split > 1, passes = 1: 1 = each row held in the registers
                           // of its `split` CTAs (one per SM, unroll vectors per thread) of a
                           // cooperative grid and read from DRAM once; 0 = not
  bool operator==(const Params&) const = default;
};

struct ParamDef {
  const char* name;
  int Params::*field;
  std::vector<int> values;  // every value any template may take, ascending
};
const std::vector<ParamDef>& param_defs();

std::string to_string(const Params& p);  // "threads=256,vec=4,unroll=4,blocks_per_sm=0,split=1,passes=2,cluster=0,regs=0"
// Reads "name=value,..." over the defaults; unknown names and non-numbers are errors.
Result<Params> parse_params(const std::string& text, Params base = {});

// Why `p` cannot instantiate the recipe's template ("" when it can).
std::string invalid_reason(const Recipe& r, const Params& p);
// Every valid point, a heuristic favourite first; deterministic order.
std::vector<Params> search_space(const Recipe& r);
// One valid point per kernel strategy of a template with several (row norms over the last dim: held
// in a cluster, in a persistent cluster, in a cooperative grid; streamed whole; in chunks over one
// launch or two), so that a search moving one parameter at a time can still change strategy.
std::vector<Params> strategy_seeds(const Recipe& r);
Params default_params(const Recipe& r);

// Whether a point holds rows in shared memory, read from DRAM once: in a thread-block cluster
// (cluster > 0), or in `split` CTAs of a persistent cooperative grid (split > 1, passes = 1,
// blocks_per_sm > 0) whose statistics meet in a workspace.
bool rows_held(const Params& p);
// Whether a row-norm point holds each row in the registers of `split` CTAs of a cooperative grid
// (regs = 1), at most kMaxGridElementsPerThread elements per thread, one CTA per SM.
bool rows_in_grid_registers(const Params& p);
constexpr int kMaxGridElementsPerThread = 32;  // of 64 registers with 1024 threads
constexpr int kMaxGridSplit = 128;             // CTAs an H100 SXM or H200 (132 SMs) holds at once, one
                                               // per SM; on fewer SMs the kernel does not run
// Whether a row-norm point holds each row in the registers of one block of `threads` (a warp or
// more): whole rows in one step (split = 1, unroll = 1, no cluster) of at most
// kMaxRowElementsPerThread elements per thread and kMaxRegisterRowElements per row.
bool rows_in_registers(const Recipe& r, const Params& p);
constexpr int64_t kMaxRowElementsPerThread = 64;    // 64 registers per thread
constexpr int64_t kMaxRegisterRowElements = 32768;  // half the register file of an SM
// Shared memory one CTA of such a group holds (its share of a row, tile-aligned, plus one vector of
// slack for rows that start off a 16-byte boundary), and the most a CTA may take.
int64_t held_chunk_bytes(const Recipe& r, const Params& p);
constexpr int64_t kMaxHeldChunkBytes = 200 * 1024;

}  // namespace cutegen
