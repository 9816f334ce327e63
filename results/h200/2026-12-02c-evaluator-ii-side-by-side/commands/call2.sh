# Call 2 (as run, but for the key `library`, which read `library_path` and failed: the one-pass row of
# compare_cost.md is missing; the judge itself used the one-pass check): (1) the judge's verify cost piece by piece (bench/compare_cost.py), with the one-pass check
# (fast_compare.cu) beside torch's, and the 3 ms task again with verify's sub-phases; (2) the side by side for the kernels call 1 did not reach, and the expert's
# batched_matmul again after the static gate's launch fix; (3) issue 28's `cutegen run --gpus all` with its
# report, nothing running beside it (its first steps, the expert defaults, found in the cache; cut by the
# call's end, it is resumed in call 3). Kernels of (1)-(2) compiled on the CPU machine (commands/prep.sh).
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
echo "== 1. verify cost"
lib=$(XDG_CACHE_HOME=$PWD/.cache/xdg-new build/src/cutegen --json build bridge/cutegen_bridge/fast_compare.cu | python3 -c 'import json,sys; print(json.load(sys.stdin)["library"])')
python3 bench/compare_cost.py $lib | tee $R/compare_cost.md
ev new bench3ms bench/relu_3ms.py tests/gpu/relu/honest_relu.cu pass
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("eval_s", d["eval_seconds"], d["worker"]["judge_seconds"])' $R/new-bench3ms.json; pack
echo "== 2. side by side, the rest"
for t in batched_matmul layernorm_long_ragged layernorm_rows_768 linear_bias_relu linear_multiply_leaky log_softmax \
         log_softmax_classes matmul_bf16 matmul_fp32 new_gelu relu rmsnorm scale_bias_leaky selu sigmoid softmax softmax_small_odd sum_dim; do
  [ $(( $(date +%s) - S )) -gt ${STOP_S:-300} ] && { echo "stopped before $t"; break; }
  for b in old new; do ev $b $t tasks/$t.py .prep/kernels/$t.cu pass; done; done
python3 bench/side_by_side.py $R > $R/side_by_side.md 2>&1; cat $R/side_by_side.md; pack
echo "== 3. run --gpus all"
XDG_CACHE_HOME=$PWD/.cache/xdg-new timeout $(( ${END_S:-575} - ($(date +%s) - S) )) build/src/cutegen --set eval.trials=2 --set eval.timed_runs=30 \
  --set agent.target_roofline=0 run tasks/{relu,softmax,layernorm_rows_768,scale_bias_leaky,matmul_bf16}.py \
  --agent expert --max-steps 3 --gpus all --run-id gpus-all > $R/run/run.txt 2>&1; echo "run exit $?" | tee -a $R/run/run.txt
build/src/cutegen status gpus-all > $R/run/status.txt 2>&1; build/src/cutegen report gpus-all --out $R/run/report.html > $R/run/report.txt 2>&1
cp .runs/gpus-all/summary.md $R/run/ 2>/dev/null; tar czf $R/run/run-folder.tgz -C .runs gpus-all; tail -8 $R/run/run.txt; pack
