# GPU call: level 2's 78 through the expert's measured search (`cutegen run --agent expert`, two
# steps), with both points' builds prepared on the CPU machine (.cache/call/cache.tgz).
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1 CUTEGEN_TASK_SPEC_CACHE=true
scripts/bootstrap --offline --no-apt --no-torch >/dev/null
tar xzf .cache/call/cache.tgz && export XDG_CACHE_HOME=$PWD/.cache/xdg-call
rm -rf .runs/search-78
timeout 280 build/src/cutegen --set eval.trials=1 --set eval.timed_runs=30 --set agent.target_roofline=0 run \
  .kb/level2/78_ConvTranspose3d_Max_Max_Sum.py --agent expert --max-steps 2 --run-id search-78 > $OUT/run78.txt 2>&1
cp .runs/search-78/summary.md $OUT/ 2>/dev/null; cp .runs/search-78/transcript.jsonl $OUT/ 2>/dev/null
tail -25 $OUT/run78.txt
