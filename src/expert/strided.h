// How a value that the graph makes by views alone (t, transpose, permute, view, expand, unsqueeze,
// ...) reads a forward input or parameter: per dim, (size, stride) modes over the base's storage.
// A dim that a reshape merged from dims whose strides do not continue each other keeps several
// modes (a broadcast batch [2, 3] with strides [0, 1536] read as one batch of 6).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "expert/graph.h"
#include "task/task_spec.h"

namespace cutegen {

struct Mode {
  int64_t size = 1, stride = 0;
};
using Modes = std::vector<Mode>;  // outermost first, row-major like torch's dims

struct StridedRead {
  const TaskArg* base = nullptr;  // the input or parameter read
  std::vector<int64_t> shape;     // the value's shape
  std::vector<Modes> dims;        // one per shape dim; sizes multiply to shape[d]
  int64_t offset = 0;             // in elements, from the base's first element

  // The one stride of dim d (0 for a size-1 dim); an error when its modes do not merge.
  Result<int64_t> stride(size_t d) const;
  // All strides, or an error naming the first dim that is not one stride.
  Result<std::vector<int64_t>> strides() const;
};

bool is_view_op(const std::string& op);
// Follows views (and copies that a reshape then views) from `ref` back to an input or parameter.
Result<StridedRead> strided_read(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref);

// Drops size-1 modes and merges neighbours where the outer continues the inner.
Modes merged(const Modes& modes);
// Regroups modes (flattened, outermost first) into dims of `sizes`, splitting a mode where a dim
// boundary falls inside it; errors when a boundary does not divide a mode.
Result<std::vector<Modes>> regroup(const Modes& modes, const std::vector<int64_t>& sizes);
// The sizes that refine both lists (same product): [6] and [2, 3] give [2, 3]; errors when the
// boundaries interleave ([2, 3] and [3, 2]).
Result<std::vector<int64_t>> common_sizes(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
// The number of elements of `shape` (1 for a scalar's empty shape).
int64_t product(const std::vector<int64_t>& shape);
// Strides of `shape` when contiguous (row-major).
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape);
// Whether (shape, strides) lays the elements out contiguously, ignoring size-1 dims.
bool is_dense_row_major(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides);

}  // namespace cutegen
