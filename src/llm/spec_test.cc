#include "llm/spec.h"

#include <gtest/gtest.h>

namespace cutegen {

TEST(Spec, ApiBackendWithDefaultEndpoint) {
  auto s = parse_model_spec("openai:gpt-5");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->backend, "openai");
  EXPECT_EQ(s->model, "gpt-5");
  EXPECT_EQ(s->base_url, "");
  auto a = parse_model_spec(" anthropic:claude-sonnet-4-5 ");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->backend, "anthropic");
  EXPECT_EQ(a->model, "claude-sonnet-4-5");
}

TEST(Spec, ExplicitBaseUrlSplitsAtTheModelColon) {
  struct Case {
    const char* spec;
    const char* url;
    const char* model;
  };
  const Case cases[] = {
      {"openai@http://127.0.0.1:8000/v1:qwen", "http://127.0.0.1:8000/v1", "qwen"},
      {"openai@http://localhost:11434/v1:qwen2.5-coder:7b", "http://localhost:11434/v1", "qwen2.5-coder:7b"},
      {"openai@https://openrouter.ai/api/v1:deepseek/deepseek-r1", "https://openrouter.ai/api/v1",
       "deepseek/deepseek-r1"},
      {"anthropic@http://127.0.0.1:9000:claude-x", "http://127.0.0.1:9000", "claude-x"},
      {"openai@http://gpu-box:qwen", "http://gpu-box", "qwen"},
  };
  for (auto& c : cases) {
    auto s = parse_model_spec(c.spec);
    ASSERT_TRUE(s.ok()) << c.spec << ": " << s.message();
    EXPECT_EQ(s->base_url, c.url) << c.spec;
    EXPECT_EQ(s->model, c.model) << c.spec;
  }
}

TEST(Spec, TargetBackendsKeepTheRestVerbatim) {
  auto c = parse_model_spec("command:./my-cli --flag 'two words'");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->backend, "command");
  EXPECT_EQ(c->target, "./my-cli --flag 'two words'");
  auto f = parse_model_spec("file:/tmp/queue");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->target, "/tmp/queue");
  auto r = parse_model_spec("replay:/x/t.jsonl");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->target, "/x/t.jsonl");
}

TEST(Spec, BadSpecsAreOneClearError) {
  struct Case {
    const char* spec;
    const char* needle;
  };
  const Case cases[] = {
      {"", "no model given"},
      {"gpt-5", "names no backend"},
      {"bogus:model", "unknown model backend 'bogus'"},
      {"openai:", "empty model name"},
      {"openai@127.0.0.1:8000:qwen", "expected a URL"},
      {"openai@http://127.0.0.1:8000/v1", "no model name after the URL"},
      {"command:", "needs a command"},
      {"file:  ", "needs a path"},
      {"file@http://x:y", "takes no @URL"},
  };
  for (auto& c : cases) {
    auto s = parse_model_spec(c.spec);
    ASSERT_FALSE(s.ok()) << c.spec;
    EXPECT_NE(s.message().find(c.needle), std::string::npos) << c.spec << " -> " << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
  }
}

}  // namespace cutegen
