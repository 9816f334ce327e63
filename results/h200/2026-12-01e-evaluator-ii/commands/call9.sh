export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
B=build/src/cutegen
ev() { # name task kernel
  /usr/bin/time -f "%e s wall" $B --json --set eval.timed_runs=30 eval $2 $3 > $OUT/$1.json 2>$OUT/$1.err; echo "$1 exit $?"; tail -1 $OUT/$1.err
  python3 -c "import json;d=json.load(open('$OUT/$1.json'));t=d.get('timing') or {};print(d.get('verdict'),'|',d.get('summary'));print(json.dumps(t.get('accounting')));print(d.get('isolation'))" 2>&1
}
ev relu tasks/relu.py tests/gpu/relu/honest_relu.cu
$B expert tasks/layernorm_rows_768.py --emit > /tmp/ln.cu && ev ln768 tasks/layernorm_rows_768.py /tmp/ln.cu
for f in $(find . ~/.cache -name "runner-*.log" 2>/dev/null | head -3); do echo "== $f"; tail -3 $f; done
