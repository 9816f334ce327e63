# usage: .gpu3.sh BIN LABEL STAGES...   (stages: adv timing bench)
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
BIN=$1 LABEL=$2; shift 2
R=/tmp/res/$LABEL; mkdir -p $R
ev() { # name task kernel [extra sets]
  local n=$1 t=$2 k=$3; shift 3
  XDG_CACHE_HOME=/tmp/cache-$LABEL $BIN --json --set eval.timed_runs=30 --set eval.trials=2 --set eval.timeout_s=90 "$@" eval $t $k > $R/$n.json 2>$R/$n.err
  python3 - $R/$n.json $n <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"{sys.argv[2]:28s} NO ANSWER {e}"); sys.exit()
t = d.get("timing") or {}
c = (t.get("candidate") or {}).get("median"); e = (t.get("eager") or {}).get("median")
print(f"{sys.argv[2]:28s} {d.get('verdict'):14s} cand {c} eager {e} eval_s {d.get('eval_seconds', 0):.1f} | {d.get('summary','')[:150]}")
PY
}
for s in "$@"; do
  case $s in
  adv) while IFS=$'\t' read -r k exp; do case "$k" in ''|'#'*) continue;; esac; ev adv_${k%.cu} tasks/relu.py tests/gpu/adversarial/$k; echo "   expected $exp"; done < tests/gpu/adversarial/${EXPECTED:-expected}.tsv ;;
  timing)
    ev t_relu tasks/relu.py tests/gpu/relu/honest_relu.cu
    for t in layernorm_rows_768 log_softmax_classes layernorm softmax; do $BIN expert tasks/$t.py --emit > /tmp/$t.cu 2>/dev/null && ev t_$t tasks/$t.py /tmp/$t.cu; done ;;
  bench) for i in 1 2; do ev bench3ms_$i bench/relu_3ms.py tests/gpu/relu/honest_relu.cu; done ;;
  esac
done
tar czf $OUT/$LABEL.tgz -C /tmp/res $LABEL
