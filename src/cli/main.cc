// cutegen: turns a reference operator (a KernelBench-style PyTorch file) into a fast CuTe kernel.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "cli/commands.h"
#include "cutegen_paths.h"

int main(int argc, char** argv) {
  using namespace cutegen;
  CLI::App app{"cutegen: generate, verify and optimize CuTe GPU kernels for PyTorch reference operators"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("cutegen ") + CUTEGEN_VERSION);
  Context ctx;
  app.add_option("--config", ctx.config_path, "TOML config file (default: ./cutegen.toml or ~/.config/cutegen)");
  app.add_option("--set", ctx.overrides, "override a config key: --set eval.trials=3")->take_all();
  app.add_flag("--json", ctx.json, "machine-readable output");
  for (auto& c : commands()) c.define(*app.add_subcommand(c.name, c.help), ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const CommandError& e) {
    std::fprintf(stderr, "cutegen: %s\n", e.message.c_str());
    return e.exit_code;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cutegen: %s\n", e.what());
    return 2;
  }
  return ctx.exit_code;
}
