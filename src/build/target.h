// A GPU build target ("sm_90a", "sm_80", ...) and the nvcc flags that select it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace cutegen {

// What a target's GPU holds, as the expert sizes kernels by it: for sm_90 the H100 SXM's and the
// H200's (132 SMs; an H100 PCIe has 114, where a grid planned for 128 resident CTAs does not run).
struct ArchLimits {
  int sm_count = 132;                                // a cooperative grid of one CTA per SM holds at most this many
  int64_t smem_per_cta = 227 << 10;                  // dynamic shared memory a CTA may opt into, bytes
  int64_t registers_per_sm = 64 << 10;               // 32-bit registers
  int64_t max_grid_blocks = (int64_t(1) << 31) - 1;  // blocks of a 1-D grid
};

struct Target {
  int major = 9;
  int minor = 0;
  bool arch_specific = true;  // the "a" suffix: wgmma, setmaxnreg and other sm_90a-only features

  std::string name() const;  // "sm_90a"
  // The -gencode form; the -arch=sm_90a shorthand adds a second front-end pass (10-15 s).
  std::string gencode_flag() const;
  ArchLimits limits() const;
};

// Accepts "sm_90a", "90a", "9.0", "sm_80" and the like.
Result<Target> parse_target(const std::string& text);
Target target_for_compute_capability(int major, int minor);

// Names the first Hopper-only construct in `source` (wgmma, GMMA atoms, setmaxnreg), or "".
std::string arch_specific_feature(const std::string& source);
// A plain sm_90 build of such code compiles and then traps at run time; refuse it up front.
Status check_target_fits_source(const Target& target, const std::string& source);

}  // namespace cutegen
