// Matrix-vector products (a GEMM with N == 1 or M == 1): memory-bound, so no MMA tiles; each
// matrix element is read once, coalesced. Per batch, output i = functor(sum_k mat(i, k) * vec(k)).
//   matvec_dot:     mat contiguous along k (a row-major A times x, x times a K-major B): a block
//                   per output, 16-byte loads where aligned, a block-wide sum;
//   matvec_columns: mat contiguous along i (any strides, in fact): a thread per output in each
//                   warp, the block's warps splitting k, partial sums met in shared memory.
// The functor is a GEMM epilogue's (epilogue_functors.cuh): apply(acc, row, col, batch), with
// (row, col) = (i, 0) when N == 1 and (0, i) when M == 1.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

namespace cutegen::gemm {

template <class T>
struct MatVecOperands {
  T const* mat;
  int64_t mat_i, mat_k, mat_batch;  // mat(i, k, batch) strides
  T const* vec;
  int64_t vec_k, vec_batch;
  int outputs, k;

  CUTE_HOST_DEVICE auto matrix(int batches) const {  // (outputs, k, batches)
    using namespace cute;
    return make_tensor(make_gmem_ptr(mat),
                       make_layout(make_shape(outputs, k, batches), make_stride(mat_i, mat_k, mat_batch)));
  }
  CUTE_HOST_DEVICE auto vector(int batches) const {  // (k, batches)
    using namespace cute;
    return make_tensor(make_gmem_ptr(vec), make_layout(make_shape(k, batches), make_stride(vec_k, vec_batch)));
  }
};

template <bool AlongN, class Functor>
__device__ __forceinline__ float matvec_apply(Functor const& f, float acc, int i, int batch) {
  return AlongN ? f.apply(acc, 0, i, batch) : f.apply(acc, i, 0, batch);
}

template <int Threads>
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_sums[Threads / 32];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = 0.f;
  if (threadIdx.x < 32) {
    for (int w = int(threadIdx.x); w < Threads / 32; w += 32)
      v += warp_sums[w];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(0xffffffffu, v, o);
  }
  return v;
}

// Grid (outputs, batches). `vectorized`: k strides 1 and both rows start on 16-byte boundaries.
template <int Threads, bool AlongN, class T, class OutT, class Functor>
__global__ void __launch_bounds__(Threads) matvec_dot(MatVecOperands<T> op, OutT* out, Functor f, bool vectorized) {
  int i = int(blockIdx.x), batch = int(blockIdx.y);
  auto mat = op.matrix(int(gridDim.y));  // (outputs, k, batches)
  auto vec = op.vector(int(gridDim.y));  // (k, batches)
  float acc = 0.f;
  int head = 0;  // elements summed as vectors
  if (vectorized) {
    constexpr int kVec = 16 / int(sizeof(T));
    struct alignas(16) Pack {
      T v[kVec];
    };
    auto const* rows = reinterpret_cast<Pack const*>(&mat(i, 0, batch));
    auto const* vecs = reinterpret_cast<Pack const*>(&vec(0, batch));
    int packs = op.k / kVec;
#pragma unroll 4
    for (int p = int(threadIdx.x); p < packs; p += Threads) {
      Pack x = rows[p], y = vecs[p];
#pragma unroll
      for (int j = 0; j < kVec; ++j)
        acc += float(x.v[j]) * float(y.v[j]);
    }
    head = packs * kVec;
  }
  for (int kk = head + int(threadIdx.x); kk < op.k; kk += Threads)
    acc += float(mat(i, kk, batch)) * float(vec(kk, batch));
  acc = block_sum<Threads>(acc);
  if (threadIdx.x == 0) out[int64_t(batch) * op.outputs + i] = OutT(matvec_apply<AlongN>(f, acc, i, batch));
}

// Grid (ceil(outputs / 32), batches): lane = output, warp = a k lane.
template <int Threads, bool AlongN, class T, class OutT, class Functor>
__global__ void __launch_bounds__(Threads) matvec_columns(MatVecOperands<T> op, OutT* out, Functor f) {
  constexpr int kLanesK = Threads / 32;
  __shared__ float partial[kLanesK][33];
  int lane = int(threadIdx.x) % 32, lane_k = int(threadIdx.x) / 32, batch = int(blockIdx.y);
  int i = int(blockIdx.x) * 32 + lane;
  auto mat = op.matrix(int(gridDim.y));  // (outputs, k, batches)
  auto vec = op.vector(int(gridDim.y));  // (k, batches)
  float acc = 0.f;
  if (i < op.outputs) {
#pragma unroll 4
    for (int kk = lane_k; kk < op.k; kk += kLanesK)
      acc += float(mat(i, kk, batch)) * float(vec(kk, batch));
  }
  partial[lane_k][lane] = acc;
  __syncthreads();
  if (lane_k != 0 || i >= op.outputs) return;
  for (int w = 1; w < kLanesK; ++w)
    acc += partial[w][lane];
  out[int64_t(batch) * op.outputs + i] = OutT(matvec_apply<AlongN>(f, acc, i, batch));
}

// Picks the walk by the matrix's k stride; the vector walk where rows and the vector are aligned.
template <int Threads, bool AlongN, class T, class OutT, class Functor>
cudaError_t matvec(MatVecOperands<T> op, int batches, OutT* out, Functor f, cudaStream_t stream) {
  if (op.outputs == 0 || batches == 0) return cudaSuccess;
  if (op.mat_k == 1) {
    auto aligned = [](void const* p, int64_t stride) {
      return reinterpret_cast<uintptr_t>(p) % 16 == 0 && (stride * int64_t(sizeof(T))) % 16 == 0;
    };
    bool vectorized =
        op.vec_k == 1 && aligned(op.mat, op.mat_i) && aligned(op.mat, op.mat_batch) && aligned(op.vec, op.vec_batch);
    matvec_dot<Threads, AlongN>
        <<<dim3(unsigned(op.outputs), unsigned(batches)), Threads, 0, stream>>>(op, out, f, vectorized);
  } else {
    matvec_columns<Threads, AlongN>
        <<<dim3(unsigned((op.outputs + 31) / 32), unsigned(batches)), Threads, 0, stream>>>(op, out, f);
  }
  return cudaGetLastError();
}

}  // namespace cutegen::gemm
