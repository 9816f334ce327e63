#include "llm/http.h"

namespace cutegen {

void SseParser::feed(std::string_view chunk) {
  pending_.append(chunk);
  size_t start = 0;
  for (;;) {
    auto nl = pending_.find('\n', start);
    if (nl == std::string::npos) break;
    std::string_view l(pending_.data() + start, nl - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    line(l);
    start = nl + 1;
  }
  pending_.erase(0, start);
}

void SseParser::finish() {
  if (!pending_.empty()) {
    std::string rest = std::move(pending_);
    pending_.clear();
    line(rest);
  }
  line("");
}

void SseParser::line(std::string_view l) {
  if (l.empty()) {  // blank line: dispatch
    if (has_data_) on_event_(event_, data_);
    event_.clear(), data_.clear(), has_data_ = false;
    return;
  }
  if (l.front() == ':') return;  // comment / keep-alive
  auto colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view{} : l.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "event") {
    event_ = value;
  } else if (field == "data") {
    if (has_data_) data_ += '\n';
    data_.append(value);
    has_data_ = true;
  }
}

}  // namespace cutegen
