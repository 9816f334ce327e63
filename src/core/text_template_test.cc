#include "core/text_template.h"

#include <gtest/gtest.h>

namespace cutegen {
namespace {

TEST(TextTemplate, MissingAndUnusedVariablesAreErrors) {
  EXPECT_EQ(*render_template("a {{x}} b", {{"x", "1"}}, "t"), "a 1 b");
  EXPECT_EQ(render_template("a {{x}} {{y}}", {{"x", "1"}}, "t").message(), "t: no value for {{y}}");
  EXPECT_EQ(render_template("a {{x}}", {{"x", "1"}, {"z", "2"}}, "t").message(),
            "t: value 'z' given but the template has no {{z}}");
  EXPECT_EQ(render_template("a {{x", {}, "t").message(), "t: unclosed {{ placeholder");
}

}  // namespace
}  // namespace cutegen
