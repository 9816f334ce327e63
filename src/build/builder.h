// Turns one CUDA/CuTe source into a shared library with harness-owned flags, through a
// content-addressed cache, several compiles at a time bounded by cores and memory.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "build/diagnostics.h"
#include "build/ptxas_report.h"
#include "build/target.h"
#include "build/toolchain.h"
#include "core/outcomes.h"
#include "core/result.h"

namespace cutegen {

struct BuildRequest {
  std::string source;        // the kernel's text
  std::string display_name;  // how errors name the file, e.g. "relu.cu"
  Target target;
  std::string force_include;  // text of a header force-included before the source (the ABI), or ""
};

struct BuildResult {
  BuildOutcome outcome = BuildOutcome::kCompileError;
  bool cache_hit = false;
  std::string key;           // content hash of everything that determines the binary
  std::string library_path;  // set when built
  std::string log_path;      // the raw nvcc log
  std::string message;       // one line: why it failed, or "built"
  std::vector<Diagnostic> diagnostics;
  std::vector<KernelResources> kernels;
  double compile_seconds = 0;  // of the compile that produced it (not of a cache hit)

  bool ok() const { return outcome == BuildOutcome::kBuilt; }
};

struct BuilderOptions {
  std::string cache_dir;
  int jobs = 0;                  // 0: derive from cores and memory
  double gib_per_compile = 2.0;  // one CuTe compile's peak memory
  std::chrono::seconds timeout{600};
};

// How every kernel is compiled, wherever it is built (the harness, an exported ModelNew): language,
// optimization, target and shared-library flags, without include paths or diagnostics.
std::vector<std::string> kernel_flags(const Target& target);

class Builder {
 public:
  Builder(Toolchain toolchain, BuilderOptions options);
  // Flags the harness owns (kernel_flags, CUTLASS's include, ptxas's resource report); the kernel
  // author never sets flags.
  std::vector<std::string> flags(const Target& target) const;
  std::string cache_key(const BuildRequest& req) const;
  // Errors only for setup problems (unwritable cache); a failed compile is a BuildResult.
  Result<BuildResult> build(const BuildRequest& req) const;
  std::vector<Result<BuildResult>> build_all(const std::vector<BuildRequest>& reqs) const;
  int parallel_jobs() const;
  const Toolchain& toolchain() const { return tc_; }

 private:
  Result<BuildResult> compile(const BuildRequest& req, const std::string& key, const std::string& dir) const;
  Toolchain tc_;
  BuilderOptions opt_;
};

// Memory available now, in GiB, from /proc/meminfo (0 when unknown).
double available_memory_gib();

}  // namespace cutegen
