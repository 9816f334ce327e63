export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
NEW=build/src/cutegen OLD=.old/build/src/cutegen
mkdir -p /tmp/res; S=$(date +%s)
pack() { tar czf $OUT/results.tgz -C /tmp res; }
row() { python3 - "$@" <<'PY'
import json, sys
f, n, exp = sys.argv[1], sys.argv[2], sys.argv[3]
try: d = json.load(open(f))
except Exception as e: print(f"{n:30s} NO ANSWER"); sys.exit()
t = d.get("timing") or {}
c = (t.get("candidate") or {}).get("median"); e = (t.get("eager") or {}).get("median")
ph = ((d.get("worker") or {}).get("timing") or {}).get("reference_phases_ms", {}).get("eager")
print(f"{n:30s} exp {exp:9s} got {d.get('verdict'):12s} cand {c} eager {e} phases {ph} eval_s {d.get('eval_seconds',0):.1f} | {d.get('summary','')[:110]}")
PY
}
ev() { # label bin name task kernel expected
  XDG_CACHE_HOME=/tmp/cache-$1 $2 --json --set eval.timed_runs=30 --set eval.trials=2 --set eval.timeout_s=60 eval $4 $5 > /tmp/res/$1-$3.json 2>/tmp/res/$1-$3.err
  row /tmp/res/$1-$3.json "$1 $3" "$6"
}
for t in layernorm_rows_768 log_softmax_classes; do $NEW expert tasks/$t.py --emit > /tmp/$t.cu; done
# compile everything first, in parallel, into each binary's own cache
for b in old new; do B=$OLD; [ $b = new ] && B=$NEW
  for t in relu layernorm_rows_768 log_softmax_classes; do XDG_CACHE_HOME=/tmp/cache-$b $B --json task tasks/$t.py | python3 -c 'import json,sys; print(json.load(sys.stdin)["abi_header"])' > /tmp/$t-$b.h; done
  [ $b = new ] && for t in relu layernorm_rows_768 log_softmax_classes; do XDG_CACHE_HOME=/tmp/cache-$b $B expert tasks/$t.py >/dev/null 2>&1; done
done
echo "prebuild start $(( $(date +%s) - S )) s"
(for k in tests/gpu/adversarial/*.cu tests/gpu/relu/honest_relu.cu; do echo "old relu $k"; done; for k in /tmp/layernorm_rows_768.cu; do echo "old layernorm_rows_768 $k"; done; echo "old log_softmax_classes /tmp/log_softmax_classes.cu") | xargs -P 16 -L 1 sh -c 'XDG_CACHE_HOME=/tmp/cache-$0 .old/build/src/cutegen build --header /tmp/$1-$0.h $2 >/dev/null 2>&1'
echo "old bench header"; XDG_CACHE_HOME=/tmp/cache-old $OLD --json task bench/relu_3ms.py | python3 -c 'import json,sys; print(json.load(sys.stdin)["abi_header"])' > /tmp/b3.h; XDG_CACHE_HOME=/tmp/cache-old $OLD build --header /tmp/b3.h tests/gpu/relu/honest_relu.cu > /dev/null 2>&1
echo "prebuild old done $(( $(date +%s) - S )) s"
# the new evaluator's builds carry its harness glue: build them by correctness-only evaluations, in parallel
(for k in tests/gpu/adversarial/*.cu tests/gpu/relu/honest_relu.cu; do echo "tasks/relu.py $k"; done; echo "tasks/layernorm_rows_768.py /tmp/layernorm_rows_768.cu"; echo "tasks/log_softmax_classes.py /tmp/log_softmax_classes.cu"; echo "bench/relu_3ms.py tests/gpu/relu/honest_relu.cu") | xargs -P 8 -L 1 sh -c 'XDG_CACHE_HOME=/tmp/cache-new build/src/cutegen --set eval.trials=1 --set eval.timeout_s=60 eval --no-time $0 $1 >/dev/null 2>&1'
echo "prebuild new done $(( $(date +%s) - S )) s"
echo "== old evaluator: adversarial"
while IFS=$'\t' read -r k exp; do case "$k" in ''|'#'*) continue;; esac; ev old $OLD ${k%.cu} tasks/relu.py tests/gpu/adversarial/$k $exp; done < tests/gpu/adversarial/expected_today.tsv
pack; echo "t=$(( $(date +%s) - S )) s"
echo "== side by side: honest kernels"
for b in old new; do B=$OLD; [ $b = new ] && B=$NEW
  ev $b $B honest_relu tasks/relu.py tests/gpu/relu/honest_relu.cu pass
  ev $b $B ln768 tasks/layernorm_rows_768.py /tmp/layernorm_rows_768.cu pass
  ev $b $B lsm_classes tasks/log_softmax_classes.py /tmp/log_softmax_classes.cu pass
done
pack; echo "t=$(( $(date +%s) - S )) s"
echo "== new evaluator: adversarial classes 1-3"
while IFS=$'\t' read -r k exp; do case "$k" in ''|'#'*|adv_cute*|adv_dlopen*) continue;; esac; ev new $NEW ${k%.cu} tasks/relu.py tests/gpu/adversarial/$k $exp; done < tests/gpu/adversarial/expected.tsv
pack; echo "t=$(( $(date +%s) - S )) s"
echo "== bench: 3 ms task"
ev old $OLD bench3ms bench/relu_3ms.py tests/gpu/relu/honest_relu.cu pass
ev new $NEW bench3ms bench/relu_3ms.py tests/gpu/relu/honest_relu.cu pass
pack; echo "t=$(( $(date +%s) - S )) s"
