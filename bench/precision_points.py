"""The pack entries (scripts/gpu-pack's TASK.py@PARAMS) of the convolutions whose default point moves
once the baseline's precision facts are known: for each line of bench/precision_column.py's output,
`cutegen expert TASK --precision EAGER,TF32` against `cutegen expert TASK`, and the keys that differ.

  python3 bench/precision_points.py [--cutegen build/src/cutegen] precision_column.jsonl

Prints one entry a line (TASK.py@k=v,...) for the tasks whose default moves, and on stderr why each
other task stays (no precision facts, the same default, or not a task the expert accepts)."""
import argparse
import json
import subprocess
import sys


def default_point(cutegen, task, precision=None):
    cmd = [cutegen, "expert", task] + (["--precision", precision] if precision else [])
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("default point: ")), None)
    return None if line is None else dict(kv.split("=", 1) for kv in line[len("default point: "):].split(","))


def changes(cutegen, doc):
    eager, tf32 = doc.get("eager_rel_err"), doc.get("tf32_rel_err")
    if not eager or not tf32:
        return None, "no precision facts"
    before = default_point(cutegen, doc["task"])
    after = default_point(cutegen, doc["task"], f"{eager:.3e},{tf32:.3e}")
    if before is None or after is None:
        return None, "the expert names no default point"
    moved = [f"{k}={v}" for k, v in after.items() if before.get(k) != v]
    return (",".join(moved), None) if moved else (None, "the same default")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cutegen", default="build/src/cutegen")
    parser.add_argument("column", help="bench/precision_column.py's JSON lines")
    args = parser.parse_args()
    for line in open(args.column):
        doc = json.loads(line)
        moved, why = changes(args.cutegen, doc)
        if moved:
            print(f"{doc['task']}@{moved}")
        else:
            print(f"{doc['task']}: {why}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
