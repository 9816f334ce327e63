#!/usr/bin/env bash
# One packed call (binary .cache/bin-pack8): C=PACK (.cache/PACK from scripts/gpu-pack), KB_S seconds of
# evaluations, CC=FILE (in .cache/probe) of tasks for the torch.compile column, COLUMN_S its seconds.
#   carry: .cache/bin-pack8 .deps/wheels .kb .cache/probe .cache/$C   command: C=$C ... bash .cache/probe/callX.sh
O=$OUT; export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1; R=/tmp/r; mkdir -p $R/$C
mkdir -p build/src && cp .cache/bin-pack8/* build/src/
rm -rf .cache/call .cache/xdg-call; mv .cache/$C .cache/call
# A snapshot every 20 s: what the answers were when the device's time ran out still comes back.
( while sleep 20; do tar czf $O/r.tmp -C $R . 2>/dev/null && mv $O/r.tmp $O/r.tgz; done ) & snapper=$!
cc=""; [ -n "${CC:-}" ] && cc="$(cat .cache/probe/$CC)"
env OUT=$R/$C EXPERT_TIMEOUT_S=60 KB_S=${KB_S:-420} COMPILE_COLUMN="$cc" COLUMN_S=${COLUMN_S:-300} bash scripts/gpu-call > /dev/null
kill $snapper; tar czf $O/r.tgz -C $R .; rm -f $O/r.tmp; cat $R/$C/phases.txt
