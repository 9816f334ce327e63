// Elementwise kernels (kernels/elementwise/tiles.cuh): the instance (kernels/instances/
// elementwise.cu.in) declares the kernel with the task's operands and scalars, the fused expression
// in fp32 (fast intrinsics when the output is 16-bit), and each operand's view: tiled where it is
// dense or each output tile falls in one contiguous run of it, else gathered through a CuTe layout
// over the output's dims (stride 0 on broadcast dims).
#include <optional>
#include <set>
#include <utility>

#include "core/strings.h"
#include "expert/kernel_library.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

std::string static_int(int64_t v) {
  return v < (int64_t(1) << 31) ? "Int<" + std::to_string(v) + ">{}" : "int64_t(" + std::to_string(v) + ")";
}

// CuTe is column-major: the output's row-major dims are listed last-first. `nested` makes it one
// mode over the flat index n, ((dims...)):((strides...)), which local_tile can cut into tiles.
std::string operand_layout(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                           bool nested = false) {
  std::vector<std::string> s, d;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s.push_back(static_int(shape[i]));
    d.push_back(static_int(strides[i]));
  }
  if (s.empty()) s = {"Int<1>{}"}, d = {"Int<0>{}"};
  std::string shp = "make_shape(" + join(s, ", ") + ")", str = "make_stride(" + join(d, ", ") + ")";
  if (nested) shp = "make_shape(" + shp + ")", str = "make_stride(" + str + ")";
  return "make_layout(" + shp + ", " + str + ")";
}

// A broadcast operand can be read with the dense operands' tiled copy when every output tile lies in
// one contiguous run of it: its innermost output dims, merged while its strides are contiguous, span a
// multiple of `tile` elements, and every other stride keeps a tile's start aligned to `vec` elements.
// Returns the dims with that run merged into the innermost one, or nothing.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> tileable_broadcast(
    const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t tile, int64_t vec) {
  int i = static_cast<int>(shape.size()) - 1;
  int64_t run = 1;
  for (; i >= 0 && (shape[i] == 1 || strides[i] == run); --i)
    run *= shape[i];
  if (run % tile != 0) return std::nullopt;
  std::vector<int64_t> s(shape.begin(), shape.begin() + i + 1), d(strides.begin(), strides.begin() + i + 1);
  for (int64_t stride : d)
    if (stride % vec != 0) return std::nullopt;
  s.push_back(run);
  d.push_back(1);
  return std::make_pair(s, d);
}

}  // namespace

Result<std::string> elementwise_instance(const Recipe& r, const TaskSpec& spec, const Params& p) {
  std::vector<std::string> kernel_params, call_args, operands, checks, leaves, members;
  checks.push_back("cg_expert::aligned_to(" + r.out_name + ", 16)");
  const int64_t tile = int64_t(p.threads) * p.vec * p.unroll;
  for (size_t k = 0; k < r.operands.size(); ++k) {
    auto& o = r.operands[k];
    std::string K = std::to_string(k), ptr = "make_gmem_ptr(in" + K + ")";
    kernel_params.push_back(o.c_type + " const* __restrict__ in" + K);
    call_args.push_back(o.c_name);
    leaves.push_back("v[" + K + "]");
    auto runs = o.dense ? std::nullopt : tileable_broadcast(r.out_shape, o.strides, tile, p.vec);
    if (o.dense)
      operands.push_back("      cg_elementwise::tiled(make_tensor(" + ptr + ", make_shape(n)))");
    else if (runs)  // (n), contiguous runs of whole tiles
      operands.push_back("      cg_elementwise::tiled(make_tensor(" + ptr + ", " +
                         operand_layout(runs->first, runs->second, true) + "))");
    else  // output dims, broadcast strides
      operands.push_back("      cg_elementwise::gathered(make_tensor(" + ptr + ", " +
                         operand_layout(r.out_shape, o.strides) + "))");
    if (o.dense || runs) checks.push_back("cg_expert::aligned_to(" + o.c_name + ", 16)");
  }
  std::set<std::string> scalars = scalar_args(r.expr);
  for (auto& s : scalars) {
    kernel_params.push_back("double " + s);
    call_args.push_back(s);
    members.push_back("  double " + s + ";\n");
  }
  kernel_params.push_back(r.out_type + "* __restrict__ out_ptr");
  call_args.push_back(r.out_name);
  // A 16-bit output's rounding (bf16: 2^-8) hides the fast intrinsics' error; fp32 keeps accurate math.
  bool fast = r.out_type == "__half" || r.out_type == "__nv_bfloat16";
  return render_instance("instances/elementwise.cu.in",
                         {{"title", kernel_title(r, p)},
                          {"scalar_members", join(members, "")},
                          {"expr", to_cuda(r.expr, leaves, {.fast = fast})},
                          {"kernel_params", join(kernel_params, ", ")},
                          {"scalars", join(std::vector<std::string>(scalars.begin(), scalars.end()), ", ")},
                          {"operands", join(operands, ",\n")},
                          {"signature", entry_signature(spec)},
                          {"threads", std::to_string(p.threads)},
                          {"vec", std::to_string(p.vec)},
                          {"unroll", std::to_string(p.unroll)},
                          {"blocks_per_sm", std::to_string(p.blocks_per_sm)},
                          {"numel", std::to_string(r.out_numel)},
                          {"aligned_check", join(checks, " && ")},
                          {"call_args", join(call_args, ", ")}});
}

}  // namespace cutegen
