// The profile of one candidate: the static part always, the runtime part (Nsight Compute)
// when it can run. When counters cannot be read the report says why, once per Profiler, and
// later candidates skip ncu for failures that would repeat (no ncu, counters denied).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "profile/ncu_runner.h"
#include "profile/roofline.h"
#include "profile/static_profile.h"

namespace cutegen {

struct RuntimeProfile {
  std::vector<KernelCounters> kernels;  // launch order; a forward may launch several
  std::vector<KernelVerdict> verdicts;  // one per kernel
  ForwardVerdict forward;
  std::string raw_path;  // ncu's CSV on disk
  bool cache_hit = false;
};

struct ProfileRequest {
  BuildResult build;              // a built candidate (library_path and ptxas kernels)
  WorkerCommand worker;           // empty argv: no runtime profile, for `no_runtime_reason`
  std::string no_runtime_reason;  // why `worker` is empty ("no GPU on this machine", ...)
  TaskCost cost;
  std::string salt;                 // task identity for the cache (its hash, shapes)
  std::optional<double> timing_ms;  // the evaluator's timing, reported when counters are missing
};

struct ProfileReport {
  StaticProfile statics;
  std::optional<RuntimeProfile> runtime;
  std::string runtime_missing;  // one line: why there are no counters; "" when there are
  bool first_notice = false;    // runtime_missing is said in full only the first time
  TaskCost cost;
  RooflineCeilings ceilings;
  std::optional<double> timing_ms;
};

class Profiler {
 public:
  Profiler(NcuOptions ncu, RooflineCeilings ceilings, std::string cuobjdump);
  ProfileReport profile(const ProfileRequest& req);

 private:
  void note_missing(ProfileReport& r, const std::string& why);
  NcuOptions ncu_;
  RooflineCeilings ceilings_;
  std::string cuobjdump_;
  std::string disabled_;  // a failure that repeats for every candidate on this machine
  bool told_ = false;
};

}  // namespace cutegen
