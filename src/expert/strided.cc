#include "expert/strided.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "core/strings.h"
#include "expert/recognize_parts.h"

namespace cutegen {
namespace {

// Views whose result shares the source's storage: the bridge's recorded strides address it.
const std::set<std::string>& view_ops() {
  static const std::set<std::string> ops = {
      "aten.t.default",         "aten.transpose.int",        "aten.permute.default",
      "aten.view.default",      "aten._unsafe_view.default", "aten.reshape.default",
      "aten.unsqueeze.default", "aten.squeeze.dim",          "aten.squeeze.default",
      "aten.squeeze.dims",      "aten.expand.default",       "aten.alias.default",
      "aten.detach.default",    "aten.slice.Tensor",         "aten.select.int",
      "aten.narrow.default",    "aten.as_strided.default",   "aten.numpy_T.default",
      "aten.mT.default",
  };
  return ops;
}
// Among them, those that only regroup the elements in order (a reshape), the ones a copy allows.
bool is_reshape(const std::string& op) {
  return op == "aten.view.default" || op == "aten._unsafe_view.default" || op == "aten.reshape.default" ||
         op == "aten.unsqueeze.default" || op == "aten.squeeze.dim" || op == "aten.squeeze.default" ||
         op == "aten.squeeze.dims" || op == "aten.alias.default" || op == "aten.detach.default";
}

Modes flatten(const std::vector<Modes>& dims) {
  Modes all;
  for (auto& d : dims)
    all.insert(all.end(), d.begin(), d.end());
  return all;
}

StridedRead from_strides(const TaskArg* base, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                         int64_t offset) {
  StridedRead r{.base = base, .shape = shape, .offset = offset};
  for (size_t d = 0; d < shape.size(); ++d)
    r.dims.push_back(Modes{{shape[d], strides[d]}});
  return r;
}

// The read and whether the value's own storage is the base's (`direct`: its recorded strides
// address the base), or a copy laid out contiguously.
struct Read {
  StridedRead read;
  bool direct = true;
};

Result<Read> follow(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref, int depth) {
  if (depth > 64) return error("the view chain is too long");
  if (ref.kind == GraphArg::kInput || ref.kind == GraphArg::kParam) {
    auto* arg = CUTEGEN_TRY(referenced_arg(spec, ref));
    if (!arg->is_tensor()) return error(arg->name + " is not a tensor");
    return Read{from_strides(arg, arg->shape, arg->strides, 0), true};
  }
  if (ref.kind != GraphArg::kOp || ref.op < 0 || ref.op >= static_cast<int>(g.nodes.size()))
    return error("an operand is not a tensor the graph names");
  const GraphNode& node = g.nodes[ref.op];
  const GraphValue* value = g.value(ref);
  bool copy = node.op == "aten.clone.default";
  if (!copy && !view_ops().count(node.op)) return error(node.op + " computes it (not a view of an input or parameter)");
  if (!value) return error("the graph does not record what " + node.op + " made; re-describe the task");
  if (node.args.empty()) return error(node.op + " has no source");
  Read src = CUTEGEN_TRY(follow(spec, g, node.args[0], depth + 1));
  if (copy) {
    if (!is_dense_row_major(value->shape, value->strides)) return error("a clone that keeps a strided layout");
    src.direct = false;
    return src;
  }
  if (src.direct) return Read{from_strides(src.read.base, value->shape, value->strides, value->offset), true};
  // A view of a copy: only a reshape of its (contiguous) elements can be read through the copy.
  if (!is_reshape(node.op) || value->offset != 0 || !is_dense_row_major(value->shape, value->strides))
    return error(node.op + " of a copied operand (only reshapes of a copy can be folded)");
  auto dims = CUTEGEN_TRY(regroup(flatten(src.read.dims), value->shape));
  StridedRead r{.base = src.read.base, .shape = value->shape, .dims = std::move(dims), .offset = src.read.offset};
  return Read{r, false};
}

}  // namespace

bool is_view_op(const std::string& op) { return view_ops().count(op) > 0; }

Result<int64_t> StridedRead::stride(size_t d) const {
  Modes m = merged(dims.at(d));
  if (m.empty()) return int64_t{0};
  if (m.size() == 1) return m[0].stride;
  return error("dim " + std::to_string(d) + " of the read of " + base->name + " is not one stride");
}

Result<std::vector<int64_t>> StridedRead::strides() const {
  std::vector<int64_t> s;
  for (size_t d = 0; d < dims.size(); ++d)
    s.push_back(CUTEGEN_TRY(stride(d)));
  return s;
}

Result<StridedRead> strided_read(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref) {
  auto r = CUTEGEN_TRY(follow(spec, g, ref, 0));
  return r.read;
}

Modes merged(const Modes& modes) {
  Modes out;
  for (auto& m : modes) {
    if (m.size == 1) continue;
    if (!out.empty() && out.back().stride == m.size * m.stride) {
      out.back() = Mode{out.back().size * m.size, m.stride};
      continue;
    }
    out.push_back(m);
  }
  return out;
}

Result<std::vector<Modes>> regroup(const Modes& modes, const std::vector<int64_t>& sizes) {
  Modes rest = merged(modes);
  std::reverse(rest.begin(), rest.end());  // take from the back: the outermost mode
  std::vector<Modes> dims;
  for (int64_t n : sizes) {
    Modes dim;
    int64_t have = 1;
    while (have < n) {
      if (rest.empty() || n % have != 0)
        return error("a reshape to " + dims_text(sizes) + " does not follow the modes");
      Mode m = rest.back();
      int64_t need = n / have;
      if (m.size <= need) {
        if (need % m.size != 0) return error("a reshape to " + dims_text(sizes) + " splits a mode unevenly");
        dim.push_back(m);
        have *= m.size;
        rest.pop_back();
      } else {
        if (m.size % need != 0) return error("a reshape to " + dims_text(sizes) + " splits a mode unevenly");
        dim.push_back(Mode{need, m.stride * (m.size / need)});
        rest.back() = Mode{m.size / need, m.stride};
        have = n;
      }
    }
    dims.push_back(dim);
  }
  if (!rest.empty()) return error("a reshape to " + dims_text(sizes) + " leaves elements over");
  return dims;
}

Result<std::vector<int64_t>> common_sizes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  // Boundaries as products from the outside in; each must divide the next.
  std::set<int64_t> cuts;
  for (auto* list : {&a, &b}) {
    int64_t p = 1;
    for (int64_t s : *list)
      cuts.insert(p *= s);
  }
  std::vector<int64_t> sizes;
  int64_t prev = 1;
  for (int64_t c : cuts) {
    if (c == 1) continue;
    if (c % prev != 0) return error("batch dims " + dims_text(a) + " and " + dims_text(b) + " interleave");
    sizes.push_back(c / prev);
    prev = c;
  }
  return sizes;
}

int64_t product(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t expect = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    s[d] = expect;
    expect *= shape[d];
  }
  return s;
}

bool is_dense_row_major(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  auto expect = contiguous_strides(shape);
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1 && strides[d] != expect[d]) return false;
  return true;
}

}  // namespace cutegen
