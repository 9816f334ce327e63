# Issue 24's GPU stages, then the whole evaluator suite (relu cheats, layernorm, adversarial) on the new evaluator.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
mkdir -p $OUT/a $OUT/b
S=$(date +%s)
scripts/gpu $OUT/a classes agent export > $OUT/a/stdout.txt 2>&1; echo "issue-24 stages done $(( $(date +%s) - S )) s"
tail -40 $OUT/a/stdout.txt
scripts/gpu $OUT/b suite > $OUT/b/stdout.txt 2>&1; echo "suite done $(( $(date +%s) - S )) s"
tail -45 $OUT/b/stdout.txt
