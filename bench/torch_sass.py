"""torch.compile's kernels for a task, disassembled: the instruction-by-instruction bar for the
expert's kernel (as for LayerNorm over rows of 768, results/h200/2026-11-30-expert-ln768/).

  python3 bench/torch_sass.py TASK.py OUT_DIR

Compiles the task's model with a fresh Inductor and Triton cache under OUT_DIR/cache, writes each
Triton kernel's SASS (cuobjdump -sass) to OUT_DIR/<kernel>_<cache folder>.sass (autotuning compiles
a kernel once per config) and prints, per kernel, its config, instruction count and most frequent
opcodes. Needs a GPU and cuobjdump on PATH.
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
task_path, out_dir = sys.argv[1], os.path.abspath(sys.argv[2])
cache = os.path.join(out_dir, "cache")
os.makedirs(cache, exist_ok=True)
# Set before torch is imported, so that this run's kernels alone land there.
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
os.environ["TRITON_CACHE_DIR"] = os.path.join(cache, "triton")

import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bridge"))
from cutegen_bridge.task_file import load_task  # noqa: E402  (the evaluator's own task loader)

task = load_task(task_path)
torch.manual_seed(0)
model = task.Model(*task.get_init_inputs()).cuda().eval()
inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
with torch.no_grad():
    torch.compile(model)(*inputs)
torch.cuda.synchronize()

instruction = re.compile(r"^\s+/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9._]*)", re.M)
cubins = sorted(glob.glob(os.path.join(cache, "triton", "**", "*.cubin"), recursive=True))
if not cubins:
    sys.exit("torch_sass: torch.compile produced no Triton kernel for " + task_path)
for cubin in cubins:
    # Autotuning compiles one kernel name once per config, each in its own cache folder.
    kernel = os.path.splitext(os.path.basename(cubin))[0]
    name = kernel + "_" + os.path.basename(os.path.dirname(cubin))[:8]
    config = ""
    try:
        with open(os.path.splitext(cubin)[0] + ".json") as f:
            meta = json.load(f)
        config = f"num_warps {meta.get('num_warps')}, num_stages {meta.get('num_stages')}; "
    except (OSError, ValueError):
        pass
    sass = subprocess.run(["cuobjdump", "-sass", cubin], check=True, capture_output=True, text=True).stdout
    with open(os.path.join(out_dir, name + ".sass"), "w") as f:
        f.write(sass)
    ops = collections.Counter(instruction.findall(sass))
    top = ", ".join(f"{op} {n}" for op, n in ops.most_common(8))
    print(f"{name}: {config}{sum(ops.values())} instructions ({top})")
