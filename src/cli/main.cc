// cutegen: turns a reference operator (a KernelBench-style PyTorch file) into a fast CuTe kernel.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cutegen_paths.h"

namespace {

using namespace cutegen;

std::string exit_code_footer() {
  std::string out = "Exit codes:\n";
  for (auto& row : exit_code_table())
    out += "  " + std::to_string(row.code) + "  " + row.meaning + "\n";
  return out;
}

std::string command_names() {
  std::string out;
  for (auto& c : commands())
    out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

// One line on stderr, or under --json one object on stdout; returns the code.
int report(bool json, const std::string& message, int code) {
  if (json)
    std::printf("%s\n", nlohmann::json{{"error", message}, {"exit_code", code}}.dump().c_str());
  else
    std::fprintf(stderr, "cutegen: %s\n", message.c_str());
  return code;
}

// --json is known before parsing, so that a parse error can be answered as JSON too.
bool wants_json(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--json") return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cutegen: generate, verify and optimize CuTe GPU kernels for PyTorch reference operators"};
  app.require_subcommand(1);
  app.fallthrough();  // global flags also after the subcommand: `cutegen eval T K --json`
  app.footer(exit_code_footer());
  app.set_version_flag("--version", std::string("cutegen ") + CUTEGEN_VERSION);
  Context ctx;
  app.add_option("--config", ctx.config_path, "TOML config file (default: ./cutegen.toml or ~/.config/cutegen)");
  app.add_option("--set", ctx.overrides, "override a config key: --set eval.trials=3")->take_all();
  app.add_flag("--json", ctx.json, "machine-readable output, errors included ({\"error\", \"exit_code\"})");
  app.add_flag("--verbose", ctx.verbose, "the details behind short messages (why the expert declines a task)");
  for (auto& c : commands())
    c.define(*app.add_subcommand(c.name, c.help), ctx);
  bool json = wants_json(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (app.get_subcommands().empty() && !app.remaining().empty())
      return report(json, "unknown command '" + app.remaining().front() + "'; commands: " + command_names(),
                    kExitInput);
    if (json) return report(json, e.what(), kExitInput);
    app.exit(e);
    return kExitInput;
  } catch (const CommandError& e) {
    return report(json, e.message, e.exit_code);
  } catch (const std::exception& e) {
    return report(json, e.what(), kExitInput);
  }
  return ctx.exit_code;
}
