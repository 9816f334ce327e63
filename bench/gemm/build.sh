#!/usr/bin/env bash
# Builds libcutegen_gemm_bench.so (every variant of kernels/gemm) with nvcc for sm_90a, one
# translation unit per variants_*.cu, compiled in parallel, into build/gemm-bench (the folder
# run.sh looks in; carry it to the GPU machine). Usage: bench/gemm/build.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/build/gemm-bench}"
objects="$out-objects"  # outside $out, so the folder to carry holds only the library
mkdir -p "$out" "$objects"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
flags=(-std=c++17 -O3 -DNDEBUG --expt-relaxed-constexpr -gencode arch=compute_90a,code=sm_90a
       -Xcompiler -fPIC -I "$root/.deps/cutlass/include" -I "$root/kernels/gemm" -I "$here")
jobs="${JOBS:-$(nproc)}"
ls "$here"/variants_*.cu "$here"/gemm_entry.cu | xargs -P "$jobs" -I{} sh -c \
  'f="$1"; shift; "$@" -c "$f" -o "'"$objects"'/$(basename "$f" .cu).o"' _ {} "$nvcc" "${flags[@]}"
"$nvcc" -shared "$objects"/*.o -o "$out/libcutegen_gemm_bench.so" -lcudart
echo "$out/libcutegen_gemm_bench.so"
