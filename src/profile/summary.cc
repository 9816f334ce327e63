#include "profile/summary.h"

#include <cstdarg>
#include <cstdio>

#include "core/strings.h"

namespace cutegen {

namespace {

struct Lever {
  const char* key;
  const char* text;
};

const std::vector<Lever>& bound_levers() {
  static const std::vector<Lever> t = {
      {"memory-bound",
       "cut DRAM bytes: fuse so intermediates stay on chip, reuse tiles from shared memory; "
       "at excess traffic ~1.0 it is already at the bandwidth roof"},
      {"compute-bound",
       "move math onto tensor cores (wgmma on sm_90a), bigger warpgroup tiles, keep "
       "non-MMA work out of the main loop"},
      {"tensor-saturated",
       "the tensor pipe is nearly always busy: this is the roof; only less math (reuse, "
       "skipping zeros) or a lower precision the tolerance admits moves it"},
      {"latency-bound",
       "put more work in flight: more blocks or deeper cp.async/TMA pipelines, higher "
       "occupancy; if launch-bound, fuse kernels or give each block more work"},
  };
  return t;
}

const std::vector<Lever>& stall_levers() {
  static const std::vector<Lever> t = {
      {"long_scoreboard", "waiting on global/local memory: prefetch into a multi-stage cp.async/TMA pipeline"},
      {"barrier", "warps wait at __syncthreads: balance work across warps, fewer barriers, warp-specialize"},
      {"mio_throttle", "shared-memory queue full: wider shared accesses (ldmatrix, 128-bit), fewer bank conflicts"},
      {"short_scoreboard", "shared-memory or MUFU latency: remove bank conflicts, use ldmatrix"},
      {"math_pipe_throttle", "a math pipe is saturated: move FMA work to tensor cores or mix instruction types"},
      {"gmma", "waiting on wgmma: overlap stage k's MMA with stage k+1's loads"},
      {"wait", "fixed-latency dependencies: more independent instructions per thread (unroll, ILP)"},
      {"lg_throttle", "too many global memory instructions: vectorize to 128-bit accesses"},
      {"tex_throttle", "texture/L1 pipe queue full: fewer, wider memory instructions"},
      {"no_instruction", "instruction cache misses: less unrolling or smaller code"},
      {"branch_resolving", "divergent branches: make control flow uniform across the warp"},
      {"membar", "memory fences: drop unneeded __threadfence or atomics"},
      {"dispatch_stall", "dispatch stalls: usually a pipeline conflict; mix instruction types"},
      {"imc_miss", "constant cache misses: keep kernel parameters uniform and small"},
      {"drain", "waiting for stores at exit: normal for short kernels"},
      {"sleeping", "warps sleeping (nanosleep or waits): check spin loops"},
      {"misc", "miscellaneous stalls"},
  };
  return t;
}

struct Limiter {
  const char* name;
  double KernelCounters::*blocks;
  const char* lever;
};

const std::vector<Limiter>& limiters() {
  static const std::vector<Limiter> t = {
      {"registers", &KernelCounters::limit_registers,
       "fewer live registers: __launch_bounds__, smaller per-thread tiles"},
      {"shared memory", &KernelCounters::limit_shared_mem,
       "fewer pipeline stages or smaller tiles, unless latency is hidden"},
      {"block size", &KernelCounters::limit_warps, "the warp limit per SM: it is the block size times blocks per SM"},
      {"block count", &KernelCounters::limit_blocks, "at most this many blocks per SM: use larger blocks"},
      {"barriers", &KernelCounters::limit_barriers, "too many named barriers per block"},
  };
  return t;
}

std::string find_lever(const std::vector<Lever>& t, const std::string& key) {
  for (auto& l : t)
    if (key == l.key) return l.text;
  return "";
}

void line(std::string& out, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  out += buf;
  out += '\n';
}

std::string pct(double v) {
  if (!is_reported(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

const StaticKernel* static_for(const ProfileReport& r, const std::string& runtime_name) {
  std::string base = kernel_base_name(runtime_name);
  for (auto& k : r.statics.kernels)
    if (kernel_base_name(k.resources.name) == base) return &k;
  return r.statics.kernels.size() == 1 && r.runtime && r.runtime->kernels.size() == 1 ? &r.statics.kernels[0] : nullptr;
}

std::string mix_text(const SassMix& m) {
  std::string s;
  for (auto& c : instruction_classes())
    s += std::string(s.empty() ? "" : ", ") + c.label + " " + std::to_string(m.count(c.label));
  return s + " of " + std::to_string(m.total);
}

void render_static(std::string& out, const StaticKernel& k, const char* indent) {
  auto& res = k.resources;
  line(out, "%sptxas          %d regs/thread, %d B static smem, %d B stack, spills %d stores/%d loads", indent,
       res.registers, res.shared_bytes, res.stack_bytes, res.spill_stores, res.spill_loads);
  if (k.mix) line(out, "%sSASS           %s", indent, mix_text(*k.mix).c_str());
  if (k.mix && k.mix->count("LDL") + k.mix->count("STL") > 0)
    line(out, "%s  note         local memory in use: spills or a dynamically indexed array", indent);
}

void render_kernel(std::string& out, const ProfileReport& r, size_t i) {
  auto& rt = *r.runtime;
  auto& k = rt.kernels[i];
  auto& v = rt.verdicts[i];
  line(out, "kernel %zu/%zu: %s", i + 1, rt.kernels.size(), truncate_middle(k.name, 120).c_str());
  line(out, "  launch         grid %s x block %s, %.2f waves on %.0f SMs", k.grid.c_str(), k.block.c_str(),
       k.waves_per_sm, k.sm_count);
  line(out, "  duration       %.2f us (%.0f%% of the forward)", k.duration_ns / 1e3,
       rt.forward.total_ns > 0 ? 100 * k.duration_ns / rt.forward.total_ns : 100.0);
  line(out, "  verdict        %s: %s", name(v.bound), v.why.c_str());
  line(out, "  throughput     SM %s, memory %s, DRAM %s of peak", pct(k.sm_throughput_pct).c_str(),
       pct(k.memory_throughput_pct).c_str(), pct(k.dram_throughput_pct).c_str());
  std::string rw = is_reported(k.dram_read_bytes)
                       ? " (read " + std::to_string(static_cast<long long>(k.dram_read_bytes / 1e6)) + " MB, written " +
                             std::to_string(static_cast<long long>(k.dram_write_bytes / 1e6)) + " MB)"
                       : "";
  line(out, "  DRAM           %.1f MB at %.2f TB/s%s%s", k.dram_bytes() / 1e6, k.dram_bytes_per_s / 1e12,
       v.dram_fraction >= 0 ? (" = " + pct(100 * v.dram_fraction) + " of the measured ceiling").c_str() : "",
       rw.c_str());
  std::string lim = occupancy_limiter(k);
  line(out, "  occupancy      achieved %s of theoretical %s; limiter: %s", pct(k.achieved_occupancy_pct).c_str(),
       pct(k.theoretical_occupancy_pct).c_str(), lim.empty() ? "none" : lim.c_str());
  line(out, "  resources      %.0f regs/thread, %.0f B smem/block, %.0f threads/block", k.registers_per_thread,
       k.shared_bytes_per_block, k.block_size);
  std::string stalls;
  for (size_t s = 0; s < k.stalls.size() && s < 3; ++s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%s %.2f", s ? ", " : "", k.stalls[s].reason.c_str(), k.stalls[s].cycles);
    stalls += buf;
  }
  line(out, "  warp stalls    %s (cycles per issued instruction)", stalls.empty() ? "n/a" : stalls.c_str());
  line(out, "  caches         L1 hit %s, L2 hit %s", pct(k.l1_hit_pct).c_str(), pct(k.l2_hit_pct).c_str());
  if (is_reported(k.shared_ld_conflicts))
    line(out, "  smem conflicts %.0f load, %.0f store bank conflicts over %.0f wavefronts", k.shared_ld_conflicts,
         k.shared_st_conflicts, k.shared_wavefronts);
  else
    line(out, "  smem conflicts n/a (needs profile.extended_metrics)");
  line(out, "  tensor pipe    %s active", pct(k.tensor_pipe_pct).c_str());
  if (auto* s = static_for(r, k.name)) render_static(out, *s, "  ");
  bool tensor_busy = v.bound == Bound::kCompute && is_reported(k.tensor_pipe_pct) && k.tensor_pipe_pct >= 60;
  line(out, "  lever          %s",
       tensor_busy ? find_lever(bound_levers(), "tensor-saturated").c_str() : lever_for(v.bound).c_str());
  if (!k.stalls.empty()) line(out, "  top stall      %s", lever_for_stall(k.stalls[0].reason).c_str());
  for (auto& l : limiters())
    if (lim.rfind(l.name, 0) == 0) line(out, "  occupancy      %s", l.lever);
}

}  // namespace

std::string lever_for(Bound b) { return find_lever(bound_levers(), name(b)); }
std::string lever_for_stall(const std::string& reason) { return find_lever(stall_levers(), reason); }

std::string occupancy_limiter(const KernelCounters& k) {
  if (!is_reported(k.theoretical_occupancy_pct) || k.theoretical_occupancy_pct >= 100) return "";
  const Limiter* best = nullptr;
  for (auto& l : limiters())
    if (is_reported(k.*l.blocks) && (!best || k.*l.blocks < k.*best->blocks)) best = &l;
  if (!best) return "";
  std::string names = best->name;  // ties are all named: each must move to gain a block
  for (auto& l : limiters())
    if (&l != best && is_reported(k.*l.blocks) && k.*l.blocks == k.*best->blocks)
      names += " and " + std::string(l.name);
  return names;
}

std::string kernel_base_name(const std::string& name) {
  std::string s = name;
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  s = s.substr(0, s.find_first_of("<("));
  if (auto colon = s.rfind("::"); colon != std::string::npos) s = s.substr(colon + 2);
  return trim(s);
}

std::string render_summary(const ProfileReport& r) {
  std::string out;
  if (r.runtime) {
    auto& f = r.runtime->forward;
    line(out, "forward: %zu kernel%s, %.2f us on the GPU%s", r.runtime->kernels.size(),
         r.runtime->kernels.size() == 1 ? "" : "s", f.total_ns / 1e3, r.runtime->cache_hit ? " (cached profile)" : "");
    if (f.excess_traffic >= 0)
      line(out, "  DRAM traffic   %.1f MB vs the task's minimum %.1f MB: excess-traffic ratio %.2f", f.dram_bytes / 1e6,
           r.cost.min_bytes / 1e6, f.excess_traffic);
    if (f.ceiling_fraction >= 0)
      line(out,
           "  roofline       ideal %.2f us (%s-limited by the measured ceilings): %.0f%% of the achievable ceiling",
           f.ideal_ns / 1e3, name(*f.ideal_limit), 100 * f.ceiling_fraction);
    else if (!r.ceilings.known())
      line(out, "  roofline       n/a: no measured ceilings for this GPU (profile.ceilings)");
    line(out, "  dominant       %s (the longest kernel)", name(f.dominant));
    for (size_t i = 0; i < r.runtime->kernels.size(); ++i)
      render_kernel(out, r, i);
    line(out, "raw table: %s", r.runtime->raw_path.c_str());
    return out;
  }
  if (r.first_notice)
    line(out, "runtime counters unavailable: %s", r.runtime_missing.c_str());
  else
    line(out, "runtime counters unavailable (said above); static profile and timing only");
  line(out, "  falling back to timing plus the static profile");
  if (r.timing_ms)
    line(out, "  timing         %.4f ms per forward (evaluator)", *r.timing_ms);
  else
    line(out, "  timing         not measured here (cutegen eval times a candidate)");
  for (auto& k : r.statics.kernels) {
    line(out, "kernel %s", truncate_middle(k.resources.name, 120).c_str());
    render_static(out, k, "  ");
  }
  if (!r.statics.sass_note.empty()) line(out, "  (%s)", r.statics.sass_note.c_str());
  return out;
}

ProfileSummary profile_summary(const ProfileReport& r) {
  ProfileSummary p{.text = render_summary(r)};
  if (r.runtime && !r.runtime->verdicts.empty()) {
    auto& v = r.runtime->verdicts.front();
    p.verdict = BoundVerdict{v.bound, v.bound_pct};
  }
  return p;
}

}  // namespace cutegen
