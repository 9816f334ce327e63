"""Write-only bandwidth on the GPU, the floor of a GEMM whose output dominates (KernelBench level 1's
7 and 9: a 32768 x 32768 fp32 output): fill_ and zero_ of a 4 GiB fp32 tensor, a 2 GiB copy, and torch.matmul
at those two shapes; CUDA events, median of 20 after 3 warm-ups. Usage: python3 bench/write_bandwidth.py"""
import torch, statistics
def t(fn, n=20):
    for _ in range(3): fn()
    ts = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    return statistics.median(ts)
out = torch.empty(32768, 32768, device="cuda")
ms = t(lambda: out.fill_(1.0)); print(f"fill_ 4 GiB fp32: {ms:.4f} ms = {out.numel()*4/ms/1e9:.3f} TB/s write")
ms = t(lambda: out.zero_()); print(f"zero_ 4 GiB fp32: {ms:.4f} ms = {out.numel()*4/ms/1e9:.3f} TB/s write")
src = torch.empty(16384, 32768, device="cuda"); dst = torch.empty_like(src)
ms = t(lambda: dst.copy_(src)); print(f"copy 2 GiB fp32: {ms:.4f} ms = {2*src.numel()*4/ms/1e9:.3f} TB/s read+write")
for k in (32, 64):
    a = torch.rand(32768, k, device="cuda"); b = torch.rand(k, 32768, device="cuda")
    ms = t(lambda: torch.matmul(a, b, out=out)); print(f"torch.matmul 32768x32768 K={k} fp32: {ms:.4f} ms")
