#!/usr/bin/env python3
"""The expert's GEMM kernels as it emits them (`cutegen expert TASK --emit`; and level-2 chains'
convolutions with their first stage fused), built as the evaluator builds them (`cutegen build
--task`), one representative point per strategy: each kernel's SASS
holds the instructions its strategy is built on (HGMMA and UTMALDG for the tensor-core GEMMs, no
HGMMA in the matrix-vector kernel) and ptxas reports no local memory. Needs nvcc, cuobjdump and the
bridge's Python (it loads the task files), no GPU."""

import argparse
import json
import os
import subprocess
import sys

from check_sass import demangle, find_cuobjdump, has, sass_opcodes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

# (task file, --params over the default, {kernel-name part: (required opcodes, forbidden opcodes)})
POINTS = [
    # 3xTF32 split ahead (the default): the tf32 GEMM promoting every 3 k-tiles (one k-tile's parts), C stored by TMA.
    ("tasks/matmul_fp32.py", "",
     {"GemmWarpSpecialized": (["HGMMA.64x192x8.F32.TF32", "UTMALDG", "USETMAXREG", "UTMASTG"], ["STG"]),
      "split_fp32_operand": ([], ["HGMMA"])}),
    # fp16x3: the same three products over fp16 parts, the fp16 GEMM.
    ("tasks/matmul_fp32.py", "fp16x3=1",
     {"GemmWarpSpecialized": (["HGMMA.64x192x16.F32", "UTMALDG", "USETMAXREG", "UTMASTG"], ["STG", "HGMMA.64x192x8.F32.TF32"]),
      "split_fp32_operand": ([], ["HGMMA"]), "measure_fp32_operand": ([], ["HGMMA"])}),
    ("tasks/matmul_bf16.py", "", {"GemmWarpSpecialized": (["HGMMA.64x256x16.F32.BF16", "UTMALDG", "UTMASTG"], ["STG"])}),
    ("tasks/matmul_bf16.py", "tma_store=0", {"GemmWarpSpecialized": (["HGMMA", "UTMALDG", "STG"], ["UTMASTG"])}),
    ("tasks/matmul_fp32.py", "split_ahead=0,tile_n=128",  # 3xTF32 in the mainloop; B copied K-major by the pre-pass
     {"GemmWarpSpecialized": (["HGMMA", "UTMALDG", "USETMAXREG"], []), "split_fp32_operand": ([], ["HGMMA"])}),
    # 3xTF32 with A split in registers (wgmma from registers, A read by LDS), B split ahead in two parts.
    ("tasks/matmul_fp32.py", "split_ahead=0,register_split=1,tile_n=128,cluster_m=1,stages=4",
     {"GemmWarpSpecialized": (["HGMMA.64x128x8.F32.TF32", "UTMALDG", "USETMAXREG", "LDS"], ["LD.E"]),
      "split_fp32_operand": ([], ["HGMMA"])}),
    # Plain TF32 (one product of operands rounded in the kernel), split in the kernel, the operands
    # swapped: the kernel's A is B as stored (M-major, loaded by LDS), its B is A, split by the producer
    # warpgroup element by element; C stored transposed, from registers.
    ("tasks/matmul_fp32.py", "split_ahead=0,register_split=2,split_parts=1,tile_n=128,cluster_m=1,stages=3,tma_store=0",
     {"GemmWarpSpecialized": (["HGMMA.64x128x8.F32.TF32", "UTMALDG", "USETMAXREG", "LDS"], ["LD.E"])}),
    ("tasks/linear_multiply_leaky.py", "strategy=gemm_pingpong,tile_m=64,tile_n=128,stages=6",
     {"GemmWarpSpecialized": (["HGMMA", "UTMALDG", "USETMAXREG", "BAR.SYNC"], [])}),
    ("tasks/matmul_bf16.py", "strategy=gemm_pipelined",
     {"GemmPipelined": (["HGMMA", "UTMALDG"], ["USETMAXREG"])}),
    ("tests/gemm_tasks/matvec.py", "", {"matvec": ([], ["HGMMA"])}),
    # torch.tril of the product: the masked scheduler skipping the tiles above the triangle.
    ("tests/gemm_tasks/tril_matmul.py", "", {"GemmWarpSpecialized": (["HGMMA", "UTMALDG", "USETMAXREG"], [])}),
    # A level-2 chain: the GEMM writing its buffer, then a group norm, a max pool, a sum (stages.cuh).
    ("tests/gemm_tasks/linear_groupnorm_pool_sum.py", "",
     {"GemmWarpSpecialized": (["HGMMA", "UTMALDG"], []), "row_stage_kernel": ([], ["HGMMA"]),
      "pool_stage_kernel": ([], ["HGMMA"])}),
    # Level-2 chains on a convolution with their first stage fused into its epilogue (fuse_stage=1): a
    # mean over the pixels added up by atomics, a min over the channels by quad shuffles; then the ops after.
    ("tasks/conv2d_gelu_mean.py", "fuse_stage=1",
     {"GemmWarpSpecialized": (["HGMMA.64x64x8.F32.TF32", "UTMALDG", "REDG.E.ADD.F32"], []),
      "broadcast_stage_kernel": ([], ["HGMMA"])}),
    ("tasks/conv2d_min_tanh.py", "fuse_stage=1",
     {"GemmWarpSpecialized": (["HGMMA.64x64x8.F32.TF32", "UTMALDG", "SHFL.BFLY"], ["REDG"]),
      "broadcast_stage_kernel": ([], ["HGMMA"])}),
    # A group norm's statistics summed beside the output (atomics in double), then one normalizing pass.
    ("tasks/conv2d_group_norm.py", "fuse_stage=1",
     {"GemmWarpSpecialized": (["HGMMA.64x64x8.F32.TF32", "UTMALDG", "REDG.E.ADD.F64", "STG.E"], []),
      "norm_stats_stage_kernel": ([], ["HGMMA"])}),
    # Depthwise separable: the depthwise convolution (fp32 multiply-adds) ahead of the pointwise
    # implicit GEMM that reads its buffer (TF32, the input read as pixel-major boxes).
    ("tasks/conv2d_depthwise_separable.py", "",
     {"depthwise_conv_kernel": ([], ["HGMMA"]), "GemmWarpSpecialized": (["HGMMA.64x128x8.F32.TF32", "UTMALDG"], [])}),
]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stderr[-4000:]}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cutegen", required=True)
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--work", required=True, help="directory for the kernels and their build cache")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    cache = ["--set", "build.cache_dir=" + os.path.join(args.work, "cache")]
    cuobjdump = find_cuobjdump(args.nvcc)
    failures = []
    for task, params, expected in POINTS:
        task = os.path.join(ROOT, task)
        source = os.path.join(args.work, os.path.basename(task)[:-3] + ".cu")
        with open(source, "w") as f:
            f.write(run([args.cutegen, "expert", task, "--emit"] + (["--params", params] if params else [])))
        built = json.loads(run([args.cutegen, "--json"] + cache + ["build", "--task", task, source]))
        if built["outcome"] != "built":
            failures.append(f"{task}: {built['message']}")
            continue
        for k in built["kernels"]:
            if k["stack_bytes"] or k["spill_stores"] or k["spill_loads"]:
                failures.append(f"{task}: local memory in {k['name'][:120]}")
        opcodes = sass_opcodes(cuobjdump, built["library"])
        names = demangle(sorted(opcodes))
        for part, (required, forbidden) in expected.items():
            kernels = [m for m, d in names.items() if part in d]
            if not kernels:
                failures.append(f"{task}: no kernel named like {part}")
            for m in kernels:
                failures += [f"{task}: {op} missing from {part}" for op in required if not has(opcodes[m], op)]
                failures += [f"{task}: unexpected {op} in {part}" for op in forbidden if has(opcodes[m], op)]
        print(f"{os.path.basename(task)} [{params or 'default'}]: {len(built['kernels'])} kernels checked")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
