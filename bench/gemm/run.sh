#!/usr/bin/env bash
# The GEMM benchmark on the GPU machine, in one call of at most ~8 minutes: every variant of
# kernels/gemm beside torch.matmul, in separate processes (a variant that hangs or faults only loses
# its own group, each under its own timeout): the fallback kernel; bf16/fp16 warp-specialized
# kernels (cooperative, ping-pong, clusters) at 4096^3 and 8192^3 with irregular shapes, layouts,
# batches and epilogues; the sweep of tiles, stages, clusters and rasterization; fp32 by 3xTF32 (split
# in the mainloop beside split ahead) at 4096^3 and at KernelBench level 1's matmul shapes. Prints the best
# correct variant per case last, with its error against float64 beside torch's.
#
# Usage: bench/gemm/run.sh [--full-sweep | --profile-fp32]
#   --profile-fp32: instead, Nsight Compute on one fp32 (3xTF32) GEMM at 4096^3 (tensor pipe, shared
#   memory and stall sections), to see what holds the fp32 path back (about a minute).
# Uses build/gemm-bench/libcutegen_gemm_bench.so when it is there (bench/gemm/build.sh, run on a
# machine with nvcc), else builds it first (about 10 minutes on 16 cores, outside the budget).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
so="$root/build/gemm-bench/libcutegen_gemm_bench.so"
if [ ! -f "$so" ]; then
  [ -d "$root/.deps/cutlass/include/cute" ] || "$root/scripts/bootstrap" --offline --no-apt --no-torch >/dev/null || exit 1
  so="$("$here/build.sh" | tail -1)" || { echo "build failed" >&2; exit 1; }
fi
py="${PYTHON:-python3}"
export LD_LIBRARY_PATH="/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PYTHONUNBUFFERED=1
out="$(mktemp -d)"
sweep=(--sweep --quick)
sweep_limit=60
if [ "${1:-}" = "--full-sweep" ]; then sweep=(--sweep); sweep_limit=120; fi

run() {
  local name="$1" limit="$2"; shift 2
  echo "== $name (at most ${limit}s)"
  timeout "$limit" "$py" "$here/bench_gemm.py" --lib "$so" --json "$out/$name.json" "$@" \
    || echo "== $name exited with status $? (124: timed out)"
}
if [ "${1:-}" = "--profile-fp32" ]; then
  ncu --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats -k regex:gemm_kernel -c 1 \
    "$py" "$here/bench_gemm.py" --lib "$so" --only 'fp32 4096' --variants '^ws\.f32' --samples 1
  exit
fi
run fallback 50 --variants '^pipelined'
run half-precision 100 --variants '^(ws|pingpong)\.(bf16|fp16)'
run sweep "$sweep_limit" "${sweep[@]}"
run fp32-4096 70 --only 'fp32 4096' --variants '^(ws|pingpong)'
run kernelbench-fp32 150 --only 'kb ' --variants '\.f32>'
run kernelbench-3xtf32-ahead 150 --only 'kb ' --variants '\.3xtf32>'
"$py" "$here/bench_gemm.py" --summarize "$out"/{fallback,half-precision,sweep,fp32-4096,kernelbench-fp32,kernelbench-3xtf32-ahead}.json
