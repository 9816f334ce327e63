// `cutegen expert TASK`: what the built-in CuTe expert makes of a task — the recognized recipe
// and its parameter space — and, with --emit, the generated kernel at one parameter point
// (stdout) or at several (--out-dir, one .cu per point) for `cutegen eval`.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/decline.h"
#include "cli/eval_setup.h"
#include "eval/verdict.h"
#include "expert/conv_precision.h"
#include "expert/params.h"
#include "expert/recognize.h"
#include "expert/templates.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"

namespace cutegen {
namespace {

struct ExpertArgs {
  std::string file;
  std::string params;
  std::string out_dir;
  std::string precision;
  int count = 0;
  bool emit = false;
  bool space = false;
};

void write_points(const Recipe& r, const TaskSpec& spec, const std::vector<Params>& points, const ArchLimits& hw,
                  const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (size_t i = 0; i < points.size(); ++i) {
    auto src = generate_kernel(r, spec, points[i], hw);
    if (!src) fail(src.message(), kExitNegative);
    std::string path = dir + "/" + spec.name + "_" + std::to_string(i) + ".cu";
    if (auto st = write_file_atomic(path, *src); !st) fail(st.message());
    std::printf("%s  %s\n", path.c_str(), to_string(points[i]).c_str());
  }
}

}  // namespace

void define_expert(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<ExpertArgs>();
  sub.add_option("file", args->file, "a KernelBench-style task file")->required();
  sub.add_option("--params", args->params,
                 "a parameter point over the default, e.g. strategy=norm_split,threads=512,group=8");
  sub.add_flag("--emit", args->emit, "print the generated .cu for --params (default point) to stdout");
  sub.add_flag("--space", args->space, "list every point of the template's parameter space");
  sub.add_option("--out-dir", args->out_dir, "write kernels for the first --count points of the space here");
  sub.add_option("--count", args->count, "how many points --out-dir writes (0: all)");
  sub.add_option("--precision", args->precision,
                 "EAGER_ERR,TF32_ERR: eager's error and TF32 operands' against float64, as a baseline measured "
                 "them (bench/precision_column.py); the default point takes the precision they admit");
  sub.callback([&ctx, args]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto python = python_executable(ctx.config.str("eval.python"));
    auto spec = load_task_spec(args->file, python, 0, std::chrono::seconds(ctx.config.integer("task.timeout_s")),
                               ctx.spec_cache_dir());
    if (!spec) fail(spec.message());
    auto recipe = recognize(*spec);
    if (!recipe) fail(decline_message(recipe.message(), ctx.verbose), kExitNegative);  // the answer is no
    auto target = ctx.target();  // the configured build.arch, else this machine's GPU, else sm_90a
    if (!target) fail(target.message());
    ArchLimits hw = target->limits();
    Params base = default_params(*recipe, hw);
    if (!args->precision.empty()) {
      auto tolerance = configured_tolerance(ctx.config);
      if (!tolerance) fail(tolerance.message());
      double eager = 0, tf32 = 0;
      if (std::sscanf(args->precision.c_str(), "%lf,%lf", &eager, &tf32) != 2 || eager < 0 || tf32 <= 0)
        fail("--precision takes EAGER_ERR,TF32_ERR (two errors against float64, e.g. 8.9e-6,9e-6), got '" +
             args->precision + "'");
      base = conv_precision_point(*recipe, base, {tf32, accuracy_limit(*tolerance, eager)}, hw);
    }
    auto params = parse_params(args->params, base);
    if (!params) fail(params.message(), kExitInput);
    // A point given by hand is checked as the search checks its own (parameters that conflict with each
    // other or with the recipe; parse_params refused those its strategy does not read).
    if (!args->params.empty())
      if (auto why = invalid_reason(*recipe, *params, hw); !why.empty())
        fail("params " + to_string(*params) + ": " + why, kExitInput);
    if (args->emit) {
      auto src = generate_kernel(*recipe, *spec, *params, hw);
      if (!src) fail(src.message(), kExitNegative);
      std::printf("%s", src->c_str());
      return;
    }
    auto space = search_space(*recipe, hw);  // thousands of points checked: seconds for a GEMM
    if (!args->out_dir.empty()) {
      if (args->count > 0 && args->count < static_cast<int>(space.size())) space.resize(args->count);
      write_points(*recipe, *spec, space, hw, args->out_dir);
      return;
    }
    if (ctx.json) {
      nlohmann::json points = nlohmann::json::array();
      for (auto& p : space)
        points.push_back(to_string(p));
      nlohmann::json seeds = nlohmann::json::array();
      for (auto& p : strategy_seeds(*recipe))
        seeds.push_back(to_string(p));
      nlohmann::json j = {{"template", to_string(recipe->kind)},
                          {"summary", recipe->summary},
                          {"default", to_string(*params)},
                          {"strategies", seeds},
                          {"space", points}};
      std::printf("%s\n", j.dump(2).c_str());
      return;
    }
    std::printf("template: %s\n%s\ndefault point: %s\nspace: %zu points\n", to_string(recipe->kind),
                recipe->summary.c_str(), to_string(*params).c_str(), space.size());
    for (auto& p : strategy_seeds(*recipe))
      std::printf("strategy point: %s\n", to_string(p).c_str());
    if (args->space)
      for (auto& p : space)
        std::printf("  %s\n", to_string(p).c_str());
  });
}

}  // namespace cutegen
