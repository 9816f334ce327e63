#include "llm/redact.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace cutegen {

TEST(Redact, ScrubsEveryRegisteredSecretEverywhere) {
  register_secret("sk-abc-123456");
  register_secret("sk-abc-123456-longer");
  EXPECT_EQ(redact("a sk-abc-123456 b sk-abc-123456-longer c sk-abc-123456"), "a [REDACTED] b [REDACTED] c [REDACTED]");
  EXPECT_EQ(redact("nothing here"), "nothing here");
}

TEST(Redact, ShortValuesAreNotSecrets) {
  register_secret("ab");
  EXPECT_EQ(redact("ab cab"), "ab cab");
}

TEST(Redact, KeyFromEnvironmentIsRegisteredOnRead) {
  setenv("CUTEGEN_TEST_KEY_A", "  secret-from-env-42\n", 1);
  auto k = api_key_from_env("CUTEGEN_TEST_KEY_A", "openai:x");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(*k, "secret-from-env-42");
  EXPECT_EQ(redact("Bearer secret-from-env-42"), "Bearer [REDACTED]");
}

TEST(Redact, MissingKeyNamesTheVariableAndTheModel) {
  unsetenv("CUTEGEN_TEST_KEY_MISSING");
  auto k = api_key_from_env("CUTEGEN_TEST_KEY_MISSING", "anthropic:claude-x");
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.message(),
            "missing API key: environment variable CUTEGEN_TEST_KEY_MISSING is not set (needed by anthropic:claude-x)");
}

}  // namespace cutegen
