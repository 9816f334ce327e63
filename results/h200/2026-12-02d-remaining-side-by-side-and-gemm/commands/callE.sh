# Call E (issue 25): why matmul_bf16 times 8-11% slower on the old evaluator, its eager too: the SM
# clock and power, sampled every 50 ms by nvidia-smi, while old then new evaluate it (prebuilt kernels).
# Carry: build/src/cutegen, build/src/cutegen-runner, .deps/wheels, .old, .prep/cache-sbs.tgz, .prep/kernels
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-sbs.tgz; R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 50 > $R/smi.csv &
mark() { echo "$1 $(date '+%Y/%m/%d %H:%M:%S.%N')" >> $R/marks.txt; }
for round in 1; do for b in old new; do
  bin=build/src/cutegen; c=$PWD/.cache/xdg-new; [ $b = old ] && { bin=.old/build/src/cutegen; c=$PWD/.cache/xdg-old; }
  mark "$b$round start"
  XDG_CACHE_HOME=$c timeout 60 $bin --json eval tasks/matmul_bf16.py .prep/kernels/matmul_bf16.cu > $R/$b$round.json 2> $R/$b$round.err
  mark "$b$round end"
  python3 tests/gpu/verdict_row.py $R/$b$round.json "$b$round" pass | cut -c1-160
done; done
kill %1; python3 results/h200/2026-12-02d-remaining-side-by-side-and-gemm/commands/clock_windows.py $R/smi.csv $R/marks.txt; tar czf $OUT/res.tgz -C $OUT res
