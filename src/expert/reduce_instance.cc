// Reductions over [outer, extent, inner]: the instance (kernels/instances/reduce.cu.in) names the
// reduction's struct of hooks (kernels/reduce/ops.cuh) and launches the strategy's kernel.
#include "expert/kernel_library.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

const char* op_struct(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return "Sum";
    case ReduceOp::kMean: return "Mean";
    case ReduceOp::kMax: return "Max";
    case ReduceOp::kMin: return "Min";
    case ReduceOp::kArgMax: return "ArgMax";
    case ReduceOp::kArgMin: return "ArgMin";
  }
  return "Sum";
}

}  // namespace

Result<std::string> reduce_instance(const Recipe& r, const TaskSpec& spec, const Params& p) {
  auto n = [](int64_t v) { return std::to_string(v); };
  const bool rows = p.strategy == Strategy::kReduceRows;
  const std::string constants =
      rows ? n(p.threads) + ", " + n(p.vec) + ", " + n(p.unroll) + ", " + n(r.rows.outer) + ", " + n(r.rows.extent)
           : n(p.threads) + ", " + n(p.split) + ", " + n(p.unroll) + ", " + n(r.rows.outer) + ", " + n(r.rows.extent) +
                 ", " + n(r.rows.inner);
  return render_instance("instances/reduce.cu.in", {{"title", kernel_title(r, p)},
                                                    {"header", strategy_def(p.strategy).header},
                                                    {"signature", entry_signature(spec)},
                                                    {"launch", rows ? "launch_reduce_rows" : "launch_reduce_columns"},
                                                    {"op", op_struct(r.reduce)},
                                                    {"constants", constants},
                                                    {"in_name", r.in_name},
                                                    {"out_name", r.out_name}});
}

}  // namespace cutegen
