"""Running a task's code without its data: every tensor lives on one chosen device (usually meta),
and forward is watched op by op."""
import torch
from torch.overrides import TorchFunctionMode
from torch.utils._device import _device_constructors
from torch.utils._python_dispatch import TorchDispatchMode


class PinDevice(TorchFunctionMode):
    """Creates every tensor on `device` and turns moves (.cuda(), .cpu(), .to("cuda")) into no-ops,
    so task code written for a GPU runs unchanged on the meta device of a machine without one."""

    def __init__(self, device):
        super().__init__()
        self.device = torch.device(device)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func is torch.tensor and args and isinstance(args[0], (bool, int, float)):
            # A constant such as torch.tensor(0.5) stays a 0-d CPU tensor, as a real run's would
            # (usable beside tensors of any device), so that its value can be recorded.
            kwargs["device"] = "cpu"
        elif func in _device_constructors():
            kwargs["device"] = self.device
        elif func in (torch.Tensor.cuda, torch.Tensor.cpu):
            return args[0].to(self.device)
        elif func is torch.Tensor.to:
            args = tuple(self.device if isinstance(a, (str, torch.device)) else a for a in args)
            if "device" in kwargs:
                kwargs["device"] = self.device
        return func(*args, **kwargs)


class OpRecorder(TorchDispatchMode):
    """Records the name of every aten op that reaches dispatch, in order ("aten.relu.default"), and
    the op graph: each op's arguments as references ("in:x", "param:norm.weight", "op:3", "op:3.1")
    or constants ("const:0.5", a 0-d CPU tensor's value too, "str:tanh", "none", lists as JSON arrays,
    anything else "other:..."), and what it made: "results", one entry per result (a tuple's in
    order), each a tensor's dtype, shape, strides and storage offset, or null. A view's strides and
    offset address its base's storage, so a consumer can fold transposes and reshapes into how it
    reads a forward input."""

    def __init__(self):
        super().__init__()
        self.ops = []
        self.graph = []
        self._names = {}  # id(tensor) -> reference; the tensors are kept alive so ids stay unique
        self._alive = []

    def name_tensor(self, tensor, ref):
        if isinstance(tensor, torch.Tensor) and id(tensor) not in self._names:
            self._names[id(tensor)] = ref
            self._alive.append(tensor)

    def encode(self, value):
        if isinstance(value, torch.Tensor):
            if id(value) not in self._names and value.device.type == "cpu" and value.dim() == 0:
                return self.encode(value.item())  # a constant made in forward (PinDevice)
            return self._names.get(id(value), "tensor:unknown")
        if isinstance(value, bool):
            return "const:" + ("true" if value else "false")
        if isinstance(value, (int, float)):
            return "const:" + repr(value)
        if value is None:
            return "none"
        if isinstance(value, str):
            return "str:" + value
        if isinstance(value, (list, tuple)):
            return [self.encode(v) for v in value]
        return "other:" + str(value)

    def output_entry(self, outputs):
        return {"op": "output", "args": [self.encode(t) for t in outputs]}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        index = len(self.ops)
        self.ops.append(str(func))
        self.graph.append({"op": str(func), "args": [self.encode(a) for a in args],
                           "kwargs": {k: self.encode(v) for k, v in kwargs.items()}})
        result = func(*args, **kwargs)
        results = list(result) if isinstance(result, (list, tuple)) else [result]
        self.graph[index]["results"] = [describe_result(r) for r in results]
        if isinstance(result, (list, tuple)):
            for j, r in enumerate(result):
                self.name_tensor(r, f"op:{index}.{j}")
        else:
            self.name_tensor(result, f"op:{index}")
        return result


def describe_result(value):
    if not isinstance(value, torch.Tensor):
        return None
    return {"dtype": str(value.dtype).removeprefix("torch."), "shape": list(value.shape),
            "strides": list(value.stride()), "offset": value.storage_offset()}
