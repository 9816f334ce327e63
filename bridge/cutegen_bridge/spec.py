"""`spec`: what a task computes, without computing it.

Model and inputs are built on the meta device (shapes, dtypes and strides, no data), so a task
with many GB of tensors is described in a second on a machine without a GPU. Code that needs
real values (.item(), data-dependent shapes) falls back to the CPU.
"""
import inspect
import math
import os
import random

import torch
import torch.nn as nn
from torch.utils._pytree import tree_flatten
from torch.utils.flop_counter import FlopCounterMode

from .task_file import TaskError, call_user, load_task
from .tracing import OpRecorder, PinDevice

DTYPE_NAMES = {
    torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float64: "float64",
    torch.int64: "int64", torch.int32: "int32", torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}
# Checked in order: bool before int, since bool is an int in Python.
SCALAR_CTYPES = ((bool, "bool"), (int, "int64_t"), (float, "double"))
INT64_RANGE = (-(2**63 - 1), 2**63 - 1)  # -2**63 is left out: C++ has no literal for it
DEVICES = ("meta", "cpu")


def configure(parser):
    parser.add_argument("--task", required=True, help="KernelBench-style problem file")
    parser.add_argument("--seed", type=int, default=0, help="seed for Model construction and get_inputs()")


def run(args):
    return describe(args.task, args.seed)


def describe(path, seed):
    module = load_task(path)
    failures = []
    for device in DEVICES:
        try:
            spec = trace(module, seed, device)
        except TaskError as exc:
            if exc.kind not in ("init", "inputs", "forward"):
                raise
            failures.append(exc)
            continue
        spec = {"name": module_name(path), "path": os.path.abspath(path), "seed": seed, **spec, "traced_on": device}
        return spec
    # The last device's failure is the real one; say that the meta attempt failed too.
    last = failures[-1]
    last.detail = f"(on the meta device: {failures[0]})\n{last.detail}"
    raise last


def module_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def trace(module, seed, device):
    torch.manual_seed(seed)
    random.seed(seed)
    with torch.no_grad(), PinDevice(device):
        init_args = call_user("get_init_inputs()", lambda: list(module.get_init_inputs()), kind="init")
        model = call_user("Model(*get_init_inputs())", module.Model, *init_args, kind="init")
        if not isinstance(model, nn.Module):
            raise TaskError(f"Model(...) made a {type(model).__name__}, not an nn.Module", kind="no_model")
        model.eval()  # as the evaluator runs it (evaluate.py): dropout off, batch norm from running statistics
        constants = describe_constants(module.Model, init_args, model)
        inputs = call_user("get_inputs()", lambda: list(module.get_inputs()), kind="inputs")
        if not any(isinstance(x, torch.Tensor) for x in inputs):
            raise TaskError("get_inputs() returns no tensors", kind="no_tensors")
        recorder = OpRecorder()
        for n, x in zip(argument_names(model.forward, len(inputs)), inputs):
            recorder.name_tensor(x, "in:" + n)
        for n, t in model.state_dict(keep_vars=True).items():
            recorder.name_tensor(t, "param:" + n)
        with FlopCounterMode(display=False) as counter, recorder:
            result = call_user("Model.forward", model, *inputs, kind="forward")
    outputs = [x for x in tree_flatten(result)[0] if isinstance(x, torch.Tensor)]
    if not outputs:
        raise TaskError(f"Model.forward returns no tensors (it returned a {type(result).__name__})",
                        kind="no_tensors")
    names = argument_names(model.forward, len(inputs))
    described = [describe_input(n, x) for n, x in zip(names, inputs)]
    mark_fixed_scalars(module, seed, device, described)
    spec = {
        "init_args": [repr(a) for a in init_args],
        "inputs": described,
        "params": describe_state(model),
        "constants": constants,
        "outputs": [tensor_entry(n, t) for n, t in zip(output_names(len(outputs)), outputs)],
        "ops": recorder.ops,
        "flops": int(counter.get_total_flops()),
        # Optional and additive: the ops with their arguments, then {"op": "output", "args": [...]}.
        "graph": recorder.graph + [recorder.output_entry(outputs)],
    }
    spec["min_bytes"] = sum(e["bytes"] for e in spec["inputs"] + spec["params"] + spec["outputs"] if "bytes" in e)
    return spec


def mark_fixed_scalars(module, seed, device, described):
    """A scalar input is `fixed` when get_inputs() gives it again under another seed (the trials
    use seed, seed + 1, ...): only then may the ABI state it as a constant."""
    scalars = [e for e in described if e["kind"] == "scalar"]
    if not scalars:
        return
    torch.manual_seed(seed + 1)
    random.seed(seed + 1)
    with torch.no_grad(), PinDevice(device):
        again = call_user("get_inputs()", lambda: list(module.get_inputs()), kind="inputs")
    for e, x in zip(described, again):
        if e["kind"] == "scalar":
            e["fixed"] = type(x) is type(e["value"]) and x == e["value"]


def argument_names(forward, count):
    """Names of forward's positional parameters; arguments absorbed by *args are arg<i>."""
    try:
        params = inspect.signature(forward).parameters.values()
    except (TypeError, ValueError):
        params = []
    names = []
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        names.append(p.name)
    names = names[:count]
    return names + [f"arg{i}" for i in range(len(names), count)]


def output_names(count):
    return ["out"] if count == 1 else [f"out{i}" for i in range(count)]


def tensor_entry(name, t, kind=None):
    if t.dtype not in DTYPE_NAMES:
        raise TaskError(f"{name} has dtype {t.dtype}; supported: {', '.join(DTYPE_NAMES.values())}",
                        kind="unsupported")
    entry = {"name": name}
    if kind:
        entry["kind"] = kind
    entry.update(dtype=DTYPE_NAMES[t.dtype], shape=list(t.shape), strides=list(t.stride()),
                 bytes=t.numel() * t.element_size())
    return entry


def describe_input(name, x):
    if isinstance(x, torch.Tensor):
        return tensor_entry(name, x, "tensor")
    for py_type, ctype in SCALAR_CTYPES:
        if isinstance(x, py_type):
            return {"name": name, "kind": "scalar", "ctype": ctype, "value": x}
    raise TaskError(f"input `{name}` is a {type(x).__name__}: only tensors and int/float/bool scalars "
                    "can be passed to a kernel", kind="unsupported")


def describe_state(model):
    """Parameters and buffers in state_dict order, then buffers that state_dict leaves out."""
    params = dict(model.named_parameters(remove_duplicate=False))
    buffers = dict(model.named_buffers(remove_duplicate=False))
    entries = []
    for name, t in model.state_dict(keep_vars=True).items():
        entries.append(tensor_entry(name, t, "parameter" if name in params else "buffer"))
    seen = {e["name"] for e in entries}
    entries += [tensor_entry(n, t, "buffer") for n, t in buffers.items() if n not in seen]
    return entries


def scalar_entry(name, value, source):
    """{"name", "source", "ctype", "value"} for a Python number a C constant can hold, else None.
    JSON has no inf or NaN, so those travel as the strings "inf", "-inf" and "nan"."""
    ctype = next((c for t, c in SCALAR_CTYPES if isinstance(value, t)), None)
    if ctype is None or (ctype == "int64_t" and not INT64_RANGE[0] <= value <= INT64_RANGE[1]):
        return None
    if ctype == "double" and not math.isfinite(value):
        value = repr(value)
    return {"name": name, "source": source, "ctype": ctype, "value": value}


def describe_constants(model_class, init_args, model):
    """The model's Python numbers: the constructor's scalar arguments by parameter name (defaults
    included), then the scalar attributes of the module tree ("multiplier", "act.negative_slope"),
    leaving out an attribute that only repeats the argument of its name."""
    entries = []
    try:
        bound = inspect.signature(model_class).bind(*init_args)
        bound.apply_defaults()
        arguments = bound.arguments
    except (TypeError, ValueError):  # no signature to bind to: the attributes still say it
        arguments = {}
    for name, value in arguments.items():
        entries.append(scalar_entry(name, value, "init"))
    known = {(e["name"], e["value"]) for e in entries if e}
    for prefix, sub in model.named_modules():
        for attr, value in vars(sub).items():
            if attr.startswith("_") or attr == "training":
                continue
            entry = scalar_entry(f"{prefix}.{attr}" if prefix else attr, value, "attribute")
            if entry and (entry["name"], entry["value"]) not in known:
                entries.append(entry)
    return [e for e in entries if e]
