# Call 3 (the session's last device minutes): (1) the side by side for the kernels call 2 did not reach;
# (2) `cutegen resume gpus-all`, the run call 2's time cut (its folder carried back in .runs/), then its
# status and report.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache.tgz; R=$OUT/res; mkdir -p $R/run; S=$(date +%s)
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
ev() { # evaluator label task kernel expected [settings...]
  local b=build/src/cutegen c=$PWD/.cache/xdg-new; [ $1 = old ] && { b=.old/build/src/cutegen; c=$PWD/.cache/xdg-old; }
  local who=$1 lab=$2 task=$3 k=$4 exp=$5; shift 5
  XDG_CACHE_HOME=$c timeout 120 $b --json "$@" eval $task $k > $R/$who-$lab.json 2> $R/$who-$lab.err
  python3 tests/gpu/verdict_row.py $R/$who-$lab.json "$who $lab" "$exp" | cut -c1-220
}
echo "== 1. side by side, the rest"
for t in matmul_bf16 matmul_fp32 new_gelu relu rmsnorm scale_bias_leaky selu sigmoid softmax softmax_small_odd sum_dim; do
  [ $(( $(date +%s) - S )) -gt ${STOP_S:-200} ] && { echo "stopped before $t"; break; }
  for b in old new; do ev $b $t tasks/$t.py .prep/kernels/$t.cu pass; done; done
python3 bench/side_by_side.py $R > $R/side_by_side.md 2>&1; cat $R/side_by_side.md; pack
echo "== 2. resume the run"
XDG_CACHE_HOME=$PWD/.cache/xdg-new timeout $(( ${END_S:-375} - ($(date +%s) - S) )) build/src/cutegen --set eval.trials=2 \
  --set eval.timed_runs=30 --set agent.target_roofline=0 resume gpus-all > $R/run/resume.txt 2>&1; echo "resume exit $?" | tee -a $R/run/resume.txt
build/src/cutegen status gpus-all > $R/run/status.txt 2>&1; build/src/cutegen report gpus-all --out $R/run/report.html > $R/run/report.txt 2>&1
cp .runs/gpus-all/summary.md $R/run/ 2>/dev/null; tar czf $R/run/run-folder.tgz -C .runs gpus-all; tail -8 $R/run/resume.txt; cat $R/run/status.txt; pack
