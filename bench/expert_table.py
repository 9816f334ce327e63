"""The expert's kernels beside eager and torch.compile, as a Markdown table.

Usage: python3 bench/expert_table.py ANSWER.json...  (each a `cutegen --json eval` answer run with
eval.compare_compile=true; the task's name is the file's stem). The floor is the evaluator's roofline
floor: the task's minimum bytes over the measured copy bandwidth (or FLOPs over the math ceiling).
"""
import json
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


def row(path):
    name = os.path.splitext(os.path.basename(path))[0]
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as exc:
        return f"| {name} | no answer ({type(exc).__name__}) | | | | | | | |"
    ms, eager, comp, floor = numbers(doc)
    verdict = doc.get("verdict", "?")
    if verdict != "pass":
        verdict += ": " + doc.get("summary", "").splitlines()[0][:120] if doc.get("summary") else ""
    return (f"| {name} | {verdict} | {cell(ms)} | {cell(eager)} | {cell(comp)} | {cell(floor)} | "
            f"{cell(ratio(ms, floor), '{:.0%}')} | {cell(ratio(ms, eager), '{:.2f}x')} | {cell(ratio(ms, comp), '{:.2f}x')} |")


if __name__ == "__main__":
    print("| task | verdict | expert ms | eager ms | torch.compile ms | floor ms | of roofline | vs eager | vs torch.compile |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for p in sys.argv[1:]:
        print(row(p))
