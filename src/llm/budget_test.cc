#include "llm/budget.h"

#include <gtest/gtest.h>

namespace cutegen {

TEST(Budget, UnlimitedByDefault) {
  Budget b({}, {});
  for (int i = 0; i < 100; ++i)
    b.charge(Usage{.input = 1000, .output = 1000}, 1.0);
  EXPECT_FALSE(b.exhausted().has_value());
}

TEST(Budget, EachLimitStopsWhenReached) {
  Budget calls({.calls = 2}, {});
  calls.charge({}, 0);
  EXPECT_FALSE(calls.exhausted());
  calls.charge({}, 0);
  EXPECT_EQ(calls.exhausted(), "run calls: 2 made of 2");

  Budget tokens({}, {.tokens = 100});
  tokens.charge(Usage{.input = 60, .output = 50}, 0);
  EXPECT_EQ(tokens.exhausted(), "task tokens: 110 spent of 100");

  Budget dollars({.dollars = 0.5}, {});
  dollars.charge({}, 0.25);
  EXPECT_FALSE(dollars.exhausted());
  dollars.charge({}, 0.25);
  EXPECT_EQ(dollars.exhausted(), "run dollars: $0.5000 spent of $0.5000");
}

TEST(Budget, NewTaskGetsItsOwnAllowanceButTheRunRemembers) {
  Budget b({.calls = 3}, {.calls = 2});
  b.charge({}, 0);
  b.charge({}, 0);
  EXPECT_EQ(b.exhausted(), "task calls: 2 made of 2");
  b.start_task();
  EXPECT_FALSE(b.exhausted());
  b.charge({}, 0);
  EXPECT_EQ(b.exhausted(), "run calls: 3 made of 3");
}

TEST(Budget, SeededFromAnEarlierProcess) {
  Budget b({.tokens = 1000}, {});
  b.seed_run(Spend{.calls = 4, .tokens = 1000, .dollars = 0});
  EXPECT_EQ(b.exhausted(), "run tokens: 1000 spent of 1000");
}

}  // namespace cutegen
