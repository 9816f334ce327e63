"""The GPU's measured ceilings: device copy bandwidth (read + write) and square matmul rates."""
import torch


def time_ms(fn, reps=20, warmup=3):
    for _ in range(warmup):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    samples.sort()
    return samples[len(samples) // 2]


def measure():
    n = 1 << 29  # 2 GiB of float32 each way
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    copy_ms = time_ms(lambda: dst.copy_(src))
    del src, dst
    out = {"copy_bytes_per_s": 2 * n * 4 / (copy_ms * 1e-3)}
    size = 8192
    for name, dtype, tf32 in (("bf16", torch.bfloat16, False), ("fp16", torch.float16, False),
                              ("tf32", torch.float32, True), ("fp32", torch.float32, False)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = torch.randn(size, size, device="cuda", dtype=dtype)
        b = torch.randn(size, size, device="cuda", dtype=dtype)
        ms = time_ms(lambda: a @ b, reps=10)
        out[f"{name}_flops_per_s"] = 2 * size ** 3 / (ms * 1e-3)
    torch.backends.cuda.matmul.allow_tf32 = False
    out["device"] = torch.cuda.get_device_name(0)
    return out
