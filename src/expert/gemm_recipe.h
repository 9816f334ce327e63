// What the recognizer found a GEMM-shaped task to be: C[batch..., M, N] = A[batch..., M, K] @
// B[batch..., K, N], the operands' layouts with the transposes and permutes of the reference
// folded in, and the pointwise ops after the product as one epilogue expression. No kernel reads
// it yet: `cutegen expert` reports it and declines to emit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "expert/expr.h"
#include "task/dtype.h"
#include "task/task_spec.h"

namespace cutegen {

// kMatVec: N == 1 or M == 1, memory-bound, its own template (a GEMM tile would waste the MMA).
enum class GemmClass { kGemm, kMatVec };
// kRowMajor: the matrix's columns are contiguous (A: K-major, "not transposed"; B: N-major).
// kColMajor: its rows are (A: M-major, transposed; B: K-major, as nn.Linear's weight reads).
enum class MatrixLayout { kRowMajor, kColMajor };
// fp32 inputs: 3xTF32 (each operand split into a TF32 high and low part, three products) keeps
// fp32-level accuracy; plain TF32 only where the task's tolerance admits it, which the caller
// that knows the tolerance decides. bf16/fp16 inputs use their own MMA (kNative).
enum class GemmMath { kNative, k3xTF32, kTF32 };
// torch.tril/triu of the product: out keeps (col - row <= diagonal) for kLower, >= for kUpper.
enum class Triangle { kNone, kLower, kUpper };

const char* to_string(GemmClass c);     // "gemm", "matvec"
const char* to_string(MatrixLayout l);  // "row-major", "col-major"
const char* to_string(GemmMath m);      // "native", "3xTF32", "TF32"
const char* to_string(Triangle t);      // "none", "lower", "upper"

// A or B: element (b..., r, c) of the logical matrix (A: r = m, c = k; B: r = k, c = n) is at
// offset + sum(b_i * batch_strides[i]) + r * row_stride + c * col_stride in the ABI parameter.
struct GemmOperand {
  std::string name;    // the task's input or parameter ("x", "gemm.weight")
  std::string c_name;  // its ABI parameter
  DType dtype = DType::kFloat32;
  MatrixLayout layout = MatrixLayout::kRowMajor;
  int64_t ld = 0;  // leading dimension: the stride of the non-contiguous matrix dim
  int64_t row_stride = 0, col_stride = 0;
  std::vector<int64_t> batch_strides;  // one per GemmRecipe::batch_shape dim; 0 where broadcast
  int64_t offset = 0;
  bool transposed() const;  // stored as the transpose of its row-major form (A col-major, B col-major)
};

// A tensor the epilogue reads: element (b..., m, n) at sum(b_i * batch_strides[i]) + m * m_stride
// + n * n_stride (0 strides broadcast: a bias over N has m_stride 0).
struct EpilogueOperand {
  std::string name, c_name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> batch_strides;
  int64_t m_stride = 0, n_stride = 0;
};

struct GemmRecipe {
  GemmClass kind = GemmClass::kGemm;
  std::string op;  // the aten op of the product ("aten.addmm.default")
  int64_t m = 0, n = 0, k = 0;
  std::vector<int64_t> batch_shape;  // empty for one GEMM; batch count = product
  GemmOperand a, b;
  GemmMath math = GemmMath::kNative;
  DType accumulate = DType::kFloat32;

  // C: the output, contiguous, its elements in (batch..., M, N) order whatever its shape.
  std::string out_name, out_c_name;
  DType out_dtype = DType::kFloat32;
  std::vector<int64_t> out_shape;

  // out = epilogue(acc, operands...): leaf 0 is the product A @ B (fp32), leaf k > 0 reads
  // epilogue_operands[k - 1]. A plain GEMM's epilogue is leaf 0.
  ExprPtr epilogue;
  std::vector<EpilogueOperand> epilogue_operands;
  Triangle triangle = Triangle::kNone;
  int64_t diagonal = 0;  // torch's tril/triu diagonal

  int64_t batch_count() const;
  // One line: "gemm fp32 (3xTF32): M=1024 N=8192 K=8192, A x row-major ld 8192, ..., epilogue ...".
  std::string summary() const;
};

// The GEMM a task computes, or why it is not one (errors name the op or the operand in the way).
Result<GemmRecipe> recognize_gemm(const TaskSpec& spec);

}  // namespace cutegen
