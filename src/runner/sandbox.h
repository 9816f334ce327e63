// The runner's sandbox, entered before the candidate is loaded: fresh mount and network namespaces
// (a user namespace too when not root), the whole filesystem read-only, a private /tmp, vendor math
// libraries masked, and, when started as root, the uid and gid of `nobody`. Nothing the judge writes
// (answer files, the ceilings cache, the run store) is writable from inside.
#pragma once

#include <string>
#include <vector>

namespace cutegen::runner {

struct SandboxPlan {
  std::vector<std::string> mask_dirs;  // folders whose vendor libraries are masked (plus the defaults)
  std::string candidate;               // the candidate's library, copied into the private /tmp
};

struct SandboxResult {
  bool ok = false;
  std::string note;       // one line: what holds, or why the sandbox could not be made
  std::string candidate;  // the copy to load
};

SandboxResult enter_sandbox(const SandboxPlan& plan);

// True for file names of libraries a kernel may not reach: cuBLAS, cuDNN, cuFFT, ..., NVRTC, torch.
bool is_vendor_library(const std::string& file_name);

}  // namespace cutegen::runner
