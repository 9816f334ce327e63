#include "llm/model_tables.h"

#include <gtest/gtest.h>

namespace cutegen {

TEST(ModelTables, PricesParseAndCostCountsCachedInputAtItsOwnPrice) {
  auto t = parse_price_table("gpt-5=1.25/10/0.125, claude=3/15");
  ASSERT_TRUE(t.ok()) << t.message();
  auto p = lookup_model(*t, "gpt-5");
  ASSERT_TRUE(p.has_value());
  // 1M input of which 400k cached, 100k output.
  EXPECT_NEAR(cost_usd(*p, Usage{.input = 1000000, .output = 100000, .cached = 400000}),
              0.6 * 1.25 + 0.4 * 0.125 + 0.1 * 10, 1e-12);
  auto c = lookup_model(*t, "claude-sonnet-4-5");  // prefix match
  ASSERT_TRUE(c.has_value());
  EXPECT_NEAR(cost_usd(*c, Usage{.input = 2000, .output = 1000, .cached = 1000}), (2000 * 3 + 1000 * 15) / 1e6, 1e-12);
  EXPECT_FALSE(lookup_model(*t, "qwen").has_value());
}

TEST(ModelTables, LongestPrefixThenWildcard) {
  auto t = parse_context_table("qwen=32768, qwen3-coder=262144, *=128000");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(lookup_model(*t, "qwen3-coder-30b"), 262144);
  EXPECT_EQ(lookup_model(*t, "qwen2.5"), 32768);
  EXPECT_EQ(lookup_model(*t, "other"), 128000);
}

TEST(ModelTables, BadEntriesNameTheKey) {
  auto a = parse_price_table("gpt-5=1.25");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.message().find("llm.prices"), std::string::npos);
  auto b = parse_context_table("qwen");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.message().find("expected model=value"), std::string::npos);
  auto c = parse_price_table("x=1/abc");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.message().find("'abc' is not a non-negative number"), std::string::npos);
}

TEST(ModelTables, TokenEstimateIsConservative) {
  Request r{.system = std::string(350, 's'), .messages = {{"user", std::string(3500, 'u')}}};
  long est = estimate_input_tokens(r);
  EXPECT_GE(est, (350 + 3500) / 4);
  EXPECT_LE(est, (350 + 3500) / 2);
}

}  // namespace cutegen
