"""What the judge's check of one timed call costs on a large output, piece by piece (GPU, CUDA events,
median of 5): the input-mutation check, eager's run with its input copy, and the comparisons; with LIB
(fast_compare.cu built: `cutegen --json build bridge/cutegen_bridge/fast_compare.cu`), the one-pass check
too, and whether it answers as the torch formulation does on a close output, one element off and a NaN.

Usage: python3 bench/compare_cost.py [LIB] [ROWS COLS]   (default 4096 x 393216 fp32: bench/relu_3ms.py's size)"""
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bridge"))
from cutegen_bridge.compare import FAST, compare_full, compare_quick, compare_quick_torch  # noqa: E402


def ms(fn, reps=5):
    times = []
    for _ in range(reps + 1):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times[1:])


def agreement(out, eager):
    """The one-pass check's answers against torch's on three outputs: the same, or what differs."""
    cases = []
    for name, change in (("close", None), ("one element off", 1.0), ("a NaN", float("nan"))):
        o = out.clone()
        if change is not None:
            o.view(-1)[o.numel() // 3] += change
        torch_answer, fast_answer = compare_quick_torch(o, eager, 1e-5, 1e-5), compare_quick(o, eager, 1e-5, 1e-5)
        same = (torch_answer is None) == (fast_answer is None) and (
            torch_answer is None or all(abs(torch_answer[k] - fast_answer[k]) <= 1e-6 * max(1.0, abs(torch_answer[k]))
                                        for k in ("max_abs", "mean_abs", "all_zero", "eager_all_zero")))
        cases.append(f"{name}: {'same' if same else f'DIFFERENT torch {torch_answer} fast {fast_answer}'}")
    return "; ".join(cases)


def main(lib, rows, cols):
    x = torch.randn(rows, cols, device="cuda")
    p = x.clone()
    out = torch.relu(x)
    eager = torch.relu(x)
    gib = x.numel() * 4 / 2**30
    rows_ = [("torch.equal(input, pristine)", lambda: torch.equal(x, p)),
             ("clone(input)", lambda: x.clone()),
             ("relu(input)", lambda: torch.relu(x)),
             ("compare_quick in torch", lambda: compare_quick_torch(out, eager, 1e-5, 1e-5)),
             ("compare_full, no float64", lambda: compare_full(out, eager, None, 1e-5, 1e-5)),
             ("sub", lambda: torch.sub(out, eager)),
             ("abs", lambda: out.abs()),
             ("max", lambda: out.max()),
             ("sum float64", lambda: out.sum(dtype=torch.float64))]
    if lib:
        FAST.load(lib)
        rows_.insert(4, ("compare_quick, one pass (fast_compare.cu)", lambda: compare_quick(out, eager, 1e-5, 1e-5)))
        print("agreement with torch's check:", agreement(out, eager))
    print(f"{rows} x {cols} fp32 ({gib:.1f} GiB per tensor), {torch.cuda.get_device_name()}")
    print("| step | ms | GB/s of one tensor |")
    print("|---|---:|---:|")
    for name, fn in rows_:
        t = ms(fn)
        print(f"| {name} | {t:.2f} | {gib * 2**30 / t / 1e6:.0f} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    lib = args.pop(0) if args and not args[0].isdigit() else None
    main(lib, *(int(a) for a in args[:2]) if len(args) >= 2 else (4096, 393216))
