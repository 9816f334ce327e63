#include "llm/settings.h"

#include <gtest/gtest.h>

namespace cutegen {

TEST(Settings, RoleModelFallsBackToTheCommonModel) {
  Config c;
  ASSERT_TRUE(c.set("llm.model", "openai:gpt-5").ok());
  ASSERT_TRUE(c.set("llm.repairer_model", "anthropic:claude-sonnet-4-5").ok());
  EXPECT_EQ(model_spec_for_role(c, "generator"), "openai:gpt-5");
  EXPECT_EQ(model_spec_for_role(c, "repairer"), "anthropic:claude-sonnet-4-5");
  EXPECT_EQ(model_spec_for_role(c, "no-such-role"), "openai:gpt-5");
}

TEST(Settings, ConfigKeysBecomeOptions) {
  Config c;
  ASSERT_TRUE(c.set("llm.timeout_s", "2.5").ok());
  ASSERT_TRUE(c.set("llm.max_attempts", "4").ok());
  ASSERT_TRUE(c.set("llm.api_key_env", "MY_KEY").ok());
  ASSERT_TRUE(c.set("llm.context_tokens", "qwen=32768, *=8000").ok());
  ASSERT_TRUE(c.set("llm.prices", "qwen=0.5/1.5").ok());
  ASSERT_TRUE(c.set("llm.budget_run_dollars", "12.5").ok());
  ASSERT_TRUE(c.set("llm.budget_task_calls", "7").ok());
  ASSERT_TRUE(c.set("llm.temperature", "0.3").ok());
  auto b = backend_options(c);
  EXPECT_EQ(b.timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(b.retry.max_attempts, 4);
  EXPECT_EQ(b.api_key_env, "MY_KEY");
  auto o = client_options(c, "optimizer", "qwen2.5-coder");
  ASSERT_TRUE(o.ok()) << o.message();
  EXPECT_EQ(o->role, "optimizer");
  EXPECT_EQ(o->context_tokens, 32768);
  ASSERT_TRUE(o->price.has_value());
  EXPECT_DOUBLE_EQ(o->price->output_per_m, 1.5);
  EXPECT_EQ(client_options(c, "generator", "llama")->context_tokens, 8000);
  EXPECT_DOUBLE_EQ(run_limits(c).dollars, 12.5);
  EXPECT_EQ(task_limits(c).calls, 7);
  auto req = default_request(c);
  EXPECT_EQ(req.max_output_tokens, 16384);
  EXPECT_EQ(req.temperature, 0.3);
  EXPECT_TRUE(req.reasoning_effort.empty());
}

TEST(Settings, BadTablesAreErrorsNamingTheKey) {
  Config c;
  ASSERT_TRUE(c.set("llm.prices", "qwen=cheap").ok());
  auto o = client_options(c, "generator", "qwen");
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.message().find("llm.prices"), std::string::npos);
}

}  // namespace cutegen
