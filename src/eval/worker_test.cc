#include "eval/worker.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace cutegen {

TEST(Worker, EnvironmentIsAnAllowlistAndPinsTheChosenGpu) {
  setenv("ANTHROPIC_API_KEY", "sk-ant-secret", 1);
  setenv("CUDA_VISIBLE_DEVICES", "0,1,2", 1);
  auto env = worker_environment({.bridge_dir = "/b", .gpu = "2"});
  EXPECT_EQ(env.count("ANTHROPIC_API_KEY"), 0u);
  EXPECT_EQ(env.at("CUDA_VISIBLE_DEVICES"), "2");
  EXPECT_EQ(env.at("PYTHONPATH"), "/b");
  EXPECT_EQ(worker_environment({.bridge_dir = "/b"}).at("CUDA_VISIBLE_DEVICES"), "0,1,2");
  unsetenv("ANTHROPIC_API_KEY");
  unsetenv("CUDA_VISIBLE_DEVICES");
}

TEST(Worker, CommandRunsTheBridgeEval) {
  auto argv = worker_command({.python = "/py"}, {"--mode", "check"}, "/o.json");
  EXPECT_EQ(argv,
            (std::vector<std::string>{"/py", "-m", "cutegen_bridge", "eval", "--out", "/o.json", "--mode", "check"}));
}

}  // namespace cutegen
