// What every subcommand receives: the resolved config and the global flags.
#pragma once

#include <string>

#include "build/builder.h"
#include "cli/exit_codes.h"
#include "core/config.h"

namespace cutegen {

struct Context {
  std::string config_path;             // --config, else default_config_path()
  std::vector<std::string> overrides;  // --set key=value
  bool json = false;
  bool verbose = false;  // --verbose: the details behind a short message (an expert decline's reasons)
  Config config;
  int exit_code = 0;

  // Loads the config file, environment and --set overrides; call once after parsing.
  Status resolve();
  std::string cache_dir() const;
  // Where task descriptions are kept (task.spec_cache), "" when they are not.
  std::string spec_cache_dir() const;
  // The build target: build.arch, or the GPU's compute capability when "auto" and a GPU is present.
  Result<Target> target() const;
  Result<Builder> builder() const;
  // An error naming `what` when this machine has no NVIDIA GPU: checked before work that needs
  // one (compiling for `eval`, a run folder for `run`), so the user hears it first.
  Status require_gpu(const std::string& what) const;
};

// A failure that ends the command: printed as one line (or {"error", "exit_code"} under --json),
// with this exit code (exit_codes.h).
struct CommandError {
  std::string message;
  int exit_code = kExitInput;
};

[[noreturn]] inline void fail(const std::string& message, int code) { throw CommandError{message, code}; }
// Fails with the code the message implies (code_for_error): environment, else input.
[[noreturn]] inline void fail(const std::string& message) { fail(message, code_for_error(message)); }
template <class T>
T must(Result<T> r) {
  if (!r) fail(r.message());
  return std::move(r).value();
}

}  // namespace cutegen
