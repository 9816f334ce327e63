// What every subcommand receives: the resolved config and the global flags.
#pragma once

#include <string>

#include "build/builder.h"
#include "core/config.h"

namespace cutegen {

struct Context {
  std::string config_path;  // --config, else default_config_path()
  std::vector<std::string> overrides;  // --set key=value
  bool json = false;
  Config config;
  int exit_code = 0;

  // Loads the config file, environment and --set overrides; call once after parsing.
  Status resolve();
  std::string cache_dir() const;
  // The build target: build.arch, or the GPU's compute capability when "auto" and a GPU is present.
  Result<Target> target() const;
  Result<Builder> builder() const;
};

// A failure that ends the command: printed as one line, with this exit code.
struct CommandError {
  std::string message;
  int exit_code = 2;
};

}  // namespace cutegen
