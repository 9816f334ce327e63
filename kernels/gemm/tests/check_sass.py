#!/usr/bin/env python3
"""Compiles sass_probe.cu (one instance of every Hopper GEMM variant) for sm_90a and checks, per
kernel, that ptxas reports no stack frame and no spills, and that the SASS holds the instructions
the variant is built on: HGMMA (wgmma), UTMALDG (TMA loads; .MULTICAST with a cluster),
USETMAXREG (register reallocation) in the warp-specialized kernels only, BAR.SYNC (named barriers)
where warpgroups hand over work, UTMASTG (TMA stores) and no STG where C goes out through shared memory. ptxas must not have serialized the wgmmas (its C75xx
performance-loss warnings). Needs nvcc and cuobjdump (the toolkit's, or Triton's copy in the venv),
no GPU."""

import argparse
import collections
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (what it checks, demangled-name pattern, kernels expected, SASS opcodes required, opcodes forbidden)
EXPECTATIONS = [
    ("warp-specialized bf16, the four layouts", r"GemmWarpSpecialized<.*GemmConfig<cutlass::bfloat16_t.*, 256, 4, 1, 1, 2, 1, 0, 3, false>", 4,
     ["HGMMA.64x256x16.F32.BF16", "UTMALDG", "USETMAXREG"], []),
    ("warp-specialized ping-pong", r"GemmWarpSpecialized<.*, 128, 128, 6, 1, 1, 1, 1, 0, 3, false>", 1,
     ["HGMMA.64x128x16.F32.BF16", "UTMALDG", "USETMAXREG", "BAR.ARV", "BAR.SYNC"], []),
    ("warp-specialized fp16, 2x1 cluster, bias+relu", r"GemmWarpSpecialized<.*half_t.*, 2, 1, 2, 1, 0, 3, false>, .*BiasReluEpilogue", 1,
     ["HGMMA.64x256x16.F32", "UTMALDG.3D.MULTICAST", "USETMAXREG"], []),
    ("pipelined fallback", r"GemmPipelined<", 1, ["HGMMA", "UTMALDG"], ["USETMAXREG"]),
    ("3xTF32 GEMM over pre-split parts, promoting", r"GemmWarpSpecialized<(?!.*EpilogueTmaStore).*tfloat32_t.*, 0, 3, false>",
     1, ["HGMMA.64x192x8.F32.TF32", "UTMALDG", "USETMAXREG"], []),
    ("3xTF32 over two parts per k-tile, the products crossing a pair of stages",
     r"GemmWarpSpecialized<(?!.*EpilogueTmaStore).*tfloat32_t.*, 0, 2, false>", 1,
     ["HGMMA.64x192x8.F32.TF32", "UTMALDG", "USETMAXREG"], []),
    ("C stored by TMA from shared memory (bf16; fp32 from tf32 parts), no direct stores",
     r"GemmWarpSpecialized<.*EpilogueTmaStore<", 2, ["HGMMA", "UTMALDG.3D.MULTICAST", "UTMASTG", "STS", "BAR.SYNC"],
     ["STG"]),
    ("fp32 by 3xTF32 in the mainloop, partials of 1 and 4 k-tiles",
     r"GemmWarpSpecialized<.*GemmConfig<float, float, float.*, 0, 3, false>", 2,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG", "USETMAXREG", "BAR.SYNC"], []),
    ("fp32 with A split in registers (A read with LDS, not generic loads)",
     r"GemmWarpSpecialized<.*GemmConfig<float, float, float.*, 1, 3, false>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG", "USETMAXREG", "LDS"], ["LD.E"]),
    ("the same, B split in shared memory by the producer warpgroup (LDS.128/STS.128, its share of the transaction bytes completed)",
     r"GemmWarpSpecialized<.*GemmConfig<float, float, float, cutegen::gemm::RowMajor, cutegen::gemm::ColMajor.*, 2, 3, false>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG", "USETMAXREG", "LDS.128", "STS.128", "SYNCS.ARRIVE.TRANS64.RED.A0TX"],
     ["LD.E"]),
    ("the same over B MN-major as stored, the split transposing it (LDS, STS.128)",
     r"GemmWarpSpecialized<.*GemmConfig<float, float, float, cutegen::gemm::RowMajor, cutegen::gemm::RowMajor.*, 2, 3, false>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG", "USETMAXREG", "LDS", "STS.128", "SYNCS.ARRIVE.TRANS64.RED.A0TX"], ["LD.E"]),
    ("fp16x3: the fp16 GEMM over pre-split fp16 parts, promoting",
     r"GemmWarpSpecialized<.*GemmConfig<cutlass::half_t.*, 0, 3, true>, .*Fp16x3Unscale", 1,
     ["HGMMA.64x192x16.F32", "UTMALDG", "USETMAXREG"], []),
    ("fp32 pre-passes (K-major copy, 3xTF32 split in three parts and two either way, fp16x3's three)",
     r"split_fp32_operand", 5, [], ["HGMMA"]),
    ("fp16x3's measure of an operand's largest magnitude (a block's max, one atomic)", r"measure_fp32_operand", 1,
     ["REDUX", "REDG"], ["HGMMA"]),
    ("split-K reduce, one per (config, epilogue)", r"split_k_reduce<", 16, [], ["HGMMA", "UTMALDG"]),
]


def find_cuobjdump(nvcc):
    for candidate in [shutil.which("cuobjdump"), os.path.join(os.path.dirname(nvcc), "cuobjdump")]:
        if candidate and os.path.exists(candidate):
            return candidate
    root = HERE
    while root != "/":
        hits = glob.glob(os.path.join(root, ".deps/venv/lib/*/site-packages/triton/backends/nvidia/bin/cuobjdump"))
        if hits:
            return hits[0]
        root = os.path.dirname(root)
    sys.exit("no cuobjdump found (CUDA toolkit or Triton in .deps/venv)")


def sass_opcodes(cuobjdump, binary):
    """{mangled kernel name: how often each SASS opcode occurs in it} of a cubin or a library."""
    sass = subprocess.run([cuobjdump, "-sass", binary], capture_output=True, text=True, check=True).stdout
    opcodes = {}
    for chunk in re.split(r"\n\s*Function : ", sass)[1:]:
        name, body = chunk.split("\n", 1)
        opcodes[name.strip()] = collections.Counter(
            re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Za-z0-9_.]+)", body))
    return opcodes


def has(ops, op):
    return count(ops, op) > 0


def count(ops, op):
    """How often `op` occurs, with any of its modifiers (FFMA counts FFMA.FTZ)."""
    return sum(n for o, n in ops.items() if o == op or o.startswith(op + "."))


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return dict(zip(names, out.splitlines()))


def build_probe(nvcc, includes, source, obj):
    """Compiles a probe to a cubin (device code only: no host compilation, the slow half of a CuTe
    build); returns {mangled kernel: ptxas's "N bytes stack frame, ..." line} and ptxas's wgmma
    serialization warnings."""
    build = subprocess.run([nvcc, "-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr",
                            "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v"] +
                           [f for i in includes for f in ("-I", i)] + ["-cubin", source, "-o", obj],
                           capture_output=True, text=True)
    if build.returncode != 0:
        sys.exit("nvcc failed:\n" + build.stderr[-4000:])
    resources = dict(re.findall(r"Function properties for (\S+)\n\s*(\d+ bytes stack frame.*)", build.stderr))
    # ptxas serializes wgmmas or waits on them early when other instructions touch in-flight accumulators.
    serialized = re.findall(r"\(C75\d\d\) Potential Performance Loss[^\n]*", build.stderr)
    return resources, serialized


def check_expectations(expectations, names, opcodes, resources):
    """Failures: an expectation matching other than its count of kernels, a required opcode missing
    or a forbidden one present, a kernel no expectation covers, any stack frame or spill."""
    failures, claimed = [], set()
    for what, pattern, count, required, forbidden in expectations:
        matched = [m for m, d in names.items() if re.search(pattern, d)]
        claimed.update(matched)
        if len(matched) != count:
            failures.append(f"{what}: expected {count} kernel(s), found {len(matched)}")
        for m in matched:
            failures += [f"{what}: {op} missing from {names[m][:160]}" for op in required if not has(opcodes[m], op)]
            failures += [f"{what}: unexpected {op} in {names[m][:160]}" for op in forbidden if has(opcodes[m], op)]
    for m in names:
        if m not in claimed:
            failures.append(f"kernel no expectation covers: {names[m][:160]}")
        report = resources.get(m, "")
        if not re.match(r"0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads", report):
            failures.append(f"local memory in {names[m][:160]}: {report or 'no ptxas report'}")
    return failures


def report(names, failures):
    for f in failures:
        print("FAIL:", f)
    print(f"{len(names)} kernels checked, {len(failures)} failure(s)")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cutlass", required=True, help="CUTLASS include directory")
    ap.add_argument("--work", required=True, help="directory for the object file")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    obj = os.path.join(args.work, "sass_probe.cubin")
    resources, serialized = build_probe(args.nvcc, [args.cutlass, os.path.dirname(HERE)],
                                        os.path.join(HERE, "sass_probe.cu"), obj)
    opcodes = sass_opcodes(find_cuobjdump(args.nvcc), obj)
    names = demangle(sorted(opcodes))

    failures = check_expectations(EXPECTATIONS, names, opcodes, resources)
    layouts = {re.search(r"(RowMajor|ColMajor), cutegen::gemm::(RowMajor|ColMajor)", names[m]).groups()
               for m in names if re.search(EXPECTATIONS[0][1], names[m])}
    if len(layouts) != 4:
        failures.append(f"expected the four (A, B) layout combinations, found {sorted(layouts)}")
    failures += [f"ptxas: {w}" for w in serialized]
    return report(names, failures)


if __name__ == "__main__":
    sys.exit(main())
