// cutegen llm [SPEC]: one prompt to one model, the answer on stdout and a usage line on stderr.
// Exit codes (exit_codes.h): 0 an answer, 6 waiting for an answer file (file backend), 1 the budget
// is spent, 2 any other error.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "llm/client.h"
#include "llm/file_queue.h"
#include "llm/settings.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

struct LlmArgs {
  std::string spec;
  std::string prompt_file;
  std::string system_file;
  std::string role = "generator";
  std::string ledger;
  std::string transcript;
  int max_tokens = 0;
  bool stream = false;
  bool wait = false;
};

Result<std::string> read_prompt(const std::string& file) {
  std::string text;
  if (file.empty() || file == "-")
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  else
    text = CUTEGEN_TRY(read_file(file));
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    return error("empty prompt: give it on stdin or with --prompt FILE");
  return text;
}

void print_usage_line(const Response& r, const std::string& model, double cost) {
  std::fprintf(stderr, "[%s] finish=%s input=%ld cached=%ld output=%ld reasoning=%ld latency=%.2fs cost=$%.6f%s\n",
               model.c_str(), r.finish_reason.c_str(), r.usage.input, r.usage.cached, r.usage.output, r.usage.reasoning,
               r.latency_s, cost, r.continuations ? " (continued)" : "");
}

void run_llm(const LlmArgs& a, Context& ctx) {
  if (auto st = ctx.resolve(); !st) fail(st.message());
  std::string spec_text = a.spec.empty() ? model_spec_for_role(ctx.config, a.role) : a.spec;
  auto spec = parse_model_spec(spec_text);
  if (!spec) fail(spec.message());
  auto prompt = read_prompt(a.prompt_file);
  if (!prompt) fail(prompt.message());
  Request req = default_request(ctx.config);
  req.messages = {{"user", *prompt}};
  if (!a.system_file.empty()) {
    auto sys = read_file(a.system_file);
    if (!sys) fail(sys.message());
    req.system = *sys;
  }
  if (a.max_tokens > 0) req.max_output_tokens = a.max_tokens;
  if (a.stream)
    req.on_text = [](std::string_view t) { std::fwrite(t.data(), 1, t.size(), stdout), std::fflush(stdout); };

  BackendOptions bopt = backend_options(ctx.config);
  bopt.wait = a.wait;
  auto model = make_model(*spec, bopt);
  if (!model) fail(model.message());
  auto copt = client_options(ctx.config, a.role, spec->model.empty() ? spec->target : spec->model);
  if (!copt) fail(copt.message());
  copt->run_id = "cli";
  std::optional<Ledger> ledger;
  if (!a.ledger.empty()) {
    auto l = Ledger::open(a.ledger);
    if (!l) fail(l.message());
    ledger = std::move(l).value();
  }
  std::optional<TranscriptWriter> transcript;
  if (!a.transcript.empty()) transcript.emplace(a.transcript);
  Budget budget(run_limits(ctx.config), task_limits(ctx.config));
  Client client(std::shared_ptr<Model>(std::move(model).value()), *copt, ledger ? &*ledger : nullptr, &budget,
                transcript ? &*transcript : nullptr);

  auto r = client.complete(req);
  if (!r) fail(r.message());
  if (r->status == ResponseStatus::waiting)
    fail("waiting for an answer: write it to " + r->waiting_on + " and run this again", kExitWaiting);
  if (r->status == ResponseStatus::budget_exhausted) fail("budget exhausted: " + r->detail, kExitNegative);
  double cost = copt->price ? cost_usd(*copt->price, r->usage) : 0;
  if (ctx.json) {
    auto j = response_to_json(*r);
    j["cost_usd"] = cost;
    j["spec"] = spec->text;
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  if (!a.stream) std::fwrite(r->text.data(), 1, r->text.size(), stdout);
  if (r->text.empty() || r->text.back() != '\n') std::fputc('\n', stdout);
  std::fflush(stdout);
  print_usage_line(*r, spec->text, cost);
  if (r->truncated()) std::fprintf(stderr, "note: the answer is truncated (output-token limit)\n");
}

}  // namespace

void define_llm(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<LlmArgs>();
  sub.add_option("spec", a->spec,
                 "model spec, e.g. openai:gpt-5, anthropic:claude-sonnet-4-5, command:CMD, "
                 "file:DIR, replay:FILE (default: llm.<role>_model, then llm.model)");
  sub.add_option("--prompt", a->prompt_file, "read the prompt from FILE (default: stdin)");
  sub.add_option("--system", a->system_file, "read a system prompt from FILE");
  sub.add_option("--role", a->role, "generator, repairer or optimizer: picks the model, recorded in the ledger");
  sub.add_option("--max-tokens", a->max_tokens, "output-token limit (default: llm.max_output_tokens)");
  sub.add_option("--ledger", a->ledger, "record the call in this SQLite database (table llm_calls)");
  sub.add_option("--transcript", a->transcript, "append the exchange to this JSONL transcript (for replay:)");
  sub.add_flag("--stream", a->stream, "print the answer as it arrives");
  sub.add_flag("--wait", a->wait, "file backend: poll for the answer file instead of exiting with code 6");
  sub.callback([&ctx, a]() { run_llm(*a, ctx); });
}

}  // namespace cutegen
