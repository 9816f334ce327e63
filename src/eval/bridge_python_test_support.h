// For tests that run the real bridge's Python (venv torch, no GPU needed).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/strings.h"
#include "eval/worker.h"
#include "sys/python.h"
#include "sys/subprocess.h"
#include "task/loader.h"

namespace cutegen {

// Runs `script` in the bridge's interpreter, in the environment the evaluator's worker gets;
// returns its stdout lines.
inline std::vector<std::string> run_bridge_python(const std::string& script) {
  WorkerOptions opt{.python = python_executable(""), .bridge_dir = bridge_dir()};
  auto r = run_process(
      {.argv = {opt.python, "-c", script}, .env = worker_environment(opt), .timeout = std::chrono::seconds(300)});
  EXPECT_TRUE(r.ok()) << r.message();
  if (!r.ok()) return {};
  EXPECT_TRUE(r->success()) << r->describe() << "\n" << r->err;
  return split_lines(trim(r->out));
}

// run_bridge_python for scripts that print "NAME VALUE..." lines: VALUE... by NAME.
inline std::map<std::string, std::string> run_bridge_python_named(const std::string& script) {
  std::map<std::string, std::string> got;
  for (auto& l : run_bridge_python(script))
    got[l.substr(0, l.find(' '))] = l.substr(l.find(' ') + 1);
  return got;
}

}  // namespace cutegen
