#include "profile/profiler.h"

namespace cutegen {

Profiler::Profiler(NcuOptions ncu, RooflineCeilings ceilings, std::string cuobjdump)
    : ncu_(std::move(ncu)), ceilings_(std::move(ceilings)), cuobjdump_(std::move(cuobjdump)) {}

void Profiler::note_missing(ProfileReport& r, const std::string& why) {
  r.runtime_missing = why;
  r.first_notice = !told_;
  told_ = true;
}

ProfileReport Profiler::profile(const ProfileRequest& req) {
  ProfileReport r;
  r.statics = static_profile(req.build, cuobjdump_);
  r.cost = req.cost;
  r.ceilings = ceilings_;
  r.timing_ms = req.timing_ms;
  if (!disabled_.empty()) {
    note_missing(r, disabled_);
    return r;
  }
  if (req.worker.argv.empty()) {
    note_missing(r, req.no_runtime_reason.empty() ? "no worker command to profile" : req.no_runtime_reason);
    return r;
  }
  auto run = run_ncu(ncu_, req.worker, req.build.library_path, req.salt);
  if (!run) {
    note_missing(r, "profiler setup failed: " + run.message());
    return r;
  }
  if (!run->ok()) {
    if (is_permanent(run->outcome)) disabled_ = run->message;
    note_missing(r, run->message);
    return r;
  }
  RuntimeProfile rt;
  rt.kernels = run->kernels;
  for (auto& k : rt.kernels)
    rt.verdicts.push_back(classify(k, ceilings_));
  rt.forward = analyze_forward(rt.kernels, req.cost, ceilings_);
  rt.raw_path = run->raw_path;
  rt.cache_hit = run->cache_hit;
  r.runtime = std::move(rt);
  return r;
}

}  // namespace cutegen
