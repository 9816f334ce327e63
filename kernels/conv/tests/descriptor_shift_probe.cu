// GPU probe (run by scripts/gpu-call's PROBES, not by CI): does a wgmma descriptor whose start is
// moved by whole 128-byte rows into a 128-byte-swizzled K-major tile read the rows it names?
// The implicit GEMM's row-tap mainloop (mainloop_conv_row_taps.cuh, docs/decisions.md conv-row-taps)
// starts a row tap's A operand s rows into one box of TileM + halo rows. The PTX ISA's descriptor has a 3-bit "matrix
// base offset" for starts off the swizzle pattern's 1024-byte boundary; whether sm_90a's wgmma wants it (as (start >>
// 7) & 7) or applies the swizzle to absolute addresses (base offset 0) is what this decides: for shifts 0-9 it runs
// m64n8k8 tf32 wgmmas over an 80-row tile written in TMA's SWIZZLE_128B pattern, with both base offsets, against the
// host's product. Build and run: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a -I<cutlass>/include
//   descriptor_shift_probe.cu -o probe && ./probe
#include <cute/arch/mma_sm90_desc.hpp>
#include <cute/arch/mma_sm90_gmma.hpp>
#include <cstdio>

namespace {

constexpr int kRows = 80, kK = 32, kN = 8, kShifts = 10;

__host__ __device__ float a_value(int r, int k) { return float((r * 7 + k * 3) % 11 - 5); }
__host__ __device__ float b_value(int n, int k) { return float((n * 5 + k) % 7 - 3); }

// TMA's SWIZZLE_128B: within each 1024-byte block, byte bits [4,7) are XORed with bits [7,10).
__device__ int swizzled(int byte) { return byte ^ (((byte >> 7) & 7) << 4); }

__device__ uint64_t descriptor(uint32_t start, int base_offset) {
  cute::GmmaDescriptor d;
  d.bitfield.start_address_ = uint16_t(start >> 4);
  d.bitfield.leading_byte_offset_ = 1;         // unused by K-major swizzled layouts
  d.bitfield.stride_byte_offset_ = 1024 >> 4;  // from one 8-row group to the next
  d.bitfield.base_offset_ = uint8_t(base_offset);
  d.bitfield.layout_type_ = uint8_t(cute::SM90::GMMA::LayoutType::B128);
  return d.desc_;
}

// out[(mode * kShifts + shift) * 64 * kN + row * kN + n]
__global__ void probe(float* out) {
  __shared__ alignas(1024) float a[kRows * kK];
  __shared__ alignas(1024) float b[8 * kK];
  int const t = int(threadIdx.x);
  for (int i = t; i < kRows * kK; i += blockDim.x)
    a[swizzled(i * 4) / 4] = a_value(i / kK, i % kK);
  for (int i = t; i < kN * kK; i += blockDim.x)
    b[swizzled(i * 4) / 4] = b_value(i / kK, i % kK);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  uint32_t const a0 = uint32_t(__cvta_generic_to_shared(a)), b0 = uint32_t(__cvta_generic_to_shared(b));
  for (int mode = 0; mode < 2; ++mode)
    for (int shift = 0; shift < kShifts; ++shift) {
      uint32_t const start = a0 + shift * 128;
      float d[4] = {0, 0, 0, 0};
      cute::warpgroup_arrive();
      for (int kb = 0; kb < kK / 8; ++kb)  // each k-block 32 bytes further along the row
        cute::SM90::GMMA::MMA_64x8x8_F32TF32TF32_SS_TN<>::fma(
            descriptor(start + kb * 32, mode ? (start >> 7) & 7 : 0), descriptor(b0 + kb * 32, 0), d[0], d[1], d[2],
            d[3], kb ? cute::SM90::GMMA::ScaleOut::One : cute::SM90::GMMA::ScaleOut::Zero);
      cute::warpgroup_commit_batch();
      cute::warpgroup_wait<0>();
      int const warp = t / 32, lane = t % 32, row = warp * 16 + lane / 4, col = lane % 4 * 2;
      float* o = out + (mode * kShifts + shift) * 64 * kN;
      o[row * kN + col] = d[0];
      o[row * kN + col + 1] = d[1];
      o[(row + 8) * kN + col] = d[2];
      o[(row + 8) * kN + col + 1] = d[3];
    }
}

}  // namespace

int main() {
  constexpr int count = 2 * kShifts * 64 * kN;
  float* device = nullptr;
  if (cudaMalloc(&device, count * sizeof(float)) != cudaSuccess) return 2;
  probe<<<1, 128>>>(device);
  static float host[count];
  cudaError_t e = cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("descriptor_shift_probe: %s\n", cudaGetErrorString(e));
    return 2;
  }
  bool zero_right = true, offset_right = true;
  for (int mode = 0; mode < 2; ++mode)
    for (int shift = 0; shift < kShifts; ++shift) {
      int wrong = 0;
      for (int r = 0; r < 64; ++r)
        for (int n = 0; n < kN; ++n) {
          float want = 0;
          for (int k = 0; k < kK; ++k)
            want += a_value(r + shift, k) * b_value(n, k);
          wrong += host[(mode * kShifts + shift) * 64 * kN + r * kN + n] != want;
        }
      std::printf("base_offset=%s shift=%d rows: %d of %d products wrong\n", mode ? "(start>>7)&7" : "0", shift, wrong,
                  64 * kN);
      (mode ? offset_right : zero_right) &= wrong == 0;
    }
  std::printf("descriptor_shift_probe: base offset 0 %s; (start >> 7) & 7 %s\n", zero_right ? "right" : "WRONG",
              offset_right ? "right" : "WRONG");
  return zero_right || offset_right ? 0 : 1;
}
