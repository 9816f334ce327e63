"""How a candidate's output differs from eager's and from a float64 reference, as a few numbers
(the C++ side turns them into a verdict and a pattern hint)."""
import ctypes
import math
import struct

import numpy as np
import torch

CHUNK = 1 << 26  # elements compared at a time, so float64 copies of huge outputs stay bounded
MAX_BAD_SAMPLE = 1 << 20


def compare(out, eager, ref64, atol, rtol):
    if ref64 is None:
        quick = compare_quick(out, eager, atol, rtol)
        if quick is not None:
            return quick
    return compare_full(out, eager, ref64, atol, rtol)


# The quick check's tolerance is this much tighter than the full check's, more than float32's rounding
# of |o - e| and of atol + rtol * |e| can move an element: what it calls close, the float64 check would.
QUICK_MARGIN = 1 - 1e-5


def compare_quick(out, eager, atol, rtol):
    """The common case of a timed call, an output close to eager's everywhere, in float32 on the device
    with one synchronisation (the full check takes float64 copies and several per chunk: 0.16 s per call
    for 6 GiB outputs). None when any element is not close (NaN and inf included): the full check then
    says which and how."""
    if not (out.is_floating_point() and eager.is_floating_point()) or out.element_size() > 4:
        return None
    if FAST.library is not None and fast_eligible(out, eager):
        return FAST.compare(out, eager, atol * QUICK_MARGIN, rtol * QUICK_MARGIN)
    return compare_quick_torch(out, eager, atol, rtol)


def compare_quick_torch(out, eager, atol, rtol):
    """compare_quick in torch ops, chunk by chunk: where the one-pass kernel is not loaded or the
    output is not contiguous float32."""
    o, e = out.reshape(-1), eager.reshape(-1)
    n = o.numel()
    if n == 0:
        return None
    bad = torch.zeros((), dtype=torch.int64, device=o.device)
    max_abs = torch.zeros((), dtype=torch.float32, device=o.device)
    sum_abs = torch.zeros((), dtype=torch.float64, device=o.device)
    nonzero = torch.zeros((), dtype=torch.bool, device=o.device)
    eager_nonzero = torch.zeros((), dtype=torch.bool, device=o.device)
    for lo in range(0, n, CHUNK):
        oc, ec = o[lo:lo + CHUNK].float(), e[lo:lo + CHUNK].float()
        diff = (oc - ec).abs_()
        bound = ec.abs().mul_(rtol * QUICK_MARGIN).add_(atol * QUICK_MARGIN)
        bad += (~(diff <= bound)).sum()  # NaN compares false: not close
        max_abs = torch.maximum(max_abs, diff.max())
        sum_abs += diff.sum(dtype=torch.float64)
        nonzero |= oc.ne(0).any()
        eager_nonzero |= ec.ne(0).any()
    bad, max_abs, sum_abs, nonzero, eager_nonzero = torch.stack(
        [bad.double(), max_abs.double(), sum_abs, nonzero.double(), eager_nonzero.double()]).tolist()
    return None if bad else close_everywhere(n, max_abs, sum_abs, nonzero, eager_nonzero)


def close_everywhere(n, max_abs, sum_abs, nonzero, eager_nonzero):
    """The answer of a quick check that found every element close."""
    return {"numel": n, "bad": 0, "nan": 0, "max_abs": finite(max_abs), "mean_abs": finite(sum_abs / n),
            "first_bad": -1, "last_bad": -1, "all_zero": not nonzero, "eager_all_zero": not eager_nonzero,
            "bad_stride": 0, "transposed": False}


class FastCompare:
    """compare_quick in one pass (fast_compare.cu, built by the evaluator): float32 outputs on one GPU."""

    def __init__(self):
        self.library = None

    def load(self, path):
        lib = ctypes.CDLL(path)
        fn = lib.cutegen_judge_compare
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_float, ctypes.c_float,
                       ctypes.c_void_p, ctypes.c_void_p]
        fn.restype = ctypes.c_int
        self.library = lib

    def compare(self, out, eager, atol, rtol):
        sums = torch.empty(4, dtype=torch.int64, device=out.device)
        stream = torch.cuda.current_stream(out.device)
        err = self.library.cutegen_judge_compare(out.data_ptr(), eager.data_ptr(), out.numel(), atol, rtol,
                                                 sums.data_ptr(), stream.cuda_stream)
        if err:
            raise RuntimeError(f"the judge's compare kernel failed: CUDA error {err}")
        bad, max_abs, out_nonzero, eager_nonzero, _, sum_abs = struct.unpack("<QfiiId", sums.cpu().numpy().tobytes())
        return None if bad else close_everywhere(out.numel(), max_abs, sum_abs, out_nonzero, eager_nonzero)


FAST = FastCompare()


def fast_eligible(out, eager):
    return (out.is_cuda and out.device == eager.device and out.dtype == eager.dtype == torch.float32
            and out.shape == eager.shape and out.is_contiguous() and eager.is_contiguous() and out.numel() > 0)


def compare_full(out, eager, ref64, atol, rtol):
    o, e = out.reshape(-1), eager.reshape(-1)
    r = ref64.reshape(-1) if ref64 is not None else None
    n = o.numel()
    bad = nan = 0
    max_abs = sum_abs = 0.0
    err2 = eager_err2 = ref2 = 0.0
    first_bad = last_bad = -1
    sample = []
    all_zero = True
    for lo in range(0, n, CHUNK):
        oc, ec = o[lo:lo + CHUNK].double(), e[lo:lo + CHUNK].double()
        # NaN equals nothing, not even eager's NaN: a kernel must not win by making eager's output NaN.
        close = torch.isclose(oc, ec, atol=atol, rtol=rtol, equal_nan=False)
        badc = ~close
        nb = int(badc.sum())
        if nb:
            idx = torch.nonzero(badc).flatten()
            if first_bad < 0:
                first_bad = lo + int(idx[0])
            last_bad = lo + int(idx[-1])
            if len(sample) < MAX_BAD_SAMPLE:
                sample.extend((idx[:MAX_BAD_SAMPLE - len(sample)] + lo).tolist())
        bad += nb
        nan += int((torch.isnan(oc) & ~torch.isnan(ec)).sum())
        diff = (oc - ec).abs().nan_to_num(nan=math.inf)
        max_abs = max(max_abs, float(diff.max()) if diff.numel() else 0.0)
        sum_abs += float(diff.clamp(max=1e300).sum())
        all_zero = all_zero and bool((oc == 0).all())
        if r is not None:
            rc = r[lo:lo + CHUNK]
            err2 += float(((oc - rc) ** 2).sum())
            eager_err2 += float(((ec - rc) ** 2).sum())
            ref2 += float((rc ** 2).sum())
    result = {
        "numel": n, "bad": bad, "nan": nan, "max_abs": finite(max_abs), "mean_abs": finite(sum_abs / max(n, 1)),
        "first_bad": first_bad, "last_bad": last_bad, "all_zero": all_zero and n > 0,
        "eager_all_zero": bool((e == 0).all()) if n else False,
        "bad_stride": stride_of(sample),
        "transposed": bad > 0 and is_transposed(out, eager, atol, rtol),
    }
    if r is not None:
        scale = math.sqrt(ref2) if ref2 > 0 else 1.0
        result["rel_err"] = finite(math.sqrt(err2) / scale)
        result["eager_rel_err"] = finite(math.sqrt(eager_err2) / scale)
    return result


def finite(x):
    """JSON has no inf/NaN; a huge number says the same thing."""
    return x if math.isfinite(x) else 1e308


def stride_of(indices):
    """The gcd of the gaps between bad indices: k > 1 means every k-th element is wrong."""
    if len(indices) < 3:
        return 0
    gaps = np.diff(np.asarray(indices, dtype=np.int64))
    return int(np.gcd.reduce(gaps))


def is_transposed(out, eager, atol, rtol):
    if out.dim() < 2 or out.shape[-1] != out.shape[-2]:
        return False
    return bool(torch.isclose(out.transpose(-1, -2).double(), eager.double(), atol=atol, rtol=rtol).all())
