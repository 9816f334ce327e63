// The one call the benchmark library exposes, as a plain C struct (bench_gemm.py mirrors it with
// ctypes; keep the two in the same field order).
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct GemmCall {
  int32_t m, n, k, batch;
  int32_t a_col_major, b_col_major;  // 0: row-major. C is always row-major.
  const void* a;
  int64_t lda, batch_stride_a;  // BLAS-style leading dimensions, in elements
  const void* b;
  int64_t ldb, batch_stride_b;
  void* c;
  int64_t ldc, batch_stride_c;
  const float* bias;  // N floats, for the bias_relu epilogue
  int32_t swizzle;    // rasterization strip width, in cluster tiles
  int32_t splits;     // split-K ranges per tile; 0 lets the runner choose (suggest_splits)
  void* workspace;    // at least gemm_workspace_bytes(...) bytes
  uint64_t workspace_bytes;
  void* stream;  // cudaStream_t
};

int gemm_variant_count(void);
const char* gemm_variant_name(int index);
// Scratch the variant needs for this call (padded or K-major copies of operands, the old 3xTF32
// split operands, split-K partials); 0 if none. Negative if the variant does not exist.
int64_t gemm_workspace_bytes(const char* variant, const struct GemmCall* call);
// Runs the GEMM on call->stream; returns a cudaError_t (0 = launched), or -1 for an unknown variant,
// -2 for operand layouts the variant was not built for, -3 for a workspace too small.
int gemm_run(const char* variant, const struct GemmCall* call);
const char* gemm_error_string(int code);

#ifdef __cplusplus
}
#endif
