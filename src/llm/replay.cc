// Answers from a recorded transcript, keyed by prompt hash. A prompt recorded several times is
// answered with its recordings in order, so a run that asked the same thing twice replays too.
// A prompt that differs from every recording only in its details (a re-measured timing, say)
// gets the answer recorded at the same position in the session, provided both prompts open with
// the same first line; anything else is an error.
#include <map>
#include <vector>

#include "llm/backends.h"
#include "llm/transcript.h"

namespace cutegen {
namespace {

class ReplayModel : public Model {
 public:
  ReplayModel(ModelSpec spec, std::vector<TranscriptEntry> entries)
      : spec_(std::move(spec)), entries_(std::move(entries)) {
    for (auto& e : entries_)
      answers_[e.key].push_back(e.response);
  }

  std::string name() const override { return spec_.text; }

  Result<Response> complete(const Request& req) override {
    size_t position = calls_++;
    std::string key = prompt_key(req);
    auto it = answers_.find(key);
    if (it == answers_.end()) {
      if (position < entries_.size() && opening(entries_[position].request) == opening(request_to_json(req))) {
        Response r = entries_[position].response;
        if (req.on_text) req.on_text(r.text);
        return r;
      }
      return error("replay: no recorded answer for prompt " + key.substr(0, 12) + " in " + spec_.target);
    }
    size_t& next = served_[key];
    if (next >= it->second.size())
      return error("replay: prompt " + key.substr(0, 12) + " was recorded " + std::to_string(it->second.size()) +
                   " time(s) and has been asked more often");
    Response r = it->second[next++];
    if (req.on_text) req.on_text(r.text);
    return r;
  }

 private:
  // The first line of the last message: what kind of prompt this is.
  static std::string opening(const nlohmann::json& request) {
    if (!request.contains("messages") || request["messages"].empty()) return "";
    auto& msgs = request["messages"];
    std::string text = msgs.back().value("content", "");
    return text.substr(0, text.find('\n'));
  }

  ModelSpec spec_;
  std::vector<TranscriptEntry> entries_;
  size_t calls_ = 0;
  std::map<std::string, std::vector<Response>> answers_;
  std::map<std::string, size_t> served_;
};

}  // namespace

Result<std::unique_ptr<Model>> make_replay(const ModelSpec& spec, const BackendOptions&) {
  auto entries = CUTEGEN_TRY(read_transcript(spec.target));
  return std::unique_ptr<Model>(new ReplayModel(spec, std::move(entries)));
}

}  // namespace cutegen
