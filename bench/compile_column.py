"""torch.compile's column for many tasks in one GPU call: each task's eager and torch.compile forward
timed side by side by the evaluator's own code (its Session: the task's model with the same seed and
varied constants, its rotated input sets; timing.interleaved: CUDA events, a hold and an L2 flush
before each sample), one line of JSON per task.

The evaluator times torch.compile inside every evaluation of a kernel, 21-30 s each (docs/decisions.md
compile-warm-up), so a level's column took more than a call. Here the graphs compile first, in
parallel processes into one Inductor cache (CPU-bound work, each process running its model once on
the GPU), then one process loads each graph from that cache and times it: a few seconds a task.

  python3 bench/compile_column.py --out compile.jsonl [--jobs 8] [--runs 30] TASK.py...

Each line: {"task", "eager_ms", "compile_ms" (medians), "samples", "input_sets", "compile_cache",
"device"}, or {"task", "error"} where the task's model, its compile or its run failed (the others go on).
Set TORCHINDUCTOR_CACHE_DIR to a folder of the run's own.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bridge"))


def session(task, seed):
    """The evaluator's Session over `task`: its model and varied constants."""
    from cutegen_bridge.evaluate import Session

    return Session(argparse.Namespace(task=task, seed=seed), {"params": [], "outputs": []})


def input_sets(s, seed):
    """The Session's rotated input sets, sized as the evaluator's are: by the inputs and the outputs' bytes
    (one eager run tells those, where the evaluator reads them from the spec)."""
    import torch

    out = s.eager(s.inputs(seed))
    s.spec = {"params": [], "outputs": [{"bytes": t.numel() * t.element_size()} for t in out]}
    del out
    torch.cuda.empty_cache()
    return s.input_sets()


def warm(task, seed):
    """Compiles the task's forward into the Inductor cache (one run: Inductor compiles at the first call)."""
    import torch

    s = session(task, seed)
    compiled = torch.compile(s.model)
    with torch.no_grad():
        compiled(*s.inputs(seed))
    torch.cuda.synchronize()


def timed(task, seed, runs, warmup):
    import torch

    from cutegen_bridge.evaluate import compile_cache_counters, device_facts
    from cutegen_bridge.timing import interleaved, l2_flusher

    from torch._dynamo.utils import counters

    counters.clear()
    s = session(task, seed)
    sets = input_sets(s, seed)
    compiled = torch.compile(s.model)

    def run(model):
        def f(i):
            with torch.no_grad():
                model(*sets[i % len(sets)])
        return f

    samples = interleaved({"eager": run(s.model), "compile": run(compiled)}, runs, warmup, s.stream,
                          l2_flusher(s.stream))
    doc = {"task": task, "eager_ms": statistics.median(samples["eager"]),
           "compile_ms": statistics.median(samples["compile"]), "samples": samples, "input_sets": len(sets),
           "compile_cache": compile_cache_counters(), "device": device_facts()}
    del s, sets, compiled
    torch._dynamo.reset()
    torch.cuda.empty_cache()
    return doc


def error_line(task, exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return {"task": task, "error": text.splitlines()[0] if text else repr(exc)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="JSON lines, one a task (appended)")
    parser.add_argument("--jobs", type=int, default=8, help="tasks compiling at once")
    parser.add_argument("--runs", type=int, default=30, help="timed samples of each side")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=300, help="seconds one task's compile may take")
    parser.add_argument("--warm", action="store_true", help="(internal) compile one task and exit")
    parser.add_argument("tasks", nargs="+")
    args = parser.parse_args()
    if args.warm:
        warm(args.tasks[0], args.seed)
        return 0
    if not args.out:
        parser.error("--out is required")
    if not os.environ.get("TORCHINDUCTOR_CACHE_DIR"):
        parser.error("set TORCHINDUCTOR_CACHE_DIR: the timed pass reads what the parallel one compiled there")

    def compile_one(task):
        t0 = time.time()
        try:
            r = subprocess.run([sys.executable, __file__, "--warm", "--seed", str(args.seed), task],
                               capture_output=True, text=True, timeout=args.timeout)
            ok = r.returncode == 0
            lines = r.stderr.splitlines()
            errors = [l for l in lines if re.match(r"[\w.]+(Error|Exception)\b", l)] or lines or [""]
            tail = errors[-1]
        except subprocess.TimeoutExpired:
            ok, tail = False, f"compile took more than {args.timeout:.0f} s"
        return task, ok, tail, time.time() - t0

    # A task whose compile failed here (out of GPU memory beside the others, say) compiles again in the
    # timed pass, alone.
    with ThreadPoolExecutor(args.jobs) as pool:
        for task, ok, tail, seconds in pool.map(compile_one, args.tasks):
            print(f"compiled {os.path.basename(task)} in {seconds:.0f} s" + ("" if ok else f": {tail}"), flush=True)
    # The configurations Inductor's autotuning picked under contention: each timed pass picks its own.
    for f in glob.glob(os.path.join(os.environ["TORCHINDUCTOR_CACHE_DIR"], "**", "*.best_config"), recursive=True):
        os.remove(f)
    with open(args.out, "a") as out:
        for task in args.tasks:
            try:
                doc = timed(task, args.seed, args.runs, args.warmup)
            except Exception as exc:  # noqa: BLE001 (a task's failure is its line; the others go on)
                doc = error_line(task, exc)
            out.write(json.dumps(doc) + "\n")
            out.flush()
            summary = doc.get("error") or f"eager {doc['eager_ms']:.3f} ms, torch.compile {doc['compile_ms']:.3f} ms"
            print(f"{os.path.basename(task)}: {summary}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
