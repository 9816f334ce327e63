"""The old and new evaluators side by side: one table row per kernel from DIR/old-NAME.json and
DIR/new-NAME.json (`cutegen --json eval` answers), candidate and eager medians and their differences,
then the largest candidate difference among kernels both passed. With several DIRs (calls of one
comparison), a later DIR's pair of answers replaces an earlier one's.

Usage: python3 bench/side_by_side.py DIR..."""
import glob
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    timing = doc.get("timing") or {}
    median = lambda key: (timing.get(key) or {}).get("median_ms")
    return {"verdict": doc.get("verdict", "?"), "ms": median("candidate"), "eager": median("eager"),
            "seconds": doc.get("eval_seconds")}


def diff(new, old):
    return f"{100.0 * (new - old) / old:+.1f}%" if new and old else "-"


def cell(value, digits=4):
    return f"{value:.{digits}f}" if value is not None else "-"


def main(folders):
    where = {}  # kernel name -> the last folder holding its new answer
    for folder in folders:
        for p in glob.glob(f"{folder}/new-*.json"):
            where[os.path.basename(p)[len("new-"):-len(".json")]] = folder
    names = sorted(where)
    print("| kernel | verdict old/new | candidate ms old | new | diff | eager ms old | new | diff | eval s old/new |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    worst = None
    for name in names:
        folder = where[name]
        old, new = load(f"{folder}/old-{name}.json"), load(f"{folder}/new-{name}.json")
        if old is None or new is None:
            print(f"| {name} | {'no answer' if old is None else old['verdict']}/{'no answer' if new is None else new['verdict']} |"
                  " - | - | - | - | - | - | - |")
            continue
        if old["verdict"] == new["verdict"] == "pass" and old["ms"] and new["ms"]:
            d = abs(new["ms"] - old["ms"]) / old["ms"]
            worst = max(worst or (0.0, ""), (d, name))
        print(f"| {name} | {old['verdict']}/{new['verdict']} | {cell(old['ms'])} | {cell(new['ms'])} | "
              f"{diff(new['ms'], old['ms'])} | {cell(old['eager'])} | {cell(new['eager'])} | {diff(new['eager'], old['eager'])} | "
              f"{cell(old['seconds'], 1)}/{cell(new['seconds'], 1)} |")
    if worst:
        print(f"\nlargest candidate difference among kernels both passed: {100 * worst[0]:.2f}% ({worst[1]})")


if __name__ == "__main__":
    main(sys.argv[1:])
