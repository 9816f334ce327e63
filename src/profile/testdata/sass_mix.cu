// Kernels that each exercise one instruction class the static profile counts (compiled, never run).
#include <cstdint>
#include <cuda_bf16.h>

// 128-bit global loads and stores: LDG.E.128 / STG.E.128.
__global__ void vec4_copy(float4 const* __restrict__ x, float4* __restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}

// cp.async global->shared (LDGSTS), then mma.sync on bf16 (HMMA).
__global__ void cp_async_mma(__nv_bfloat16 const* a, float* out) {
  __shared__ alignas(16) __nv_bfloat16 s[8 * 128];
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(s + threadIdx.x * 8));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(a + threadIdx.x * 8));
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  uint32_t const* r = reinterpret_cast<uint32_t const*>(s) + threadIdx.x;
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(r[0]), "r"(r[32]), "r"(r[64]), "r"(r[96]), "r"(r[128]), "r"(r[160]));
  out[threadIdx.x] = d0 + d1 + d2 + d3;
}

// A dynamically indexed local array lives in local memory: STL / LDL.
__global__ void local_array(int const* idx, float* out) {
  float buf[64];
  for (int i = 0; i < 64; ++i) buf[(idx[i] + i) & 63] = out[i * blockDim.x + threadIdx.x];
  out[threadIdx.x] = buf[idx[threadIdx.x] & 63];
}

// One warpgroup MMA from shared-memory descriptors (HGMMA) fed by a TMA tile load (UTMALDG).
__global__ void wgmma_tma(uint64_t tensor_map, uint64_t desc_a, uint64_t desc_b, float* out) {
  __shared__ alignas(128) __nv_bfloat16 tile[64 * 16];
  __shared__ alignas(8) uint64_t bar;
  uint32_t s_tile = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  uint32_t s_bar = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
      ::"r"(s_tile), "l"(tensor_map), "r"(0), "r"(0), "r"(s_bar) : "memory");
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "l"(desc_a), "l"(desc_b), "r"(1));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  out[threadIdx.x] = d0 + d1 + d2 + d3;
}

extern "C" void mix_launch(float4 const* x, float4* y, int n, cudaStream_t stream) {
  vec4_copy<<<(n + 255) / 256, 256, 0, stream>>>(x, y, n);
}
