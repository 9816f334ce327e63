#!/bin/sh
# Stands in for `python -m cutegen_bridge eval --out OUT ARGS...` in tests. It answers with the
# file named after the mode from the folder the harness passes as PYTHONPATH (the "bridge"):
# <mode>.json is copied to OUT, or <mode>-seed<SEED>.json where the run's --seed has one;
# <mode>.sh, if present, is run instead (to hang or crash).
out=""; mode="full"; seed=""; prev=""
for a in "$@"; do
  [ "$prev" = "--out" ] && out="$a"
  [ "$prev" = "--mode" ] && mode="$a"
  [ "$prev" = "--seed" ] && seed="$a"
  prev="$a"
done
env > "$PYTHONPATH/last_env.txt"
echo "$@" > "$PYTHONPATH/last_args.txt"
[ -f "$PYTHONPATH/$mode.sh" ] && exec sh "$PYTHONPATH/$mode.sh"
[ -f "$PYTHONPATH/$mode-seed$seed.json" ] && exec cp "$PYTHONPATH/$mode-seed$seed.json" "$out"
cp "$PYTHONPATH/$mode.json" "$out"
