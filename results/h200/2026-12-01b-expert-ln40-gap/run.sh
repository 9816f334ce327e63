#!/usr/bin/env bash
# One device call: each ENTRY (TASK:KERNEL, KERNEL a file in kernels/; default below) built and
# evaluated by the hardened evaluator (2 trials of 30 timed runs), then `cutegen profile` (Nsight
# Compute, extended metrics) on the kernels in PROFILE for LayerNorm #40. Usage, on the GPU machine from the repository root:
#   ENTRIES="..." PROFILE="..." run.sh OUT        (OUT receives results.tgz; the table is printed last)
# (calls 1-6 ran it with the tarball written once, at the end)
set -uo pipefail
out="$1"; here="$(cd "$(dirname "$0")" && pwd)"; work="$(mktemp -d)"
export PATH="$PATH:/usr/local/cuda/bin"
L=.kb/level1/40_LayerNorm.py; B=build/src/cutegen
entries="${ENTRIES-$L:hand $L:e_emitted $L:e_rows $L:e_sep $L:e_tree $L:e_slot2 $L:e_all $L:hand}"
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
header() { $B --json task "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["abi_header"])'; }
for e in $entries; do echo "${e%%:*} ${e##*:}"; done | sort -u | while read -r task kernel; do
  [ -f $work/$(basename $task .py).h ] || header $task > $work/$(basename $task .py).h
  echo "$B build --header $work/$(basename $task .py).h $here/kernels/$kernel.cu > $work/$kernel.build 2>&1"
done | xargs -P 8 -I{} sh -c '{}'
for e in $entries; do
  task="${e%%:*}"; n="${e##*:}"; a="$work/$(basename $task .py)-$n"
  timeout 90 $B --json --set eval.trials=2 --set eval.timed_runs=30 eval $task $here/kernels/$n.cu > $a.json 2> $a.err
  echo "$(basename $task .py) $n: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"].splitlines()[0])' $a.json 2>&1)" | tee -a $work/times.txt
  tar czf $out/results.tgz -C $work .  # after every entry, so a call cut short still returns its answers
done
for n in ${PROFILE-}; do
  timeout 150 $B --set profile.extended_metrics=true profile $L $here/kernels/$n.cu > $work/profile_$n.txt 2>&1
done
tar czf $out/results.tgz -C $work .
cat $work/times.txt
