#include "agent/llm_proposer.h"

#include <cstdio>

#include "agent/edits.h"
#include "agent/workload.h"
#include "eval/evaluator.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "task/abi.h"

namespace cutegen {
namespace {

constexpr const char* kUnmeasured = "unknown (no GPU measurement cached)";

std::string ms(double v) {
  if (v <= 0) return kUnmeasured;
  char b[64];
  std::snprintf(b, sizeof b, "%.4f ms", v);
  return b;
}

std::string shapes(const TaskSpec& t) {
  std::string out;
  auto add = [&](const char* what, const std::vector<TaskArg>& args) {
    for (auto& a : args)
      out += std::string("- ") + what + " `" + a.name + "`: " +
             (a.is_tensor() ? std::string(dtype_info(a.dtype).name) + " " + dims_text(a.shape)
                            : a.ctype + " = " + a.value) +
             "\n";
  };
  add("input", t.inputs), add("parameter", t.params), add("output", t.outputs);
  return out;
}

// The model's Python numbers as the ABI names them: "- `cutegen_abi::multiplier` = 2.0 (double; constructor argument
// multiplier)".
std::string numbers(const TaskSpec& t) {
  std::vector<std::string> lines;
  for (auto& c : abi_constants(t))
    if (!c.is_size())
      lines.push_back("- `cutegen_abi::" + c.c_name + "` = " + c.value + " (" + c.c_type + "; " + c.origin + ")");
  return lines.empty() ? "(none)" : join(lines, "\n");
}

std::string number(const char* format, double v) {
  char b[32];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

// What tensor-core math means for the accuracy rule, by the dtype whose math bounds the task.
struct TensorCoreNote {
  const char* dtype;
  const char* text;
};
constexpr TensorCoreNote kTensorCoreNotes[] = {
    {"float32",
     "Tensor cores on a float32 task: eager's float32 matmuls run in full float32 (PyTorch leaves TF32 off for "
     "them), and its convolutions in cuDNN, which takes TF32 for many shapes but not all; plain TF32 MMA (10-bit "
     "mantissa, errors around 1e-4 to 1e-3) passes the accuracy rule only where the TF32 measurement above is "
     "within the limit. Otherwise use float32 FMA, or 3xTF32 (each operand split into a TF32 high part and a "
     "TF32 remainder, three MMAs: hi*hi + hi*lo + lo*hi, float32 accumulators), which keeps float32 accuracy."},
    {"float16",
     "Tensor cores on a float16 task: use float16 MMA with float32 accumulators, as eager does, and round "
     "once when storing; accumulating in float16 fails the accuracy rule."},
    {"bfloat16",
     "Tensor cores on a bfloat16 task: use bfloat16 MMA with float32 accumulators, as eager does, and round "
     "once when storing; accumulating in bfloat16 fails the accuracy rule."},
    {"float64",
     "Tensor cores on a float64 task: only float64 MMA (DMMA) keeps eager's accuracy; never round to float32."},
};

std::string tensor_core_note(const std::string& dtype) {
  for (auto& n : kTensorCoreNotes)
    if (dtype == n.dtype) return n.text;
  return kTensorCoreNotes[0].text;  // math_dtype falls back to float32 too
}

// What TF32 operands measured against the rule's limit (expert/conv_precision.h's test, stated for a model).
std::string tf32_note(const Baseline& b) {
  if (b.tf32_rel_err <= 0) return std::string(kUnmeasured);
  std::string err = number("%.2e", b.tf32_rel_err);
  if (b.accuracy_limit <= 0) return err;
  return err + (b.tf32_rel_err <= b.accuracy_limit
                    ? ", within the limit: plain TF32 MMA may pass"
                    : ", over the limit: plain TF32 MMA will fail; keep float32 accuracy");
}

std::string reference(const TaskSpec& t) {
  auto text = read_file(t.path);
  return text ? *text : "(reference source not readable: " + t.path + ")";
}

// Which values each template takes: a table, so a template and its data are checked together.
struct TemplateVars {
  const char* prefix;  // template name or its prefix ("optimize_")
  std::vector<const char*> vars;
};

const std::vector<TemplateVars>& template_vars() {
  static const std::vector<TemplateVars> table = {
      {"generate",
       {"task", "reference", "abi_header", "numbers", "shapes", "ops", "workload", "precision", "eager", "floor",
        "step"}},
      {"repair_compile", {"task", "abi_header", "numbers", "source", "diagnostics", "memory", "step"}},
      {"repair_wrong",
       {"task", "reference", "abi_header", "numbers", "precision", "source", "report", "memory", "step"}},
      {"optimize_",
       {"task", "reference", "abi_header", "numbers", "shapes", "precision", "source", "best", "statics", "memory",
        "profile", "eager", "floor", "step"}},
      {"tune", {"task", "abi_header", "numbers", "source", "best", "statics", "memory", "profile", "step"}},
  };
  return table;
}

}  // namespace

std::string template_for(const StepContext& ctx) {
  switch (ctx.stage) {
    case Stage::kGenerate: return "generate";
    case Stage::kRepairCompile: return "repair_compile";
    case Stage::kRepairWrong: return "repair_wrong";
    case Stage::kOptimize: return optimize_template(ctx.workload);
    case Stage::kTune: return "tune";
  }
  return "generate";
}

std::string knowledge_arch(const std::string& build_arch) { return build_arch.starts_with("sm_8") ? "sm80" : "sm90"; }

Result<PromptVars> LlmProposer::prompt_vars(const StepContext& ctx, const std::string& name) const {
  const TaskSpec& t = *ctx.task;
  const Tolerance& tol = opt_.tolerance;
  double eager_err = ctx.baseline.eager_rel_err;
  std::string dtype = math_dtype(t);
  std::string precision = CUTEGEN_TRY(prompts_.render(
      "precision", {{"dtype", dtype},
                    {"atol", number("%g", tol.atol)},
                    {"rtol", number("%g", tol.rtol)},
                    {"factor", number("%g", tol.accuracy_factor)},
                    {"eager_error", eager_err > 0 ? number("%.2e", eager_err) + ", so the limit is " +
                                                        number("%.2e", tol.accuracy_factor * std::max(eager_err, 1e-6))
                                                  : std::string(kUnmeasured)},
                    {"tf32_error", tf32_note(ctx.baseline)},
                    {"tensor_cores", tensor_core_note(dtype)}}));
  std::string floor = ctx.baseline.floor_ms <= 0 ? kUnmeasured
                      : ctx.baseline.bound
                          ? ms(ctx.baseline.floor_ms) + " (" + cutegen::name(*ctx.baseline.bound) + "-bound)"
                          : ms(ctx.baseline.floor_ms);
  PromptVars all = {
      {"task", t.name},
      {"reference", reference(t)},
      {"abi_header", abi_header(t)},
      {"numbers", numbers(t)},
      {"precision", precision},
      {"shapes", shapes(t)},
      {"ops", t.ops.empty() ? "(none recorded)" : join(t.ops, ", ")},
      {"workload", cutegen::name(ctx.workload)},
      {"eager", ms(ctx.baseline.eager_ms)},
      {"floor", floor},
      {"step", "step " + std::to_string(ctx.step + 1) + " of at most " + std::to_string(ctx.max_steps)},
      {"source", ctx.base_source},
      {"diagnostics", ctx.failure},
      {"report", ctx.failure},
      {"best", ctx.best.empty() ? "no verified kernel yet" : ctx.best},
      {"statics", ctx.statics.empty() ? "(none)" : ctx.statics},
      {"memory", ctx.memory.empty() ? "(nothing tried yet)" : ctx.memory},
      {"profile",
       ctx.profile.text.empty() ? "" : "## Runtime profile of the current best kernel\n\n" + ctx.profile.text + "\n"},
  };
  PromptVars out;
  for (auto& row : template_vars())
    if (name == row.prefix || (std::string(row.prefix).ends_with("_") && name.starts_with(row.prefix)))
      for (auto v : row.vars)
        out[v] = all[v];
  return out;
}

Client* LlmProposer::client_for(Stage s) const {
  if (s == Stage::kGenerate) return roles_.generator;
  if (s == Stage::kRepairCompile || s == Stage::kRepairWrong) return roles_.repairer;
  return roles_.optimizer;
}

Result<Request> LlmProposer::request_for(const StepContext& ctx) const {
  std::string name = template_for(ctx);
  Request req = opt_.defaults;
  req.on_text = nullptr;
  std::string knowledge =
      CUTEGEN_TRY(prompts_.raw("knowledge/cute")) + "\n" + CUTEGEN_TRY(prompts_.raw("knowledge/" + opt_.arch));
  req.system = CUTEGEN_TRY(prompts_.render("system", {{"knowledge", knowledge}, {"arch", opt_.arch}}));
  req.messages = {{"user", CUTEGEN_TRY(prompts_.render(name, CUTEGEN_TRY(prompt_vars(ctx, name))))}};
  return req;
}

Result<Proposal> LlmProposer::propose(const StepContext& ctx) {
  Request req = CUTEGEN_TRY(request_for(ctx));
  Client* client = client_for(ctx.stage);
  if (!client) return error("no model for the " + std::string(name(ctx.stage)) + " stage");
  Proposal p;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto r = client->complete(req);
    if (!r)
      return Proposal{.status = Proposal::Status::kFailed, .detail = "model error: " + r.message(), .tokens = p.tokens};
    p.tokens += r->usage.input + r->usage.output;
    if (r->status == ResponseStatus::waiting)
      return Proposal{.status = Proposal::Status::kWaiting, .detail = r->waiting_on, .tokens = p.tokens};
    if (r->status == ResponseStatus::budget_exhausted)
      return Proposal{.status = Proposal::Status::kBudget, .detail = r->detail, .tokens = p.tokens};
    std::string reason;
    if (r->truncated()) {
      reason =
          "your answer was cut off by the output-token limit; answer again, shorter (edit blocks only where possible)";
    } else if (auto applied = resolve_answer(ctx.base_source, r->text); !applied) {
      reason = applied.message();
    } else if (auto rules = check_source_rules(applied->source); !rules) {
      reason = rules.message();
    } else {
      p.status = Proposal::Status::kSource;
      p.source = applied->source;
      p.edit_how = applied->how;
      p.edit = applied->how == EditHow::kWholeFile ? "" : r->text;
      return p;
    }
    p.detail = reason;
    req.messages.push_back({"assistant", r->text});
    req.messages.push_back({"user", CUTEGEN_TRY(prompts_.render("reask", {{"reason", reason}}))});
  }
  p.status = Proposal::Status::kFailed;
  p.detail = "after one re-ask: " + p.detail;
  return p;
}

}  // namespace cutegen
