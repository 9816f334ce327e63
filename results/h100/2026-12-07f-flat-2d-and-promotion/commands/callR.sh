#!/usr/bin/env bash
# Thirty-sixth session's first call (binary .cache/bin-pack6 at 674583d):
#   carry: .cache/bin-pack6 .deps/wheels .kb .cache/probe .cache/callR  (~26 MiB)
#   command: bash .cache/probe/callR2.sh   (timeout_s 590); everything returns as one r.tgz
# packR: flat tiles (multiply epilogue) on 11 beside its default; 77, 61 and level 1's 58/61/68 at their
# flat defaults beside pixel_fit=1; 6 default; 3 swapped beside default; 59/68 promote-1 vs _p2; 7/9 at
# 3 and 4 TMA-store buffers beside the default.
O=$OUT; export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1; R=/tmp/r; mkdir -p $R
mkdir -p build/src && cp .cache/bin-pack6/* build/src/
snap() { tar czf $O/r.tgz -C $R .; }
rm -rf .cache/call .cache/xdg-call; mv .cache/callR .cache/call && mkdir -p $R/callR
env OUT=$R/callR EXPERT_TIMEOUT_S=60 KB_S=420 bash scripts/gpu-call > /dev/null; snap
cat $R/*/phases.txt
