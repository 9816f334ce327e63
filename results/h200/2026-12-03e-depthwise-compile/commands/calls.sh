# Seventeenth session (2026-12-03), the device tool's H200, carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# .cache/call (the kernels and their build cache). `bash .cache/call/call3.sh` below ran the steps
# that are now scripts/gpu-call (its copy with COMPILE added), make.sh those of scripts/gpu-pack
# (results/h200/2026-12-03d-conv-families/commands/make.sh).
# Every kernel was emitted on the CPU machine by `cutegen expert TASK --emit`, compiled there into a
# build cache (prep.sh: every level-2 task and level-1 convolution at 215bafb), packed with make.sh:
#   bash make.sh KERNEL.cu ...   # -> .cache/call/entries.txt (TASK.py:KERNEL.cu), cu/, cache.tgz
# A kernel's name is its task's, with a suffix for a variant:
#   (none)  215bafb (the session's start); level 1's 82-85 at 2e7bd29 (the depthwise template)
#   _d24    215bafb with classify's direct threshold C/G x S <= 16 raised to 24 (not committed): the
#           direct fp32 template for level 2's convolutions over 8 channels instead of 3xTF32
#   _pp     215bafb's kernel with its GemmConfig<..., 128, 128, 6> edited to <..., 128, 128, 6, 1, 1, 1>:
#           the ping-pong consumers (one warpgroup per tile) instead of the cooperative ones
#     sed -E 's/ColMajor, ([0-9]+), ([0-9]+), ([0-9]+)>;/ColMajor, \1, \2, \3, 1, 1, 1>;/'
# Call A: the four depthwise kernels and level 2's 1-8, with torch.compile (COMPILE=true). Its
# warm-up pass then was the bridge compiling the model in a process of its own (since replaced): the
# timed evaluations missed Inductor's cache and compiled again inside their reference phase.
COMPILE=true KB_S=480 bash .cache/call/call3.sh
# Call B: _d24 and _pp variants beside the kernels they replace, eager only (the first attempt at
# this call lost its machine to other work and returned nothing):
KB_S=450 bash .cache/call/call3.sh
# Call C: level 2's 9-18 with torch.compile, warmed by scripts/gpu's compile_warm (an evaluation of
# the kernel with one trial and one timed run, in parallel); the timed evaluations' compile_cache
# shows Inductor's FX graph and AOTAutograd cache hits. The 270 s ran out after 6 of the 9.
COMPILE=true KB_S=270 bash .cache/call/call3.sh
