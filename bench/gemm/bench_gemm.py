#!/usr/bin/env python3
"""Benchmarks kernels/gemm against torch.matmul on the GPU, on random normal inputs.

For each case: our output and torch's, each against a float64 reference (error = max |out - ref| /
max |ref|, our output poisoned with NaN first so unwritten elements show), then both timed with CUDA
events: warm-up, a 256 MB L2 flush before every sample, the median of --samples. Prints TFLOP/s
and ours/torch. `--sweep` times every bf16 row-major variant at several rasterization swizzles.

Usage: bench_gemm.py --lib build/gemm-bench/libcutegen_gemm_bench.so [--sweep] [--quick]
"""

import argparse
import ctypes
import json
import re
import statistics
import sys

import torch


class GemmCall(ctypes.Structure):  # mirrors bench/gemm/gemm_call.h
    _fields_ = [("m", ctypes.c_int32), ("n", ctypes.c_int32), ("k", ctypes.c_int32), ("batch", ctypes.c_int32),
                ("a_col_major", ctypes.c_int32), ("b_col_major", ctypes.c_int32),
                ("a", ctypes.c_void_p), ("lda", ctypes.c_int64), ("batch_stride_a", ctypes.c_int64),
                ("b", ctypes.c_void_p), ("ldb", ctypes.c_int64), ("batch_stride_b", ctypes.c_int64),
                ("c", ctypes.c_void_p), ("ldc", ctypes.c_int64), ("batch_stride_c", ctypes.c_int64),
                ("bias", ctypes.c_void_p), ("swizzle", ctypes.c_int32), ("splits", ctypes.c_int32),
                ("workspace", ctypes.c_void_p), ("workspace_bytes", ctypes.c_uint64), ("stream", ctypes.c_void_p)]


class Library:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.gemm_variant_name.restype = ctypes.c_char_p
        self.lib.gemm_error_string.restype = ctypes.c_char_p
        self.lib.gemm_workspace_bytes.restype = ctypes.c_int64
        self.lib.gemm_workspace_bytes.argtypes = [ctypes.c_char_p, ctypes.POINTER(GemmCall)]
        self.lib.gemm_run.argtypes = [ctypes.c_char_p, ctypes.POINTER(GemmCall)]
        self.variants = [self.lib.gemm_variant_name(i).decode() for i in range(self.lib.gemm_variant_count())]

    def prepare(self, variant, call):
        """Allocates the workspace; returns a closure that launches the GEMM."""
        name = variant.encode()
        need = self.lib.gemm_workspace_bytes(name, ctypes.byref(call))
        if need < 0:
            raise KeyError(f"no variant {variant}")
        workspace = torch.empty(max(need, 1), dtype=torch.uint8, device="cuda")
        call.workspace, call.workspace_bytes = workspace.data_ptr(), need
        call.stream = torch.cuda.current_stream().cuda_stream

        def launch():
            code = self.lib.gemm_run(name, ctypes.byref(call))
            if code != 0:
                raise RuntimeError(f"{variant}: {self.lib.gemm_error_string(code).decode()}")
        launch.keepalive = workspace
        return launch


DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "3xtf32": torch.float32, "f32": torch.float32}


def operand(rows, cols, batch, col_major, dtype, uniform=False):
    """A (batch, rows, cols) matrix with the given storage order, normal or (as KernelBench draws its
    inputs) uniform in [0, 1); returns (tensor, ld, batch_stride)."""
    draw = torch.rand if uniform else torch.randn
    if col_major:
        t = draw(batch, cols, rows, device="cuda", dtype=dtype).transpose(-1, -2)
        return t, rows, rows * cols
    return draw(batch, rows, cols, device="cuda", dtype=dtype), cols, rows * cols


def time_ms(fn, samples, flush):
    for _ in range(3):
        fn()
    times = []
    for _ in range(samples):
        flush.zero_()  # evict A, B and C from L2: every sample starts from DRAM
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def rel_error(out, ref):
    """max |out - ref| / max |ref|, in slices so a 4 GB output needs no 8 GB float64 temporaries."""
    out, ref = out.reshape(-1, out.shape[-1]), ref.reshape(-1, ref.shape[-1])
    rows = max(1, (1 << 26) // out.shape[-1])
    worst, largest = 0.0, 0.0
    for r in range(0, out.shape[0], rows):
        o, f = out[r:r + rows].double(), ref[r:r + rows]
        worst = max(worst, (o - f).abs().max().item())
        largest = max(largest, f.abs().max().item())
    return worst / largest if largest > 0 else worst


class Case:
    def __init__(self, group, variant, m, n, k, batch=1, layouts="rr", swizzle=8, epilogue=None, uniform=False,
                 splits=0):
        self.group, self.variant, self.m, self.n, self.k, self.batch = group, variant, m, n, k, batch
        self.layouts, self.swizzle, self.epilogue, self.uniform = layouts, swizzle, epilogue, uniform
        self.splits = splits  # split-K: 0 lets the runner choose


def run_case(lib, case, samples, flush, cache):
    inputs, out_name = case.variant.split(".")[1].split(">")
    in_dtype, out_dtype = DTYPES[inputs], DTYPES[out_name]
    key = (in_dtype, case.m, case.n, case.k, case.batch, case.layouts, case.epilogue, case.uniform)
    if key not in cache:  # inputs, reference and torch's numbers are shared by the variants of a case
        cache.clear()
        torch.cuda.empty_cache()
        torch.manual_seed(0)
        a, lda, sa = operand(case.m, case.k, case.batch, case.layouts[0] == "c", in_dtype, case.uniform)
        b, ldb, sb = operand(case.k, case.n, case.batch, case.layouts[1] == "c", in_dtype, case.uniform)
        bias = torch.randn(case.n, device="cuda") if case.epilogue == "bias_relu" else None

        def torch_fn():
            y = torch.matmul(a, b)
            return torch.relu(y + bias.to(y.dtype)) if bias is not None else y
        ref = torch.matmul(a.double(), b.double())
        if bias is not None:
            ref = torch.relu(ref + bias.double())
        torch_err = rel_error(torch_fn(), ref)
        torch_ms = time_ms(torch_fn, samples, flush)
        cache[key] = (a, lda, sa, b, ldb, sb, bias, ref, torch_err, torch_ms)
    a, lda, sa, b, ldb, sb, bias, ref, torch_err, torch_ms = cache[key]

    c = torch.full((case.batch, case.m, case.n), float("nan"), device="cuda", dtype=out_dtype)
    one = case.batch == 1
    call = GemmCall(m=case.m, n=case.n, k=case.k, batch=case.batch,
                    a_col_major=int(case.layouts[0] == "c"), b_col_major=int(case.layouts[1] == "c"),
                    a=a.data_ptr(), lda=lda, batch_stride_a=0 if one else sa,
                    b=b.data_ptr(), ldb=ldb, batch_stride_b=0 if one else sb,
                    c=c.data_ptr(), ldc=case.n, batch_stride_c=0 if one else case.m * case.n,
                    bias=bias.data_ptr() if bias is not None else None, swizzle=case.swizzle, splits=case.splits)
    launch = lib.prepare(case.variant, call)
    launch()
    torch.cuda.synchronize()
    err = rel_error(c, ref)
    ms = time_ms(launch, samples, flush)
    flop = 2.0 * case.m * case.n * case.k * case.batch
    return {"group": case.group, "variant": case.variant, "shape": f"{case.batch}x{case.m}x{case.n}x{case.k}",
            "layouts": case.layouts, "swizzle": case.swizzle, "splits": case.splits, "inputs": inputs,
            "err": err, "torch_err": torch_err,
            "ok": err == err and err <= 2 * torch_err + 1e-6,
            "tflops": flop / ms / 1e9, "torch_tflops": flop / torch_ms / 1e9, "ratio": torch_ms / ms}


def pick(lib, kernel, inputs, out, layouts="rr", tile="128x256", stages=4, cluster="1x1", epilogue="identity"):
    head, tail = f"{kernel}.{inputs}>{out}.{layouts}.{tile}x", f".s{stages}.c{cluster}.{epilogue}"
    hits = [v for v in lib.variants if v.startswith(head) and v.endswith(tail)]
    if not hits:
        raise KeyError(f"no variant {head}*{tail}")
    return hits[0]


def cases(lib, quick):
    sizes = [4096] if quick else [4096, 8192]
    out = []
    for dt in ["bf16", "fp16"]:
        for s in sizes:
            for v in [pick(lib, "pipelined", dt, dt), pick(lib, "ws", dt, dt), pick(lib, "ws", dt, dt, cluster="2x1"),
                      pick(lib, "pingpong", dt, dt, tile="128x128", stages=6)]:
                out.append(Case(f"{dt} square", v, s, s, s))
    ws = pick(lib, "ws", "bf16", "bf16")
    for m, n, k in [(4097, 3001, 2049), (1000, 1000, 1000), (8192, 512, 4096)]:
        out.append(Case("bf16 irregular", ws, m, n, k))
    for lay in ["rr", "rc", "cr", "cc"]:
        out.append(Case("bf16 layouts", pick(lib, "ws", "bf16", "bf16", lay), 4096, 4096, 4096, layouts=lay))
    out.append(Case("bf16 batched", ws, 1024, 1024, 1024, batch=16))
    out.append(Case("bf16>f32", pick(lib, "ws", "bf16", "f32"), 4096, 4096, 4096))
    out.append(Case("bf16 bias+relu", pick(lib, "ws", "bf16", "bf16", epilogue="bias_relu"), 4096, 4096, 4096,
                    epilogue="bias_relu"))
    return out + fp32_cases(lib)


# KernelBench level 1's fp32 matmuls at their sizes (uniform [0, 1) inputs, as KernelBench draws
# them): (name, m, n, k, batch, layouts). 10 and 11 multiply a 3-D / 4-D tensor by a matrix: one
# GEMM over the flattened rows. 13 (symmetric) is 1's GEMM; 4 (matrix-vector) and 12/14/15
# (diagonal, triangular) are not plain GEMMs. Two shapes of the first run follow.
KERNELBENCH_FP32 = [
    ("1_Square", 4096, 4096, 4096, 1, "rr"), ("2_Standard", 2048, 4096, 8192, 1, "rr"),
    ("3_Batched", 512, 2048, 1024, 128, "rr"), ("6_large_K", 256, 256, 524288, 1, "rr"),
    ("7_small_K", 32768, 32768, 64, 1, "rr"), ("8_irregular", 8205, 5921, 2949, 1, "rr"),
    ("9_Tall_skinny", 32768, 32768, 32, 1, "rr"), ("10_3D_tensor", 16384, 768, 2048, 1, "rr"),
    ("11_4D_tensor", 1048576, 768, 256, 1, "rr"), ("16_transposed_A", 2048, 4096, 8192, 1, "cr"),
    ("17_transposed_B", 2048, 4096, 8192, 1, "rc"), ("18_transposed_both", 2048, 4096, 8192, 1, "cc"),
    ("large K (first run)", 256, 256, 131072, 1, "rr"), ("tall-skinny (first run)", 32768, 32, 4096, 1, "rr"),
]


def fp32_cases(lib):
    """fp32 by 3xTF32: every variant of both schemes (split in the mainloop: f32; split ahead: 3xtf32)
    at 4096^3, then KernelBench's shapes, split-K chosen by the runner."""
    new = [v for v in lib.variants if ".f32>f32." in v]
    old = [v for v in lib.variants if ".3xtf32>f32." in v]
    out = [Case("fp32 4096^3", v, 4096, 4096, 4096) for v in old + new]
    # At KernelBench's shapes: every split-ahead variant on one SM (a cluster of two did not pay at
    # 4096^3) beside the split in the mainloop at its default tile.
    ahead = [v for v in old if ".c1x1." in v]
    in_mainloop = pick(lib, "ws", "f32", "f32", "any", tile="128x128", stages=5)
    for name, m, n, k, batch, lay in KERNELBENCH_FP32:
        for v in ahead + [in_mainloop]:
            out.append(Case(f"kb {name}", v, m, n, k, batch=batch, layouts=lay, uniform=True))
    large_k = pick(lib, "ws", "f32", "f32", "any", tile="128x128")
    out.append(Case("kb large K, no split-K", large_k, 256, 256, 131072, uniform=True, splits=1))
    # Ragged tiles, a K no TMA row can start on (the pre-pass pads it), split-K ranges of unequal length.
    out += [Case("kb odd sizes, split-K", v, 300, 200, 100003) for v in new]
    return out


def sweep_cases(lib, quick):
    variants = [v for v in lib.variants if re.match(r"(ws|pingpong)\.bf16>bf16\.rr\.", v) and v.endswith(".identity")]
    out = []
    for s in ([8192] if quick else [4096, 8192]):
        for v in variants:
            for swizzle in ([1, 8, 16] if quick else [1, 2, 4, 8, 16]):
                out.append(Case(f"sweep {s}", v, s, s, s, swizzle=swizzle))
    return out


def print_table(rows, title):
    print(f"\n== {title}")
    print(f"{'group':<26} {'variant':<44} {'shape':<22} {'lay':<3} {'sw':>3} {'err':>9} {'torch err':>9} "
          f"{'TFLOP/s':>8} {'torch':>8} {'ratio':>6}")
    for r in rows:
        print(f"{r['group']:<26} {r['variant']:<44} {r['shape']:<22} {r['layouts']:<3} {r['swizzle']:>3} "
              f"{r['err']:>9.2e} {r['torch_err']:>9.2e} {r['tflops']:>8.1f} {r['torch_tflops']:>8.1f} "
              f"{r['ratio']:>6.3f}{'' if r['ok'] else '  WRONG'}")


def summarize(paths):
    """The best correct row per (group, shape, layouts, inputs) across runs, so the fp32 schemes (f32:
    split in the mainloop; 3xtf32: split ahead) stand side by side; wrong rows are listed too."""
    rows, failed = [], 0
    for p in paths:
        try:
            with open(p) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print(f"missing {p}: {e} (that run crashed or timed out)")
            failed += 1
            continue
        rows += data["rows"]
        failed += data["failed"]
    best = {}
    for r in rows:
        key = (r["group"], r["shape"], r["layouts"], r.get("inputs"))
        if r["ok"] and (key not in best or r["tflops"] > best[key]["tflops"]):
            best[key] = r
    print_table(list(best.values()) + [r for r in rows if not r["ok"]], "summary: best correct variant per case")
    wrong = sum(not r["ok"] for r in rows)
    print(f"\n{len(rows)} rows, {wrong} wrong, {failed} failed or missing runs")
    return 1 if wrong or failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", help="the variants' library (build.sh); needed unless --summarize")
    ap.add_argument("--sweep", action="store_true", help="time every bf16 variant at several swizzles")
    ap.add_argument("--quick", action="store_true", help="fewer sizes")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--only", default="", help="run only cases whose group contains this")
    ap.add_argument("--variants", default="", help="run only variants matching this regex")
    ap.add_argument("--json", help="also write the rows here (for --summarize)")
    ap.add_argument("--summarize", nargs="*", help="print the best row per case from these --json files and exit")
    args = ap.parse_args()
    if args.summarize is not None:
        return summarize(args.summarize)
    if not args.lib:
        ap.error("--lib is required")
    torch.backends.cuda.matmul.allow_tf32 = False  # torch's fp32 baseline is eager fp32, as in KernelBench
    lib = Library(args.lib)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    todo = sweep_cases(lib, args.quick) if args.sweep else cases(lib, args.quick)
    todo = [c for c in todo if args.only in c.group and re.search(args.variants, c.variant)]
    rows, cache, failed = [], {}, 0

    def record():  # after every case, so a run killed by its timeout still leaves what it measured
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"rows": rows, "failed": failed}, f)
    for case in todo:
        try:
            rows.append(run_case(lib, case, args.samples, flush, cache))
            r = rows[-1]
            print(f"{r['group']:<26} {r['variant']:<44} {r['shape']:<22} err {r['err']:.2e} (torch {r['torch_err']:.2e}) "
                  f"{r['tflops']:.1f} vs {r['torch_tflops']:.1f} TFLOP/s", flush=True)
        except Exception as e:  # one broken variant must not hide the others' numbers
            failed += 1
            print(f"FAILED {case.group} {case.variant} {case.m}x{case.n}x{case.k}: {e}", flush=True)
            try:
                torch.cuda.synchronize()
            except Exception:  # a fault poisons the CUDA context: nothing after it can run here
                print("the CUDA context is lost; stopping this run", flush=True)
                record()
                break
        record()
    if args.sweep:
        rows.sort(key=lambda r: (r["group"], -r["tflops"]))
    print_table(rows, "sweep (best first per size)" if args.sweep else "kernels/gemm vs torch.matmul")
    wrong = sum(not r["ok"] for r in rows)
    print(f"\n{len(rows)} cases, {wrong} wrong, {failed} failed to run")
    return 1 if wrong or failed else 0


if __name__ == "__main__":
    sys.exit(main())
