"""KernelBench coverage of the CuTe expert: what it accepts, recognizes without a kernel yet, or declines
with the reason (run now, on the CPU), and what its kernels measured on the GPU (read from `cutegen --json
eval` answers), as Markdown table rows, then a count per level.

Usage: python3 bench/kb_coverage.py [--root DIR] [--picks PICKS | --newest] KB_DIR[:KB_DIR...] EAGER_JSON|- RESULT_DIR...
  KB_DIR: ignored folders of KernelBench problem files (.kb/level1:.kb/level2); EAGER_JSON: reference
  eager times (shared/reference/h200_kernelbench_level1_eager_ms.json), - for none; RESULT_DIR: folders of
  `<problem>[@<params>].json` eval answers beside their kernels (or an emitted.tsv naming their
  parameters); a problem's fastest correct answer wins (ties: the folder listed first, so list the
  newest first). PICKS: a TSV of `level<N>/<problem>` and the answer to show for it (a path under
  results/h200 without `.json`: results/coverage/picks.tsv, the measurements of today's defaults that
  BENCHMARKS.md cites); a picked problem shows that answer instead of the fastest one. --newest: a
  problem's answer from the first RESULT_DIR that holds one (list the newest first), its default point of
  then where that folder has it, else the fastest there. --root: the folder the run column and PICKS are
  relative to (default results/h200; results/h100 for the H100's answers).
The count per level ends with expert_table's summary of the measured answers (geometric means over the
correct ones, against eager and, where the answer timed it, torch.compile).
torch.compile's column: the answer's own where its evaluation timed it, else the line for the problem in
a compile_column.jsonl (bench/compile_column.py) of the same call, the answer's folder or the one above.
"""
import concurrent.futures
import json
import os
import subprocess
import sys

from expert_table import cell, numbers, ratio, summary

RESULTS = os.path.join(os.path.dirname(__file__), "..", "results", "h200")
args = sys.argv[1:]
picks, newest = {}, False
while args[:1] in (["--picks"], ["--newest"], ["--root"]):
    if args[0] == "--newest":
        newest, args = True, args[1:]
        continue
    if args[0] == "--root":
        RESULTS = args[1]
    else:
        with open(args[1]) as f:
            picks = dict(l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#"))
    args = args[2:]
kb_dirs, eager_path, result_dirs = args[0].split(":"), args[1], args[2:]
eager_ref = json.load(open(eager_path))["eager_ms"] if eager_path != "-" else {}
cutegen = os.path.join(os.path.dirname(__file__), "..", "build", "src", "cutegen")


NEWS = ("chain recognized: ", "GEMM recognized: ")


def recognition(path):
    """(outcome, what): "accepted" with the template and default point, "recognized" (a GEMM, a
    convolution or a level-2 chain the expert reads but has no kernel for yet) with its recipe, or
    "declined" with the reason: the chain recognizer's where the task has a GEMM or convolution (the
    op that stopped it), the first recognizer's otherwise."""
    r = subprocess.run([cutegen, "--verbose", "expert", path], capture_output=True, text=True, timeout=300)
    if r.returncode == 0:
        lines = dict(l.split(": ", 1) for l in r.stdout.splitlines() if ": " in l)
        return "accepted", f"{r.stdout.splitlines()[1]}; default now {lines.get('default point', '?')}"
    why = (r.stderr.strip().splitlines() or [f"exit {r.returncode} without a message"])[-1].replace("cutegen: ", "")
    why = why.split("the expert's reasons: ", 1)[-1].removesuffix(")")
    for news in NEWS:
        if news in why:
            recipe, _, rest = why[why.index(news):].replace(" (no kernel: ", " (kernel not yet available: ").partition(
                " (kernel not yet available")
            missing = rest.split(")")[0].lstrip(": ")
            return "recognized", recipe + (f" — no kernel: {missing}" if missing else "")
    if "; chain: " in why and "no GEMM or convolution" not in why:
        return "declined", why.split("; chain: ", 1)[1]
    return "declined", why.split("; ")[0]


def answers(d, name):
    """The eval answers for a problem in one folder: its default point (`<name>.json`) and any
    other parameter point (`<name>@<params>.json`)."""
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    return [os.path.join(d, f[:-5]) for f in files if f.endswith(".json") and (f == name + ".json" or f.startswith(name + "@"))]


def kernel_params(stem):
    """The parameter point of the kernel behind an answer: the title line of its .cu beside it, or,
    where results/ keeps only the answer, its row in the emitted.tsv (entry, task, params, binary) of
    its folder or the call folder above it; "params not recorded" where neither is kept."""
    if os.path.exists(stem + ".cu"):
        with open(stem + ".cu") as f:
            title = f.readline()
        return title[title.rfind("[") + 1:title.rfind("]")]
    for d in (os.path.dirname(stem), os.path.dirname(os.path.dirname(stem))):
        tsv = os.path.join(d, "emitted.tsv")
        rows = [l.rstrip("\n").split("\t") for l in open(tsv) if not l.startswith("#")] if os.path.exists(tsv) else []
        row = next((r for r in rows if r[0] == os.path.basename(stem)), None)
        if row:
            return row[2]
    return "params not recorded"


def measured(name, pick=None):
    """The picked answer, else the fastest correct one over the result folders (else the first
    readable one), with its folder and its kernel's parameters (from the .cu's title line)."""
    found = []
    stems = [os.path.join(RESULTS, pick)] if pick else [s for d in result_dirs for s in answers(d, name)]
    if newest and stems and not pick:
        first = [s for s in stems if os.path.dirname(s) == os.path.dirname(stems[0])]
        default = os.path.join(os.path.dirname(stems[0]), name)
        stems = [default] if default in first else first
    for stem in stems:
        try:
            doc = json.load(open(stem + ".json"))
        except (OSError, ValueError):
            continue
        d = os.path.dirname(stem)
        ms = numbers(doc)[0]
        rank = ms if doc.get("verdict") == "pass" and ms else float("inf")
        found.append((rank, len(found), doc, d, kernel_params(stem)))
    return min(found)[2:] if found else (None, None, None)


def column_compile(where, name):
    """torch.compile's median ms for the problem from a compile_column.jsonl of the answer's call (its
    folder or the one above), None where that call has none."""
    for d in (where, os.path.dirname(where)):
        path = os.path.join(d, "compile_column.jsonl")
        lines = [json.loads(l) for l in open(path) if l.strip()] if os.path.exists(path) else []
        hit = next((l for l in lines if os.path.basename(l["task"]) == name + ".py" and "compile_ms" in l), None)
        if hit:
            return hit["compile_ms"]
    return None


def with_compile(doc, ms):
    """The answer with torch.compile's time from the call's compile column, where it timed none itself."""
    timing = dict(doc.get("timing") or {})
    timing["compile"] = {"median_ms": ms}
    return {**doc, "timing": timing}


def fmt(x, f="{:.3f}"):
    return cell(x, f)


print("| problem | eager ms | expert ms | torch.compile ms | floor ms | of floor | vs eager | vs compile | measured kernel (run) | recognized as |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
counts, measured_docs = {}, {}
problems = [(d, f) for d in kb_dirs for f in sorted(os.listdir(d), key=lambda f: int(f.split("_")[0]) if f[0].isdigit() else 10**6)
            if f.endswith(".py") and f[0].isdigit()]
# Recognition loads each problem in Python (seconds each): several at once, the rows in order.
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
    outcomes = list(pool.map(lambda p: recognition(os.path.join(*p)), problems))
for (kb_dir, file), (outcome, what) in zip(problems, outcomes):
    name = file[:-3]
    level = os.path.basename(os.path.normpath(kb_dir))
    counts.setdefault(level, {}).setdefault(outcome, 0)
    counts[level][outcome] += 1
    ok = outcome == "accepted"
    doc, where, params = measured(name, picks.get(f"{level}/{name}")) if ok else (None, None, None)
    column = column_compile(where, name) if doc is not None and numbers(doc)[2] is None else None
    if column is not None:
        doc = with_compile(doc, column)
    ms, eager, comp, floor = numbers(doc or {})
    verdict = (doc or {}).get("verdict")
    run = "not measured" if doc is None else f"{params} ({os.path.relpath(where, RESULTS)})"
    if verdict not in (None, "pass"):
        what = f"**{verdict}** — " + what
    if doc is not None:
        measured_docs.setdefault(level, []).append(doc)
    print(f"| {level}/{name} | {fmt(eager) if eager else fmt(eager_ref.get(file)) + ' (ref)'} | {fmt(ms)} | {fmt(comp)} | {fmt(floor)} | "
          f"{fmt(ratio(ms, floor), '{:.0%}')} | {fmt(ratio(ms, eager), '{:.2f}x')} | {fmt(ratio(ms, comp), '{:.2f}x')} | "
          f"{run if ok else outcome} | {what[:220] if ok else what[:400]} |")
print()
for level, c in counts.items():
    docs = measured_docs.get(level)
    print(f"- {level}: " + ", ".join(f"{c.get(k, 0)} {k}" for k in ("accepted", "recognized", "declined")) +
          " (recognized: read into a recipe, no kernel yet)" + (f"; measured: {summary(docs)}" if docs else ""))
