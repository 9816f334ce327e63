"""Eager's error and TF32 operands' error against float64 for many tasks in one GPU call: the numbers
the evaluator's baseline states (its Session.precision_errors, on the same seed's inputs), from which
the expert picks a convolution's precision (docs/decisions.md conv-precision-from-eager); one line of
JSON per task, for `cutegen expert TASK --precision EAGER_ERR,TF32_ERR`.

  python3 bench/precision_column.py --out precision.jsonl TASK.py...

Each line: {"task", "eager_rel_err", "tf32_rel_err", "seconds"}, or {"task", "error"} where the task's
model or its float64 form failed (the others go on).
"""
import argparse
import json
import os
import sys
import time

from compile_column import error_line, session  # the evaluator's Session over a task; a failed task's line


def errors(task, seed):
    import torch

    t0 = time.time()
    s = session(task, seed)
    doc = {"task": task, **s.precision_errors(), "seconds": round(time.time() - t0, 1)}
    del s
    torch.cuda.empty_cache()
    return doc


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="JSON lines, one a task (appended)")
    parser.add_argument("--seed", type=int, default=0, help="the evaluator's eval.seed")
    parser.add_argument("tasks", nargs="+")
    args = parser.parse_args()
    with open(args.out, "a") as out:
        for task in args.tasks:
            try:
                doc = errors(task, args.seed)
            except Exception as exc:  # noqa: BLE001 (a task's failure is its line; the others go on)
                doc = error_line(task, exc)
            out.write(json.dumps(doc) + "\n")
            out.flush()
            print(f"{os.path.basename(task)}: " +
                  (doc.get("error") or f"eager {doc['eager_rel_err']}, tf32 {doc['tf32_rel_err']}"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
