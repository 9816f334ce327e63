// The element types a task may use: torch's short name, the C type a kernel sees, the size.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace cutegen {

enum class DType { kFloat32, kFloat16, kBFloat16, kFloat64, kInt64, kInt32, kInt8, kUInt8, kBool };

struct DTypeInfo {
  DType dtype;
  const char* name;    // torch's short name: "float32", "bfloat16", ...
  const char* c_type;  // "float", "__nv_bfloat16", ...
  int bytes;
};

// One row per DType, in enum order.
const std::vector<DTypeInfo>& dtype_table();
const DTypeInfo& dtype_info(DType d);
// Errors name the unknown dtype and list the known ones.
Result<DType> parse_dtype(std::string_view name);

}  // namespace cutegen
