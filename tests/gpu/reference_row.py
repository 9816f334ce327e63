"""Rows of the evaluator suite's table from bench/precision_column.py's lines: the float64 yardstick must be
what it claims. A TF32 convolution's error against it lies near 2^-11 times the output's scale (about
3e-4); one far outside [1e-6, 1e-2] says the yardstick read inputs that were not yet written (a stream
race made 67's 0.998 once) or the rounding broke. Eager's own error must stay below TF32's bound too."""
import json
import os
import sys

for line in open(sys.argv[1]):
    doc = json.loads(line)
    eager, tf32 = doc.get("eager_rel_err"), doc.get("tf32_rel_err")
    ok = eager is not None and tf32 is not None and 1e-6 <= tf32 <= 1e-2 and eager <= 1e-2
    summary = doc.get("error") or f"eager {eager}, tf32 {tf32} against float64"
    print(f"reference {os.path.basename(doc['task'])}\tsane\t{'sane' if ok else 'insane'}\t{'yes' if ok else 'NO'}\t"
          f"{summary[:150]}")
