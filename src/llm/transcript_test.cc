#include "llm/transcript.h"

#include <gtest/gtest.h>

#include "llm/backends.h"
#include "llm/fixture_for_tests.h"
#include "sys/fs.h"

namespace cutegen {

TEST(Transcript, PromptKeyCoversContentButNotTheStreamCallback) {
  Request a = ask("same");
  Request b = ask("same");
  b.on_text = [](std::string_view) {};
  EXPECT_EQ(prompt_key(a), prompt_key(b));
  EXPECT_EQ(prompt_key(a).size(), 32u);
  std::vector<Request> variants(6, ask("same"));
  variants[0].system.push_back('s');
  variants[1].max_output_tokens++;
  variants[2].temperature = 0;
  variants[3].stop.push_back("x");
  variants[4].reasoning_effort.push_back('l');
  variants[5].messages[0].content.push_back('!');
  for (auto& v : variants)
    EXPECT_NE(prompt_key(v), prompt_key(a));
}

TEST(Transcript, RoundTripsResponsesAndRecordsOnlyAnswers) {
  TempDir dir;
  TranscriptWriter w(dir / "sub/t.jsonl");
  Response r{.text = "t",
             .reasoning = "r",
             .finish_reason = "length",
             .usage = {1, 2, 3, 4},
             .latency_s = 0.125,
             .request_id = "id",
             .model = "m"};
  ASSERT_TRUE(w.append(ask("q"), r).ok());
  ASSERT_TRUE(w.append(ask("q"), Response{.status = ResponseStatus::waiting}).ok());
  auto entries = read_transcript(dir / "sub/t.jsonl");
  ASSERT_TRUE(entries.ok()) << entries.message();
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].key, prompt_key(ask("q")));
  EXPECT_EQ(response_to_json((*entries)[0].response), response_to_json(r));
}

TEST(Transcript, BadLineNamesFileAndLine) {
  TempDir dir;
  ASSERT_TRUE(write_file_atomic(dir / "t.jsonl", "{\"key\":\"k\",\"response\":{}}\nnot json\n").ok());
  auto e = read_transcript(dir / "t.jsonl");
  ASSERT_FALSE(e.ok());
  EXPECT_TRUE(e.message().ends_with("/t.jsonl:2: not a transcript line")) << e.message();
  EXPECT_FALSE(read_transcript(dir / "missing.jsonl").ok());
}

TEST(Transcript, RenderPromptIsPlainForOneQuestion) {
  EXPECT_EQ(render_prompt(ask("just this")), "just this");
  EXPECT_EQ(render_prompt(ask("q", "s")), "=== system ===\ns\n\n=== user ===\nq\n\n");
}

}  // namespace cutegen

namespace cutegen {

// A re-run on a GPU re-measures timings, so its prompts differ from the recording in details only:
// replay answers them by position when the prompt's first line (its kind) matches.
TEST(Transcript, ReplayFallsBackToThePositionForTheSameKindOfPrompt) {
  TempDir dir;
  {
    TranscriptWriter w(dir / "t.jsonl");
    ASSERT_TRUE(w.append(ask("<!-- prompt: optimize v1 -->\nbest so far 1.10x"), Response{.text = "first"}).ok());
    ASSERT_TRUE(w.append(ask("<!-- prompt: tune v1 -->\nbest so far 1.20x"), Response{.text = "second"}).ok());
  }
  auto model = make_model("replay:" + (dir / "t.jsonl"), {});
  ASSERT_TRUE(model.ok()) << model.message();
  auto a = (*model)->complete(ask("<!-- prompt: optimize v1 -->\nbest so far 1.13x"));
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->text, "first");
  auto b = (*model)->complete(ask("<!-- prompt: generate v1 -->\nsomething else"));
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.message().find("no recorded answer"), std::string::npos);
}

}  // namespace cutegen
