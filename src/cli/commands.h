// The subcommand table: one row per command (name, one-line help, how to define it).
#pragma once

#include <CLI/CLI.hpp>
#include <vector>

#include "cli/context.h"

namespace cutegen {

struct CommandDef {
  const char* name;
  const char* help;
  void (*define)(CLI::App& sub, Context& ctx);
};

const std::vector<CommandDef>& commands();

void define_build(CLI::App& sub, Context& ctx);
void define_doctor(CLI::App& sub, Context& ctx);
void define_config(CLI::App& sub, Context& ctx);
void define_profile(CLI::App& sub, Context& ctx);
void define_task(CLI::App& sub, Context& ctx);
void define_eval(CLI::App& sub, Context& ctx);
void define_llm(CLI::App& sub, Context& ctx);
void define_prompt(CLI::App& sub, Context& ctx);
void define_run(CLI::App& sub, Context& ctx);
void define_resume(CLI::App& sub, Context& ctx);
void define_replay(CLI::App& sub, Context& ctx);
void define_reeval(CLI::App& sub, Context& ctx);
void define_export(CLI::App& sub, Context& ctx);
void define_report(CLI::App& sub, Context& ctx);
void define_status(CLI::App& sub, Context& ctx);
void define_work(CLI::App& sub, Context& ctx);
void define_expert(CLI::App& sub, Context& ctx);

}  // namespace cutegen
