// Answers from a recorded transcript, keyed by prompt hash. A prompt recorded several times is
// answered with its recordings in order, so a run that asked the same thing twice replays too.
#include <map>
#include <vector>

#include "llm/backends.h"
#include "llm/transcript.h"

namespace cutegen {
namespace {

class ReplayModel : public Model {
 public:
  ReplayModel(ModelSpec spec, std::vector<TranscriptEntry> entries) : spec_(std::move(spec)) {
    for (auto& e : entries) answers_[e.key].push_back(std::move(e.response));
  }

  std::string name() const override { return spec_.text; }

  Result<Response> complete(const Request& req) override {
    std::string key = prompt_key(req);
    auto it = answers_.find(key);
    if (it == answers_.end())
      return error("replay: no recorded answer for prompt " + key.substr(0, 12) + " in " + spec_.target);
    size_t& next = served_[key];
    if (next >= it->second.size())
      return error("replay: prompt " + key.substr(0, 12) + " was recorded " + std::to_string(it->second.size()) +
                   " time(s) and has been asked more often");
    Response r = it->second[next++];
    if (req.on_text) req.on_text(r.text);
    return r;
  }

 private:
  ModelSpec spec_;
  std::map<std::string, std::vector<Response>> answers_;
  std::map<std::string, size_t> served_;
};

}  // namespace

Result<std::unique_ptr<Model>> make_replay(const ModelSpec& spec, const BackendOptions&) {
  auto entries = CUTEGEN_TRY(read_transcript(spec.target));
  return std::unique_ptr<Model>(new ReplayModel(spec, std::move(entries)));
}

}  // namespace cutegen
