# Next session, call C (issue 27): Nsight Compute on the fp32 GEMM, then the expert's GEMMs on KernelBench
# (kernels prebuilt into .prep/cache-kb.tgz = .cache/xdg-kb; carry build/src/cutegen, build/src/cutegen-runner,
# build/gemm-bench, .deps/wheels, .prep/cache-kb.tgz, .kb).
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-kb.tgz; S=$(date +%s)
timeout 120 bench/gemm/run.sh --profile-fp32 > $OUT/profile_fp32.txt 2>&1; tail -60 $OUT/profile_fp32.txt | cut -c1-160
XDG_CACHE_HOME=$PWD/.cache/xdg-kb KB_GLOB=gemm EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout $(( 570 - ($(date +%s) - S) )) scripts/gpu $OUT/kb kb
cat .gpu/kb.txt | cut -c1-200
