"""The kernels eager PyTorch and torch.compile launch for a task's forward, for Nsight Compute to time
beside a candidate's (the bar the expert is held to, kernel by kernel).

After warm-up, one forward of each runs inside the NVTX range "torch_kernels"; run it as
  ncu --nvtx --nvtx-include torch_kernels/ --cache-control all --clock-control none \
      --metrics gpu__time_duration.sum python3 bench/torch_kernels.py TASK.py
and each kernel's name tells which path launched it (torch.compile's are named triton_*).
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bridge"))
from cutegen_bridge.task_file import load_task  # noqa: E402  (the evaluator's own task loader)

task = load_task(sys.argv[1])
torch.manual_seed(0)
model = task.Model(*task.get_init_inputs()).cuda().eval()
inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in task.get_inputs()]
compiled = torch.compile(model)
with torch.no_grad():
    for _ in range(3):
        model(*inputs), compiled(*inputs)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("torch_kernels")
    model(*inputs)
    compiled(*inputs)
    torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
