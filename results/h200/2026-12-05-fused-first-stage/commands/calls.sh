# Twenty-second session (2026-12-05), the device tool's H200, each call carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# .cache/call (made by scripts/gpu-pack in sessions 20-21 from the kernels named in each call's
# emitted.tsv, emitted by `cutegen expert TASK --emit [--params PARAMS]` and compiled on the CPU
# machine). Every call:
KB_S=540 bash scripts/gpu-call
