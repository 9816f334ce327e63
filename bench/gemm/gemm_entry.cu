// The benchmark library's C entry points (gemm_call.h) over the variant table.
#include <cstring>

#include <cuda_runtime.h>

#include "gemm_call.h"
#include "variant_registry.cuh"

namespace {

cutegen::gemm::bench::Variant const* find_variant(char const* name) {
  for (auto const& v : cutegen::gemm::bench::variants())
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace

extern "C" {

int gemm_variant_count(void) { return int(cutegen::gemm::bench::variants().size()); }

const char* gemm_variant_name(int index) {
  auto const& table = cutegen::gemm::bench::variants();
  return index >= 0 && index < int(table.size()) ? table[size_t(index)].name.c_str() : nullptr;
}

int64_t gemm_workspace_bytes(const char* variant, const GemmCall* call) {
  auto const* v = find_variant(variant);
  return v ? v->workspace_bytes(*call) : -1;
}

int gemm_run(const char* variant, const GemmCall* call) {
  auto const* v = find_variant(variant);
  return v ? v->run(*call) : -1;
}

const char* gemm_error_string(int code) {
  switch (code) {
    case -1: return "unknown variant";
    case -2: return "operand layouts differ from the variant's";
    case -3: return "workspace too small";
    default: return cudaGetErrorString(cudaError_t(code));
  }
}

}  // extern "C"
