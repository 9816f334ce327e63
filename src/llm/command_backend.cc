// A user command as a model: the prompt goes to its stdin, its stdout is the answer. Run through
// `sh -c` so a spec may carry flags, pipes and quoting like a shell line.
#include "core/strings.h"
#include "llm/backends.h"
#include "llm/redact.h"
#include "llm/transcript.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace {

class CommandModel : public Model {
 public:
  CommandModel(ModelSpec spec, BackendOptions opt) : spec_(std::move(spec)), opt_(std::move(opt)) {}

  std::string name() const override { return spec_.text; }

  Result<Response> complete(const Request& req) override {
    auto r = run_process(
        {.argv = {"sh", "-c", spec_.target}, .stdin_data = render_prompt(req), .timeout = opt_.command_timeout});
    if (!r) return error(redact("command '" + spec_.target + "': " + r.message()));
    if (!r->success()) {
      std::string tail = trim(r->err);
      if (tail.size() > 300) tail = "..." + tail.substr(tail.size() - 300);
      return error(redact("command '" + spec_.target + "' failed (" + r->describe() + ")" +
                          (tail.empty() ? "" : ": " + replace_all(tail, "\n", " | "))));
    }
    Response out{.text = r->out, .finish_reason = "stop", .latency_s = r->wall_seconds, .model = spec_.target};
    if (trim(out.text).empty()) return error(redact("command '" + spec_.target + "' answered with no text"));
    if (req.on_text) req.on_text(out.text);
    return out;
  }

 private:
  ModelSpec spec_;
  BackendOptions opt_;
};

}  // namespace

Result<std::unique_ptr<Model>> make_command(const ModelSpec& spec, const BackendOptions& opt) {
  auto words = split(spec.target, ' ');
  std::string exe = words.empty() ? "" : words[0];
  if (find_executable(exe).empty() && exe.find_first_of("|;&$<>'\"") == std::string::npos)
    return error("command '" + exe + "' not found (spec '" + spec.text + "')");
  return std::unique_ptr<Model>(new CommandModel(spec, opt));
}

}  // namespace cutegen
