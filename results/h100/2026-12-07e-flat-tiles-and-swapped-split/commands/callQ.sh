#!/usr/bin/env bash
# Thirty-fifth session's second call (binary .cache/bin-pack5 at 4833be0):
#   carry: .cache/bin-pack5 .deps/wheels .kb .cache/probe .cache/callQ  (~27 MiB)
#   command: bash .cache/probe/callQ.sh   (timeout_s 590); everything returns as one r.tgz
# Flat pixel tiles (pixel_fit=2) beside the defaults (level 2's 11, 77, 61; level 1's 58, 61, 68);
# level 1's 6: the default (promoting every k-tile), the old default (_p2: every 2), the split in the
# kernel swapped (no pass), and its plain TF32; 3 the same swap; level 2's 59, 68 promoting every
# k-tile beside every 2; 7 and 9 at three and four TMA-store buffers beside the default.
O=$OUT; export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1; R=/tmp/r; mkdir -p $R
mkdir -p build/src && cp .cache/bin-pack5/* build/src/
snap() { tar czf $O/r.tgz -C $R .; }
rm -rf .cache/call .cache/xdg-call; mv .cache/callQ .cache/call && mkdir -p $R/callQ
env OUT=$R/callQ EXPERT_TIMEOUT_S=60 KB_S=150 bash scripts/gpu-call > /dev/null; snap
cat $R/*/phases.txt
