"""Workloads profiled under Nsight Compute to capture real CSV for the profile parser's tests.

Each runs warm-up launches, then one forward inside the NVTX range "cutegen_profile", the
range the profiler filters on. Usage: python3 ncu_capture.py relu|matmul|linear_relu
"""
import sys

import torch

which = sys.argv[1]
torch.manual_seed(0)
if which == "relu":
    x = torch.randn(4096, 65536, device="cuda")
    fn = lambda: torch.relu(x)
elif which == "matmul":
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    fn = lambda: a @ b
else:  # several kernels in one forward
    lin = torch.nn.Linear(4096, 4096, device="cuda")
    x = torch.randn(2048, 4096, device="cuda")
    fn = lambda: torch.relu(lin(x)).softmax(-1)
for _ in range(3):
    fn()
torch.cuda.synchronize()
torch.cuda.nvtx.range_push("cutegen_profile")
fn()
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
