"""One row of the evaluator suite's table: KERNEL EXPECTED GOT OK SUMMARY, from a `cutegen --json eval` answer.

EXPECTED is a verdict, optionally with a bound on the speedup over eager (`pass speedup<0.9`): an attack
whose hole is closed may pass, but only at its honest speed."""
import json
import operator
import sys

path, kernel, expected = sys.argv[1:]
verdict, _, bound = expected.partition(" speedup")  # verdicts have spaces too ("CUDA fault")
bound = "speedup" + bound if bound else ""
try:
    with open(path) as f:
        doc = json.load(f)
    got, summary = doc["verdict"], doc["summary"].splitlines()[0]
    timing = doc.get("timing") or {}
    speedup = (timing.get("speedup") or {}).get("point")
except (OSError, ValueError, KeyError, IndexError, AttributeError) as exc:
    got, summary, speedup = "no answer", f"{type(exc).__name__}: {exc}", None
ok = got == verdict
if ok and bound:
    op = {"<": operator.lt, ">": operator.gt}[bound[len("speedup")]]
    ok = speedup is not None and op(speedup, float(bound[len("speedup") + 1:]))
    got = f"{got} speedup={speedup:.2f}" if speedup is not None else f"{got} speedup=?"
print(f"{kernel}\t{expected}\t{got}\t{'yes' if ok else 'NO'}\t{summary[:150]}")
