# Old (83bf1f1, .old/) and new evaluator side by side; the old path on the adversarial kernels call 11 did not reach;
# a repeat of the two kernels that came out wrong in call 1's runs, with their answers kept.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
NEW=build/src/cutegen OLD=.old/build/src/cutegen R=$OUT/res
mkdir -p $R /tmp/k; S=$(date +%s)
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
ev() { # label name task kernel [extra --set...]
  local b=$NEW; [ $1 = old ] && b=$OLD
  local t0=$(date +%s.%N)
  XDG_CACHE_HOME=/tmp/cache-$1 $b --json --set eval.timed_runs=30 --set eval.trials=2 --set eval.timeout_s=60 "${@:5}" eval $3 $4 > $R/$1-$2.json 2> $R/$1-$2.err
  echo "$1 $2 wall $(python3 -c "import time;print(round(time.time()-$t0,1))") s" >> $R/walls.txt
  python3 tests/gpu/verdict_row.py $R/$1-$2.json "$1 $2" pass | cut -c1-230
}
T="relu:tests/gpu/relu/honest_relu.cu layernorm_rows_768:tests/gpu/layernorm_rows_768/honest_layernorm.cu"
for t in scale_bias_leaky softmax layernorm log_softmax_classes sum_dim rmsnorm gelu_tanh l2norm_embeddings; do
  $NEW expert tasks/$t.py --emit > /tmp/k/$t.cu; T="$T $t:/tmp/k/$t.cu"; done
header() { XDG_CACHE_HOME=/tmp/cache-old $OLD --json task $1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["abi_header"])'; }
{ for e in $T bench/relu_3ms:tests/gpu/relu/honest_relu.cu matmul_bf16:tests/gpu/matmul_bf16/cute_gemm.cu; do
    t=${e%%:*}; k=${e#*:}; [ -f $t.py ] && tp=$t.py || tp=tasks/$t.py
    echo "new $tp $k"; header $tp > /tmp/k/$(basename $t).h; echo "old /tmp/k/$(basename $t).h $k"; done
  for k in tests/gpu/adversarial/adv_*.cu; do echo "oldadv /tmp/k/relu.h $k"; done; } > /tmp/k/jobs
xargs -P 16 -L 1 sh -c 'if [ $0 = new ]; then XDG_CACHE_HOME=/tmp/cache-new build/src/cutegen build --task $1 $2; else XDG_CACHE_HOME=/tmp/cache-$0 .old/build/src/cutegen build --header $1 $2; fi > /dev/null 2>&1' < /tmp/k/jobs
echo "prebuild done"; pack
echo "== the two kernels wrong in call 1, again on the new evaluator"
for i in 1 2; do ev new scale_bias_leaky.$i tasks/scale_bias_leaky.py /tmp/k/scale_bias_leaky.cu; ev new matmul_bf16.$i tasks/matmul_bf16.py tests/gpu/matmul_bf16/cute_gemm.cu --set eval.trials=2; done
pack
echo "== evaluation cost on a 3 ms task (compile cached), old then new, twice"
for i in 1 2; do for b in old new; do ev $b bench3ms.$i bench/relu_3ms.py tests/gpu/relu/honest_relu.cu; done; done
pack
echo "== side by side: honest kernels"
for e in $T; do t=${e%%:*}; k=${e#*:}; for b in old new; do ev $b $t tasks/$t.py $k; done; done
pack
echo "== old evaluator: adversarial kernels call 11 did not reach (own cache, ceilings last)"
for k in skip_unpoisoned nan_input per_thread_stream slow_eager cute_in_string cute_dead_code dlopen_cublas ceilings_cache; do
  exp=$(grep "^adv_$k.cu" tests/gpu/adversarial/expected_today.tsv | cut -f2)
  XDG_CACHE_HOME=/tmp/cache-oldadv $OLD --json --set eval.timed_runs=30 --set eval.trials=2 --set eval.timeout_s=60 eval tasks/relu.py tests/gpu/adversarial/adv_$k.cu > $R/oldadv-$k.json 2> $R/oldadv-$k.err
  python3 tests/gpu/verdict_row.py $R/oldadv-$k.json "old adv_$k" "$exp" | cut -c1-200
done
pack
