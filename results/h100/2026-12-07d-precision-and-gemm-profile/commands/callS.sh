#!/usr/bin/env bash
# Next session's first call (packs of the thirty-fourth session; binary .cache/bin-pack4: a build cache
# key is the kernel's source and flags, so any binary evaluates the packed kernels; the bridge is the tree's,
# with the float64 yardstick on the evaluator's stream):
#   carry: .cache/bin-pack4 .deps/wheels .kb .cache/probe .cache/callP .cache/callM .cache/callG1  (~30 MiB)
#   command: bash .cache/probe/callS.sh      (about 350 s; timeout_s 560); everything returns as one r.tgz
# Then .cache/probe/callS2.sh: level 2's GEMM chains with their torch.compile column.
# 1. the precision column of 25 convolution tasks, clean (then: python3 bench/precision_points.py on it);
# 2. callM: level 2's 8 and 7 on the tensor-core direct template in plain TF32 (conv-direct-mma);
# 3. callP's TF32 / 3xTF32 points again (7, 8, 50 at tf32x1, 78 at tf32x3, 57's old "control");
# 4. callG1: level 1's GEMMs 1-18 at today's defaults (the masked 14 and 15 among them).
O=$OUT; export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1; R=/tmp/r; mkdir -p $R
mkdir -p build/src && cp .cache/bin-pack4/* build/src/
snap() { tar czf $O/r.tgz -C $R .; }
scripts/bootstrap --offline --no-apt --no-torch > /dev/null
timeout 90 python3 bench/precision_column.py --out $R/precision_column.jsonl $(cat .cache/probe/precision_list.txt) \
  > $R/precision_column.txt 2>&1; snap
run() {  # PACK KB_S
  rm -rf .cache/call .cache/xdg-call; mv .cache/$1 .cache/call && mkdir -p $R/$1
  env OUT=$R/$1 EXPERT_TIMEOUT_S=60 KB_S=$2 bash scripts/gpu-call > /dev/null; snap
}
run callM 60
grep -v "_Sum.cu$\|BiasAdd.cu$\|kernel.cu$\|Max_Sum.cu$" .cache/callP/entries.txt > /tmp/e && cp /tmp/e .cache/callP/entries.txt
run callP 80
export PROFILE_S=45 PROFILE='.kb/level1/6_Matmul_with_large_K_dimension_.py:.cache/call/cu/6_Matmul_with_large_K_dimension_.cu .kb/level1/9_Tall_skinny_matrix_multiplication_.py:.cache/call/cu/9_Tall_skinny_matrix_multiplication_.cu'
run callG1 200
cat $R/precision_column.txt; cat $R/*/phases.txt
