"""The expert's kernels beside eager and torch.compile, as a Markdown table, then one line of
geometric means over the correct ones (the figures the speed targets are stated in).

Usage: python3 bench/expert_table.py ANSWER.json...  (each a `cutegen --json eval` answer run with
eval.compare_compile=true; the task's name is the file's stem). The floor is the evaluator's roofline
floor: the task's minimum bytes over the measured copy bandwidth (or FLOPs over the math ceiling).
"""
import json
import math
import os
import sys


def cell(x, fmt="{:.4f}"):
    return "—" if x is None else fmt.format(x)


def ratio(a, b):
    """b / a, or None when either is missing."""
    return None if not a or not b else b / a


def numbers(doc):
    """(candidate, eager, torch.compile, floor) in ms from an eval answer; None where absent."""
    timing = doc.get("timing") or {}
    med = lambda k: (timing.get(k) or {}).get("median_ms")
    return med("candidate"), med("eager"), med("compile"), (doc.get("roofline") or {}).get("floor_ms")


def load(path):
    """The answer, or the exception that kept it from being read."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as exc:
        return exc


def row(path, doc):
    name = os.path.splitext(os.path.basename(path))[0]
    if isinstance(doc, Exception):
        return f"| {name} | no answer ({type(doc).__name__}) | | | | | | | |"
    ms, eager, comp, floor = numbers(doc)
    verdict = doc.get("verdict", "?")
    if verdict != "pass":
        verdict += ": " + doc.get("summary", "").splitlines()[0][:120] if doc.get("summary") else ""
    return (f"| {name} | {verdict} | {cell(ms)} | {cell(eager)} | {cell(comp)} | {cell(floor)} | "
            f"{cell(ratio(ms, floor), '{:.0%}')} | {cell(ratio(ms, eager), '{:.2f}x')} | {cell(ratio(ms, comp), '{:.2f}x')} |")


def summary(docs):
    """Geometric mean speedups over the passing answers, against eager and (where timed) torch.compile,
    with how many are at or above 1x."""
    passed = [numbers(d) for d in docs if isinstance(d, dict) and d.get("verdict") == "pass"]
    parts = [f"{len(passed)} of {len(docs)} correct"]
    for label, i in (("eager", 1), ("torch.compile", 2)):
        speedups = [x for x in (ratio(n[0], n[i]) for n in passed) if x]
        if speedups:
            mean = math.exp(sum(math.log(x) for x in speedups) / len(speedups))
            at_least = sum(x >= 1 for x in speedups)
            parts.append(f"{mean:.2f}x {label} over {len(speedups)} ({at_least} at or above it)")
    return "; ".join(parts)


if __name__ == "__main__":
    docs = [load(p) for p in sys.argv[1:]]
    print("| task | verdict | expert ms | eager ms | torch.compile ms | floor ms | of roofline | vs eager | vs torch.compile |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for p, d in zip(sys.argv[1:], docs):
        print(row(p, d))
    print()
    print("Geometric means: " + summary(docs) + ".")
