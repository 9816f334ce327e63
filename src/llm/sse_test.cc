#include <gtest/gtest.h>

#include "llm/http.h"

namespace cutegen {
namespace {

using Events = std::vector<std::pair<std::string, std::string>>;

Events parse_in_pieces(const std::string& stream, size_t piece) {
  Events got;
  SseParser p([&](const std::string& e, const std::string& d) { got.push_back({e, d}); });
  for (size_t i = 0; i < stream.size(); i += piece)
    p.feed(std::string_view(stream).substr(i, piece));
  p.finish();
  return got;
}

}  // namespace

TEST(Sse, EventsSurviveAnySplitOfTheStream) {
  std::string stream =
      ": keep-alive\n\nevent: message_start\ndata: {\"a\":1}\n\r\ndata: first\ndata: second\n\n"
      "data: [DONE]\r\n\r\n";
  Events want = {{"message_start", "{\"a\":1}"}, {"", "first\nsecond"}, {"", "[DONE]"}};
  for (size_t piece : {1, 2, 3, 7, 1000})
    EXPECT_EQ(parse_in_pieces(stream, piece), want) << piece;
}

TEST(Sse, FinishDeliversAnEventWithoutItsBlankLine) {
  Events got = parse_in_pieces("data: tail", 4);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].second, "tail");
}

TEST(Sse, EventNameDoesNotLeakIntoTheNextEvent) {
  Events got = parse_in_pieces("event: ping\ndata: {}\n\ndata: x\n\n", 5);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "ping");
  EXPECT_EQ(got[1].first, "");
}

}  // namespace cutegen
