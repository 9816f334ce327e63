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
        if func in _device_constructors():
            kwargs["device"] = self.device
        elif func in (torch.Tensor.cuda, torch.Tensor.cpu):
            return args[0].to(self.device)
        elif func is torch.Tensor.to:
            args = tuple(self.device if isinstance(a, (str, torch.device)) else a for a in args)
            if "device" in kwargs:
                kwargs["device"] = self.device
        return func(*args, **kwargs)


class OpRecorder(TorchDispatchMode):
    """Records the name of every aten op that reaches dispatch, in order ("aten.relu.default")."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))
