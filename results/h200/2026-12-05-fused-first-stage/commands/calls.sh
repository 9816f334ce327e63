# Twenty-second session (2026-12-05), the device tool's H200, each call carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# .cache/call (made by scripts/gpu-pack from the entries named in each call's emitted.tsv: emitted by
# `cutegen expert TASK --emit [--params PARAMS]` and compiled on the CPU machine; call3 packed in the
# twenty-first session, call7 in this one).
# Call 3:
KB_S=540 bash scripts/gpu-call
# Call 7:
KB_S=490 bash scripts/gpu-call
