#!/bin/sh
# Stands in for `python -m cutegen_bridge eval --out OUT ARGS...` in tests. It answers with the
# file named after the mode from the folder the harness passes as PYTHONPATH (the "bridge"):
# <mode>.json is copied to OUT; <mode>.sh, if present, is run instead (to hang or crash).
out=""; mode="full"; prev=""
for a in "$@"; do
  [ "$prev" = "--out" ] && out="$a"
  [ "$prev" = "--mode" ] && mode="$a"
  prev="$a"
done
env > "$PYTHONPATH/last_env.txt"
echo "$@" > "$PYTHONPATH/last_args.txt"
[ -f "$PYTHONPATH/$mode.sh" ] && exec sh "$PYTHONPATH/$mode.sh"
cp "$PYTHONPATH/$mode.json" "$out"
