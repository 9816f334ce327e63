# Sixteenth session (2026-12-03), the device tool's H200, carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# .cache/call (call.sh and make.sh beside this file, the kernels and their build cache).
# Every kernel was emitted on the CPU machine by `cutegen expert TASK --emit` at the commit named,
# compiled there into a build cache (prep.sh: `cutegen build --task`), and packed with make.sh:
#   bash make.sh KERNEL.cu ...   # -> .cache/call/entries.txt (TASK.py:KERNEL.cu), cu/, cache.tgz
# A kernel's name is its task's, with a suffix for the commit that emitted it:
#   (none)   aed2e18 (the session's start; listed only where the task's kernel is unchanged since)
#   _nt      89db989 (narrow N tiles)          _pk     dd4df54 (the row packing; narrow tiles)
#   _fold    f7b330d (the unit-width fold)     _unroll 3bb9b56 (the direct template's unrolled taps)
#   _mw      5608c4d (merged W phases)         _tf32, _tf32x3: level 2's 78 at f7b330d, both points
# Call A (binary at 5608c4d): 53 entries (pk, nt, unroll, fold, 78's two points, then the baselines);
# the call's 440 s ran out after 19 (the entries sorted by name), then profiles of 8_pk and 54_unroll:
PROFILE="$P8 $P54" KB_S=440 PROFILE_S=45 bash .cache/call/call3.sh
# Call B (binary at 04417c2: the spec cache on): the 19 merged-W kernels, the 9 call A missed, then
# the 23 tasks whose kernels are unchanged since aed2e18 (44 evaluated in 510 s), a profile of 26_mw:
PROFILE=".kb/level2/26_ConvTranspose3d_Add_HardSwish.py:.cache/call/cu/26_ConvTranspose3d_Add_HardSwish_mw.cu" KB_S=510 PROFILE_S=45 bash .cache/call/call3.sh
# Call C: the 7 of those call B did not reach (entries.txt cut to them):
KB_S=200 bash .cache/call/call3.sh
# Call D: level 2's 78 through the expert's measured search at 04417c2 (both points' builds prepared):
bash .cache/call/run78.sh
