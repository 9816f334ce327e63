# Call 1: what issue 25's acceptance still lacked. Every kernel comes compiled from the CPU machine
# (commands/prep.sh: `cutegen build --task` for the new evaluator, `build --header` with the exact ABI header
# for the old one, into the carried .cache/xdg-new and .cache/xdg-old), so nothing compiles beside timing.
#   1. the 3 ms task's evaluation cost, old then new, default settings;
#   2. the relu cheats not reached before (precision, hang, illegal address, no CuTe);
#   3. side by side, every honest kernel (expert defaults of tasks/, the honest suite kernels), old then new
#      on each kernel in turn, default settings, until STOP_S.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache.tgz; R=$OUT/res; mkdir -p $R; S=$(date +%s)
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
ev() { # evaluator label task kernel expected [settings...]
  local b=build/src/cutegen c=$PWD/.cache/xdg-new; [ $1 = old ] && { b=.old/build/src/cutegen; c=$PWD/.cache/xdg-old; }
  local who=$1 lab=$2 task=$3 k=$4 exp=$5; shift 5
  XDG_CACHE_HOME=$c timeout 120 $b --json "$@" eval $task $k > $R/$who-$lab.json 2> $R/$who-$lab.err
  python3 tests/gpu/verdict_row.py $R/$who-$lab.json "$who $lab" "$exp" | cut -c1-220
}
echo "== 1. cost on the 3 ms task (default settings)"
for b in old new; do ev $b bench3ms bench/relu_3ms.py tests/gpu/relu/honest_relu.cu pass; done
for b in old new; do python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[1].split("/")[-1], "eval_s", d.get("eval_seconds"), "worker", (d.get("worker") or {}))' $R/$b-bench3ms.json | cut -c1-600; done; pack
echo "== 2. relu cheats not reached before"
for c in precision hang illegal_address no_cute; do
  ev new suite-cheat_$c tasks/relu.py tests/gpu/relu/cheat_$c.cu "$(grep "^cheat_$c.cu" tests/gpu/relu/expected.tsv | cut -f2)" --set eval.timeout_s=20
done; pack
echo "== 3. side by side"
T="relu.honest:tests/gpu/relu/honest_relu.cu:relu layernorm_rows_768.honest:tests/gpu/layernorm_rows_768/honest_layernorm.cu:layernorm_rows_768"
for k in .prep/kernels/*.cu; do t=$(basename $k .cu); T="$T $t:$k:$t"; done
for e in $T; do IFS=: read lab k t <<< "$e"
  [ $(( $(date +%s) - S )) -gt ${STOP_S:-540} ] && { echo "stopped before $lab"; break; }
  for b in old new; do ev $b $lab tasks/$t.py $k pass; done; done
python3 bench/side_by_side.py $R > $R/side_by_side.md 2>&1; cat $R/side_by_side.md; pack
