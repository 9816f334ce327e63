// Row normalizations: out = apply(x, finalize(statistic of the row)) over [outer, extent, inner]. The
// instance (kernels/instances/rownorm.cu.in) names the norm (norm_*.cu.in: the library's struct of
// hooks, with LayerNorm's constants or the scale's expressions), the strategy's header and its launch
// with the point's constants.
#include <cstdio>

#include "core/strings.h"
#include "expert/kernel_library.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

Result<std::string> norm_instance(const Recipe& r) {
  switch (r.norm) {
    case NormKind::kSoftmax: return render_instance("instances/norm_softmax.cu.in", {});
    case NormKind::kLogSoftmax: return render_instance("instances/norm_log_softmax.cu.in", {});
    case NormKind::kLayerNorm: {
      char eps[64];
      std::snprintf(eps, sizeof eps, "%.9g", r.eps);
      return render_instance("instances/norm_layer.cu.in", {{"has_weight", r.weight_name.empty() ? "false" : "true"},
                                                            {"has_bias", r.bias_name.empty() ? "false" : "true"},
                                                            {"eps", eps},
                                                            {"extent", std::to_string(r.rows.extent)}});
    }
    case NormKind::kScale:
      return render_instance("instances/norm_scale.cu.in",
                             {{"op", r.reduce == ReduceOp::kMax   ? "kMax"
                                     : r.reduce == ReduceOp::kMin ? "kMin"
                                                                  : "kSum"},
                              {"pre", to_cuda(r.pre, {"x"})},
                              // The columns kernel keeps IEEE division (norm-columns).
                              {"post", to_cuda(r.post, {"x", "st.a"}, {.ieee_div = r.rows.inner > 1})}});
  }
  return error("unknown normalization");
}

// The launch function of the strategy's header and its template arguments after Norm.
std::pair<std::string, std::vector<std::string>> launch_of(const Recipe& r, const Params& p) {
  auto n = [](int64_t v) { return std::to_string(v); };
  auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  const std::string rows = n(r.rows.outer), extent = n(r.rows.extent);
  switch (p.strategy) {
    case Strategy::kNormRegisters: return {"launch_norm_registers", {n(p.threads), n(p.vec), rows, extent}};
    case Strategy::kNormCluster:
    case Strategy::kNormHeldGrid:
      return {"launch_norm_held",
              {flag(p.strategy == Strategy::kNormCluster), n(p.threads), n(p.vec), n(p.unroll), n(p.group),
               n(p.blocks_per_sm), rows, extent}};
    case Strategy::kNormGridRegisters:
      return {"launch_norm_grid", {n(p.threads), n(p.vec), n(p.unroll), n(p.group), rows, extent}};
    case Strategy::kNormStreamed:
    case Strategy::kNormSplit:
    case Strategy::kNormSplitTicket:
      return {"launch_norm_streamed",
              {n(p.threads), n(p.vec), n(p.unroll), n(p.group), flag(p.strategy == Strategy::kNormSplitTicket), rows,
               extent}};
    default: return {"launch_norm_columns", {n(p.threads), rows, extent, n(r.rows.inner)}};
  }
}

}  // namespace

Result<std::string> rownorm_instance(const Recipe& r, const TaskSpec& spec, const Params& p) {
  auto [launch, constants] = launch_of(r, p);
  std::vector<std::string> arguments = {r.in_name, r.out_name};
  if (p.strategy != Strategy::kNormColumns) {
    arguments.push_back(r.weight_name.empty() ? "nullptr" : r.weight_name);
    arguments.push_back(r.bias_name.empty() ? "nullptr" : r.bias_name);
  }
  // Up to 8 CTAs (the portable size) the kernel names its cluster (kernels/rownorm/held.cuh).
  const bool names_cluster = p.strategy == Strategy::kNormCluster && p.group <= 8;
  return render_instance("instances/rownorm.cu.in",
                         {{"title", kernel_title(r, p)},
                          {"defines", names_cluster ? "#define CG_HELD_NAMES_CLUSTER 1\n" : ""},
                          {"header", strategy_def(p.strategy).header},
                          {"norm", CUTEGEN_TRY(norm_instance(r))},
                          {"signature", entry_signature(spec)},
                          {"launch", launch},
                          {"constants", join(constants, ", ")},
                          {"arguments", join(arguments, ", ")}});
}

}  // namespace cutegen
