#include "task/dtype.h"

#include "core/strings.h"

namespace cutegen {

const std::vector<DTypeInfo>& dtype_table() {
  static const std::vector<DTypeInfo> table = {
      {DType::kFloat32, "float32", "float", 4},
      {DType::kFloat16, "float16", "__half", 2},
      {DType::kBFloat16, "bfloat16", "__nv_bfloat16", 2},
      {DType::kFloat64, "float64", "double", 8},
      {DType::kInt64, "int64", "int64_t", 8},
      {DType::kInt32, "int32", "int32_t", 4},
      {DType::kInt8, "int8", "int8_t", 1},
      {DType::kUInt8, "uint8", "uint8_t", 1},
      {DType::kBool, "bool", "bool", 1},
  };
  return table;
}

const DTypeInfo& dtype_info(DType d) { return dtype_table()[static_cast<size_t>(d)]; }

Result<DType> parse_dtype(std::string_view name) {
  std::vector<std::string> known;
  for (auto& row : dtype_table()) {
    if (name == row.name) return row.dtype;
    known.push_back(row.name);
  }
  return error("unknown dtype '" + std::string(name) + "' (known: " + join(known, ", ") + ")");
}

}  // namespace cutegen
