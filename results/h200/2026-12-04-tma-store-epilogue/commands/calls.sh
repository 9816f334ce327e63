# Eighteenth session (2026-12-04), the device tool's H200, each call carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# .cache/call (made by scripts/gpu-pack from the kernels named in each call's emitted.tsv, emitted by
# `cutegen expert TASK --emit [--params PARAMS]` and, for callA and callB, compiled on the CPU machine
# into .cache/xdg-s18 with `XDG_CACHE_HOME=.cache/xdg-s18 cutegen build --task TASK KERNEL.cu`).
# Call A (write_bandwidth.py was then .cache/s18probe/write_bw.py, the same file, carried):
python3 bench/write_bandwidth.py > $OUT/write_bw.txt 2>&1
PROFILE=".kb/level1/9_Tall_skinny_matrix_multiplication_.py:.cache/call/cu/9_Tall_skinny_matrix_multiplication_.cu" \
  KB_S=400 PROFILE_S=60 bash scripts/gpu-call
# Call B:
PROFILE=".kb/level1/9_Tall_skinny_matrix_multiplication_.py:.cache/call/cu/9_Tall_skinny_matrix_multiplication__tma.cu" \
  KB_S=400 PROFILE_S=60 bash scripts/gpu-call
# Call C (packed without builds: scripts/gpu's expert stage compiled them on the GPU machine):
KB_S=420 bash scripts/gpu-call
