#include "llm/known_prices.h"

#include <gtest/gtest.h>

namespace cutegen {

TEST(KnownPrices, CommonModelsArePricedOutOfTheBox) {
  ASSERT_TRUE(parse_price_table(known_prices()).ok());
  auto gpt5 = price_for_model("", "gpt-5");
  ASSERT_TRUE(gpt5.ok() && gpt5->has_value());
  EXPECT_DOUBLE_EQ((*gpt5)->output_per_m, 10);
  auto mini = *price_for_model("", "gpt-5-mini-2025-08-07");  // dated names match by prefix, the longest wins
  ASSERT_TRUE(mini.has_value());
  EXPECT_DOUBLE_EQ(mini->input_per_m, 0.25);
  auto sonnet = *price_for_model("", "claude-sonnet-4-5-20250929");
  ASSERT_TRUE(sonnet.has_value());
  EXPECT_DOUBLE_EQ(sonnet->output_per_m, 15);
  EXPECT_FALSE(price_for_model("", "qwen3-coder")->has_value());  // a local model: no price, no dollars
}

TEST(KnownPrices, ConfiguredPricesComeFirst) {
  auto p = *price_for_model("gpt-5=2/20", "gpt-5");
  ASSERT_TRUE(p.has_value());
  EXPECT_DOUBLE_EQ(p->output_per_m, 20);
  EXPECT_DOUBLE_EQ(price_for_model("*=0/0", "claude-opus-4-1")->value().output_per_m, 0);  // a catch-all too
  EXPECT_DOUBLE_EQ(price_for_model("qwen=1/1", "o3")->value().input_per_m, 2);             // others keep the built-in
  EXPECT_FALSE(price_for_model("gpt-5=cheap", "gpt-5").ok());
}

}  // namespace cutegen
