"""One row of the evaluator suite's table: KERNEL EXPECTED GOT OK SUMMARY, from a `cutegen --json eval` answer."""
import json
import sys

path, kernel, expected = sys.argv[1:]
try:
    with open(path) as f:
        doc = json.load(f)
    got, summary = doc["verdict"], doc["summary"].splitlines()[0]
except (OSError, ValueError, KeyError, IndexError) as exc:
    got, summary = "no answer", f"{type(exc).__name__}: {exc}"
print(f"{kernel}\t{expected}\t{got}\t{'yes' if got == expected else 'NO'}\t{summary[:150]}")
