#include "core/strings.h"

#include <gtest/gtest.h>

#include "core/hash.h"

namespace cutegen {

TEST(Strings, TrimSplitJoin) {
  EXPECT_EQ(trim("  a b \n"), "a b");
  EXPECT_EQ(split("a,,b", ','), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(split_lines("x\r\ny\n"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(join({"a", "b", "c"}, "-"), "a-b-c");
  EXPECT_EQ(replace_all("aXbXc", "X", "--"), "a--b--c");
}

TEST(Strings, TruncateMiddleKeepsBothEnds) {
  std::string s(1000, 'a');
  s[0] = 'B';
  s[999] = 'E';
  auto t = truncate_middle(s, 100);
  EXPECT_LT(t.size(), 200u);
  EXPECT_EQ(t.front(), 'B');
  EXPECT_EQ(t.back(), 'E');
  EXPECT_NE(t.find("characters cut"), std::string::npos);
}

TEST(Hash, PartsAreLengthPrefixed) {
  EXPECT_NE(Hasher().add("ab").add("c").hex(), Hasher().add("a").add("bc").hex());
  EXPECT_EQ(hash_hex("x"), hash_hex("x"));
  EXPECT_EQ(hash_hex("x").size(), 32u);
}

}  // namespace cutegen
