#!/usr/bin/env python3
"""Compiles sass_probe.cu (the convolution kernels at a representative point) for sm_90a and checks,
per kernel, that ptxas reports no stack frame and no spills, and that the SASS holds what the
kernel is built on: the implicit GEMM's HGMMA (TF32 wgmma), its 5-D input and 3-D weight TMA loads
(UTMALDG.5D/.3D) and register reallocation (USETMAXREG); the depthwise kernel's FFMA and shared
loads without tensor cores. The GEMM's checker (kernels/gemm/tests/check_sass.py) lends its
toolchain helpers. Needs nvcc and cuobjdump, no GPU."""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(KERNELS, "gemm", "tests"))
from check_sass import demangle, find_cuobjdump  # noqa: E402

# (what it checks, demangled-name pattern, kernels expected, SASS opcodes required, opcodes forbidden)
EXPECTATIONS = [
    ("implicit-GEMM conv, tf32", r"GemmWarpSpecialized<.*tfloat32_t.*ConvParams<", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG"], []),
    ("channels-last copy", r"to_channels_last_kernel<float>", 1, [], ["HGMMA"]),
    ("transposed weight flip", r"flip_transposed_weight_kernel<float>", 1, [], ["HGMMA"]),
    ("depthwise, exact fp32", r"depthwise_conv_kernel<16, 32, 4,", 1, ["FFMA", "LDS"], ["HGMMA"]),
]


def has(ops, op):
    return any(o == op or o.startswith(op + ".") for o in ops)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cutlass", required=True, help="CUTLASS include directory")
    ap.add_argument("--work", required=True, help="directory for the object file")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    obj = os.path.join(args.work, "sass_probe.cubin")
    build = subprocess.run([args.nvcc, "-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr",
                            "-gencode", "arch=compute_90a,code=sm_90a", "-Xptxas", "-v", "-I", args.cutlass,
                            "-I", KERNELS, "-cubin", os.path.join(HERE, "sass_probe.cu"), "-o", obj],
                           capture_output=True, text=True)
    if build.returncode != 0:
        sys.exit("nvcc failed:\n" + build.stderr[-4000:])
    resources = dict(re.findall(r"Function properties for (\S+)\n\s*(\d+ bytes stack frame.*)", build.stderr))
    sass = subprocess.run([find_cuobjdump(args.nvcc), "-sass", obj], capture_output=True, text=True, check=True).stdout
    opcodes = {}
    for chunk in re.split(r"\n\s*Function : ", sass)[1:]:
        name, body = chunk.split("\n", 1)
        opcodes[name.strip()] = set(re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Za-z0-9_.]+)", body))
    names = demangle(sorted(opcodes))

    failures, claimed = [], set()
    for what, pattern, count, required, forbidden in EXPECTATIONS:
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
        if not re.match(r"0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads", resources.get(m, "")):
            failures.append(f"local memory in {names[m][:160]}: {resources.get(m) or 'no ptxas report'}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(names)} kernels checked, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
