# Exported by CuTeGen for task `{{task}}`: a drop-in ModelNew for PyTorch and KernelBench.
#
# ModelNew derives from the task's own Model, whose source travels in this file: constructing it
# runs the reference constructor, so under the same torch.manual_seed it draws the same random
# numbers and holds the same parameters and buffers under the same state_dict keys as Model. Only
# forward differs: it checks its inputs against what the kernel was compiled for (shapes are
# compile-time constants in it), then calls cutegen_forward on torch's current stream.
#
# The kernel's source travels here too, so the file works exec'd from a string (as KernelBench
# loads a solution), with no __file__: on the first call it is compiled with nvcc (CUDA_HOME,
# CUDACXX or PATH) against the CUTLASS headers in CUTEGEN_CUTLASS_DIR, and the library is kept in
# a cache folder under the hash of what went into it: $CUTEGEN_BUILD_CACHE_DIR/export, else
# $XDG_CACHE_HOME/cutegen/export, else ~/.cache/cutegen/export.
# (This file's template is src/agent/export_model_new.py in CuTeGen.)
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile

import torch

# What the kernel was compiled for, written by `cutegen export`:{{data}}

_SCALAR_CTYPES = {"double": ctypes.c_double, "int64_t": ctypes.c_int64, "bool": ctypes.c_bool}
# Python types each ABI scalar accepts (bool is an int in Python, so it is refused where it is no bool).
_SCALAR_PY = {"double": (int, float), "int64_t": (int,), "bool": (bool,)}


def _reference_model():
    """The task's Model class, from its source run in a namespace of its own (nothing leaks out)."""
    namespace = {"__name__": "cutegen_reference_" + _TASK}
    exec(compile(_REFERENCE_SOURCE, "<cutegen reference: " + _TASK + ">", "exec"), namespace)
    return namespace["Model"]


def _cache_dir():
    if os.environ.get("CUTEGEN_BUILD_CACHE_DIR"):
        return os.path.join(os.environ["CUTEGEN_BUILD_CACHE_DIR"], "export")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cutegen", "export")


def _find_nvcc():
    """As cutegen finds it: CUDA_HOME/bin/nvcc, then CUDACXX, then nvcc on PATH, then /usr/local/cuda."""
    home = os.environ.get("CUDA_HOME")
    candidates = [os.path.join(home, "bin", "nvcc") if home else "", os.environ.get("CUDACXX", ""),
                  shutil.which("nvcc") or "", "/usr/local/cuda/bin/nvcc"]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    raise RuntimeError("nvcc not found (tried CUDA_HOME, CUDACXX, PATH and /usr/local/cuda/bin): "
                       "install the CUDA toolkit or set CUDA_HOME")


def _find_cutlass_include():
    root = os.environ.get("CUTEGEN_CUTLASS_DIR")
    if not root:
        raise RuntimeError("CUTLASS/CuTe headers not found: set CUTEGEN_CUTLASS_DIR to a CUTLASS checkout "
                           "or its include/ folder")
    for include in (root, os.path.join(root, "include")):
        if os.path.isfile(os.path.join(include, "cute", "tensor.hpp")):
            return os.path.abspath(include)
    raise RuntimeError("CUTEGEN_CUTLASS_DIR=" + root + " holds no cute/tensor.hpp "
                       "(expected a CUTLASS checkout or its include/ folder)")


def _build():
    """The kernel's shared library, compiled once per (source, flags, nvcc, CUTLASS)."""
    nvcc, include = _find_nvcc(), _find_cutlass_include()
    version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    with open(os.path.join(include, "cutlass", "version.h"), "rb") as f:
        cutlass_version = f.read()
    key = hashlib.sha256(b"\0".join([_KERNEL_SOURCE.encode(), " ".join(_NVCC_FLAGS).encode(), version.encode(),
                                     cutlass_version])).hexdigest()[:32]
    library = os.path.join(_cache_dir(), _TASK + "-" + key + ".so")
    if os.path.exists(library):
        return library
    os.makedirs(_cache_dir(), exist_ok=True)
    # Compiled in a private folder and renamed into place, so a concurrent user never sees half a file.
    work = tempfile.mkdtemp(prefix=_TASK + "-", dir=_cache_dir())
    try:
        source = os.path.join(work, _TASK + "_cutegen.cu")
        with open(source, "wb") as f:
            f.write(_KERNEL_SOURCE.encode())
        done = subprocess.run([nvcc, *_NVCC_FLAGS, "-I" + include, source, "-o", os.path.join(work, "kernel.so")],
                              capture_output=True, text=True)
        if done.returncode != 0:
            log = (done.stderr + done.stdout).strip().splitlines()
            raise RuntimeError("nvcc failed to build the " + _TASK + " kernel (exit " + str(done.returncode) +
                               "):\n" + "\n".join(log[-30:]))
        os.replace(os.path.join(work, "kernel.so"), library)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return library


def _load(library):
    forward = ctypes.CDLL(library).cutegen_forward
    forward.argtypes = [_SCALAR_CTYPES[a["ctype"]] if "ctype" in a else ctypes.c_void_p for a in _INPUTS] + \
        [ctypes.c_void_p] * (len(_STATE) + len(_OUTPUTS) + 1)
    forward.restype = None
    return forward


_kernel_function = None


def _kernel():
    global _kernel_function
    if _kernel_function is None:
        _kernel_function = _load(_build())
    return _kernel_function


def _strides_match(t, want):
    """Strides as the kernel assumes them; a dimension of size 1 is never stepped over."""
    return all(size == 1 or got == w for size, got, w in zip(t.shape, t.stride(), want))


def _check_tensor(what, t, want, device):
    """Raises a ValueError naming `what` unless t has the dtype, shape and strides the kernel was compiled
    for and lies on `device` (a CUDA device). Device comes last, so every check but it runs on a CPU."""
    if not isinstance(t, torch.Tensor):
        raise ValueError(what + ": expected a tensor, got " + type(t).__name__)
    if t.dtype != want["dtype"]:
        raise ValueError(what + ": expected dtype " + str(want["dtype"]) + ", got " + str(t.dtype))
    if tuple(t.shape) != want["shape"]:
        raise ValueError(what + ": expected shape " + str(want["shape"]) + " (compiled into the kernel), got " +
                         str(tuple(t.shape)))
    if not _strides_match(t, want["strides"]):
        raise ValueError(what + ": expected strides " + str(want["strides"]) + " (the kernel's layout; "
                         "call .contiguous()), got " + str(t.stride()))
    if t.device.type != "cuda":
        raise ValueError(what + ": expected a tensor on a CUDA device, got one on " + str(t.device))
    if device is not None and t.device != device:
        raise ValueError(what + ": expected a tensor on " + str(device) + " (where the first input is), got " +
                         str(t.device))


def _check_scalar(what, value, ctype):
    kinds = _SCALAR_PY[ctype]
    if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
        raise ValueError(what + ": expected a " + " or ".join(k.__name__ for k in kinds) + " (passed as " + ctype +
                         "), got " + type(value).__name__)


class ModelNew(_reference_model()):
    """The task's Model with forward replaced by the CuTe kernel; construction, parameters, buffers
    and state_dict are the reference's own."""

    def forward(self, *args):
        if len(args) != len(_INPUTS):
            raise ValueError("ModelNew.forward takes " + str(len(_INPUTS)) + " inputs (" +
                             ", ".join(a["name"] for a in _INPUTS) + "), got " + str(len(args)))
        device, values = None, []
        for want, value in zip(_INPUTS, args):
            if "ctype" in want:
                _check_scalar("input " + want["name"], value, want["ctype"])
            else:
                _check_tensor("input " + want["name"], value, want, device)
                device = device or value.device
            values.append(value)
        # Parameters and buffers in ABI order, from the module's own state (named_* also holds
        # buffers that state_dict leaves out); a non-contiguous copy is made contiguous if that fits.
        state = dict(self.named_parameters(remove_duplicate=False))
        state.update(self.named_buffers(remove_duplicate=False))
        for want in _STATE:
            if want["name"] not in state:
                raise ValueError("the model holds no " + want["name"] + " (the kernel reads it)")
            t = state[want["name"]].detach()
            if isinstance(t, torch.Tensor) and not _strides_match(t, want["strides"]):
                t = t.contiguous()
            _check_tensor("the model's " + want["name"] + " (move the model with .to(device))", t, want, device)
            values.append(t)
        kernel = _kernel()
        with torch.cuda.device(device):
            outputs = [torch.empty_strided(o["shape"], o["strides"], dtype=o["dtype"], device=device) for o in _OUTPUTS]
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            kernel(*[v.data_ptr() if isinstance(v, torch.Tensor) else v for v in values],
                   *[o.data_ptr() for o in outputs], stream)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
