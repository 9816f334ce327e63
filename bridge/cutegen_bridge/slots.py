"""A call's own buffers in the shared memory the runner sees: the candidate's inputs and outputs,
one set per call of a batch, and the model's parameters, one set for all. Arguments go to the
runner as 64-bit slots in ABI order (inputs, parameters, outputs): "p<id>" for a buffer, "x<hex>"
for a scalar's bits."""
import struct

import torch

from .candidate import DTYPES, poison
from .shared_memory import SharedBuffer


def storage_elements(shape, strides):
    if any(d == 0 for d in shape):
        return 0
    return 1 + sum((d - 1) * s for d, s in zip(shape, strides))


class SharedTensor:
    def __init__(self, driver, runner, shape, strides, dtype):
        item = torch.empty((), dtype=dtype).element_size()
        self.buffer = SharedBuffer(driver, max(1, storage_elements(shape, strides)) * item)
        self.tensor = self.buffer.view(shape, strides, dtype)
        self.token = f"p{runner.share(self.buffer)}"

    def free(self):
        del self.tensor
        self.buffer.free()


def scalar_token(entry, value):
    if entry["ctype"] == "double":
        bits = struct.unpack("<Q", struct.pack("<d", float(value)))[0]
    elif entry["ctype"] == "bool":
        bits = int(bool(value))
    else:
        bits = int(value) & (2 ** 64 - 1)
    return f"x{bits:x}"


class Slot:
    def __init__(self, driver, runner, spec):
        self.spec = spec
        self.inputs = [SharedTensor(driver, runner, e["shape"], e["strides"], DTYPES[e["dtype"]])
                       if e["kind"] != "scalar" else None for e in spec["inputs"]]
        self.outputs = [SharedTensor(driver, runner, o["shape"], o["strides"], DTYPES[o["dtype"]])
                        for o in spec["outputs"]]
        self.tokens = None

    def fill(self, values, param_tokens):
        """The call's fresh inputs copied in, its outputs poisoned; returns the call's argument slots."""
        tokens = []
        for entry, shared, value in zip(self.spec["inputs"], self.inputs, values):
            if shared is None:
                tokens.append(scalar_token(entry, value))
            else:
                shared.tensor.copy_(value)
                tokens.append(shared.token)
        poison([o.tensor for o in self.outputs])
        return tokens + param_tokens + [o.token for o in self.outputs]

    def input_tensors(self):
        return [s.tensor if s is not None else None for s in self.inputs]

    def output_tensors(self):
        return [o.tensor for o in self.outputs]

    def free(self):
        for s in self.inputs + self.outputs:
            if s is not None:
                s.free()


def slot_bytes(spec):
    return sum(e.get("bytes", 0) for e in spec["inputs"] + spec["outputs"])
