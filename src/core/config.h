// Every knob in one place: a table of known keys with defaults and help, filled from a TOML
// file, then CUTEGEN_* environment variables, then command-line overrides (last wins).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct ConfigKey {
  const char* key;       // "section.name"
  const char* fallback;  // default value as text
  const char* help;
};

// The table of all keys; modules document their knobs here.
const std::vector<ConfigKey>& config_keys();

class Config {
 public:
  Config();  // defaults only
  // Reads a TOML file; unknown keys and wrongly typed values are errors naming the key.
  static Result<Config> load(const std::string& path);
  // Applies CUTEGEN_SECTION_NAME variables for every known key.
  void apply_environment();
  Status set(const std::string& key, const std::string& value);

  std::string str(const std::string& key) const;
  long integer(const std::string& key) const;
  double number(const std::string& key) const;
  bool boolean(const std::string& key) const;
  std::string origin(const std::string& key) const;  // "default", a file path, "environment", "command line"

 private:
  std::map<std::string, std::string> values_;
  std::map<std::string, std::string> origins_;
};

// The config file to use when none is given: ./cutegen.toml, else $XDG_CONFIG_HOME/cutegen/config.toml
// (or ~/.config/...), else "" (defaults).
std::string default_config_path();

}  // namespace cutegen
