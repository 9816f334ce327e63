#!/usr/bin/env bash
# The GEMM benchmark on the GPU machine: builds every variant of kernels/gemm into one library,
# then runs the cases in separate processes (a variant that hangs or faults only loses its own
# group, each under a timeout): the fallback kernel, the warp-specialized kernels (cooperative and
# ping-pong) without and with clusters, and the parameter sweep. Prints the best correct variant per case last.
# Usage: bench/gemm/run.sh [--full-sweep]     (about 5 minutes on an H200)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
[ -d "$root/.deps/cutlass/include/cute" ] || "$root/scripts/bootstrap" --offline --no-apt --no-torch >/dev/null || exit 1
so="$("$here/build.sh" | tail -1)" || { echo "build failed" >&2; exit 1; }
py="${PYTHON:-python3}"
out="$(mktemp -d)"
sweep=(--sweep --quick)
[ "${1:-}" = "--full-sweep" ] && sweep=(--sweep)

run() {
  local name="$1"; shift
  echo "== $name"
  timeout "${CASE_TIMEOUT:-240}" "$py" "$here/bench_gemm.py" --lib "$so" --json "$out/$name.json" "$@" \
    || echo "== $name exited with status $? (124: timed out)"
}
run fallback --variants '^pipelined'
run warp-specialized --variants '^(ws|pingpong)\..*\.c1x1\.'
run clusters --variants '^(ws|pingpong)\..*\.c(2x1|1x2)\.'
run sweep "${sweep[@]}"
"$py" "$here/bench_gemm.py" --summarize "$out"/fallback.json "$out"/warp-specialized.json "$out"/clusters.json "$out"/sweep.json
