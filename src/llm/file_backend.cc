// The asynchronous backend: the prompt goes out as a file, the answer comes back as a file.
// Without an answer the call returns a "waiting" value naming the file to wait for; the caller
// persists its state and resumes later (or, with `wait`, the call polls until it appears).
#include <chrono>

#include "core/strings.h"
#include "llm/backends.h"
#include "llm/file_queue.h"
#include "llm/redact.h"
#include "llm/transcript.h"
#include "sys/fs.h"

namespace cutegen {

QueueFiles queue_files(const std::string& dir, const std::string& key) {
  return {dir + "/" + key + ".prompt.md", dir + "/" + key + ".answer.md", dir + "/" + key + ".error.md"};
}

namespace {

class FileModel : public Model {
 public:
  FileModel(ModelSpec spec, BackendOptions opt) : spec_(std::move(spec)), opt_(std::move(opt)) {}

  std::string name() const override { return spec_.text; }

  Result<Response> complete(const Request& req) override {
    auto files = queue_files(spec_.target, prompt_key(req));
    if (!file_exists(files.prompt)) CUTEGEN_TRY(write_file_atomic(files.prompt, redact(render_prompt(req))));
    auto start = std::chrono::steady_clock::now();
    auto sleep = opt_.sleep ? opt_.sleep : real_sleeper();
    for (;;) {
      if (file_exists(files.error)) {
        auto why = CUTEGEN_TRY(read_file(files.error));
        return error(redact("file queue: " + files.error + ": " + replace_all(trim(why), "\n", " ")));
      }
      if (file_exists(files.answer)) {
        auto text = CUTEGEN_TRY(read_file(files.answer));
        if (!trim(text).empty()) {
          double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          Response r{.text = text, .finish_reason = "stop", .latency_s = waited, .model = "file"};
          if (req.on_text) req.on_text(text);
          return r;
        }
      }
      double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!opt_.wait || (opt_.wait_timeout_s > 0 && waited >= opt_.wait_timeout_s))
        return Response{.status = ResponseStatus::waiting, .model = "file", .waiting_on = files.answer};
      sleep(opt_.poll_interval_s);
    }
  }

 private:
  ModelSpec spec_;
  BackendOptions opt_;
};

}  // namespace

Result<std::unique_ptr<Model>> make_file(const ModelSpec& spec, const BackendOptions& opt) {
  CUTEGEN_TRY(ensure_writable_dir(spec.target));
  return std::unique_ptr<Model>(new FileModel(spec, opt));
}

}  // namespace cutegen
