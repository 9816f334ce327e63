"""Learnable parameters that a model's constructor leaves constant, such as nn.LayerNorm's weight of
ones and bias of zeros, would let a kernel that ignores them (or bakes their value in) pass the
correctness check. The evaluator gives them random values first, as training would have."""
import torch


def vary_constant_parameters(model, seed):
    """Each floating-point parameter whose elements are all equal to some c gets random values:
    c * U(0.5, 1.5) where c != 0 (keeping its sign, for scales that must stay positive), U(-0.5, 0.5)
    where c == 0. Buffers (running statistics, masks) are left alone. Returns the names changed."""
    generator = torch.Generator().manual_seed(seed)
    changed = []
    with torch.no_grad():
        for name, p in model.named_parameters():
            if not p.is_floating_point() or p.numel() == 0:
                continue
            first = p.reshape(-1)[0]
            if not bool((p == first).all()):
                continue
            c = first.item()  # a Python number: the noise is made on the CPU, the model may be on a GPU
            noise = torch.rand(p.shape, generator=generator, dtype=torch.float64) - 0.5
            varied = c * (1 + noise) if c != 0 else noise
            p.copy_(varied.to(device=p.device, dtype=p.dtype))
            changed.append(name)
    return changed
