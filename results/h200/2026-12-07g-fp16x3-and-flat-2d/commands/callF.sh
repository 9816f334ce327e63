#!/usr/bin/env bash
# Thirty-sixth session (binary .cache/bin-pack7 at 43e186c): fp16x3 (fp32 split ahead into fp16 parts) on
# level 1's GEMMs beside their defaults (6 split ahead for it), and level 1's 2-D transposed 57 and 71 at flat
# tiles beside their defaults.
#   carry: .cache/bin-pack7 .deps/wheels .kb .cache/probe .cache/callF   command: bash .cache/probe/callF.sh
O=$OUT; export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1; R=/tmp/r; mkdir -p $R/callF
mkdir -p build/src && cp .cache/bin-pack7/* build/src/
rm -rf .cache/call .cache/xdg-call; mv .cache/callF .cache/call
# A snapshot every 20 s: what the answers were when the device's time ran out still comes back.
( while sleep 20; do tar czf $O/r.tmp -C $R . 2>/dev/null && mv $O/r.tmp $O/r.tgz; done ) & snapper=$!
env OUT=$R/callF EXPERT_TIMEOUT_S=60 KB_S=${KB_S:-420} bash scripts/gpu-call > /dev/null
kill $snapper; tar czf $O/r.tgz -C $R .; rm -f $O/r.tmp; cat $R/callF/phases.txt
