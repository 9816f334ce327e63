# Issue 25 on the H200, call 1: the whole evaluator suite on the new evaluator (relu cheats, layernorm,
# adversarial), each folder compiled in parallel on the GPU machine first (scripts/gpu's suite stage).
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
R=$OUT/res; mkdir -p $R; S=$(date +%s)
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
timeout ${SUITE_S:-560} scripts/gpu $OUT/suite suite > $R/suite.txt 2>&1; echo "suite exit $?"; pack
tail -36 $R/suite.txt
