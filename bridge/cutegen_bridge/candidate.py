"""A compiled candidate: its shared library loaded with ctypes, called through the task's ABI
(`cutegen_forward(inputs..., params..., outputs..., stream)`, in TaskSpec order)."""
import ctypes

import torch

SCALAR_TYPES = {"double": ctypes.c_double, "int64_t": ctypes.c_int64, "bool": ctypes.c_bool}
DTYPES = {
    "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64,
    "int64": torch.int64, "int32": torch.int32, "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
}


class Candidate:
    def __init__(self, lib_path, spec):
        self.spec = spec
        self.lib = ctypes.CDLL(lib_path)
        self.fn = self.lib.cutegen_forward
        argtypes = []
        for entry in spec["inputs"]:
            argtypes.append(SCALAR_TYPES[entry["ctype"]] if entry["kind"] == "scalar" else ctypes.c_void_p)
        argtypes += [ctypes.c_void_p] * (len(spec["params"]) + len(spec["outputs"]) + 1)
        self.fn.argtypes = argtypes
        self.fn.restype = None

    def new_outputs(self):
        return [torch.empty_strided(o["shape"], o["strides"], dtype=DTYPES[o["dtype"]], device="cuda")
                for o in self.spec["outputs"]]

    def __call__(self, inputs, params, outputs, stream):
        args = [x.data_ptr() if isinstance(x, torch.Tensor) else x for x in inputs]
        args += [p.data_ptr() for p in params] + [o.data_ptr() for o in outputs]
        self.fn(*args, ctypes.c_void_p(stream.cuda_stream))


def poison(tensors):
    """Fills outputs with values no correct kernel leaves behind: NaN, or the type's minimum."""
    for t in tensors:
        if t.dtype.is_floating_point:
            t.fill_(float("nan"))
        elif t.dtype == torch.bool:
            t.fill_(True)
        else:
            t.fill_(torch.iinfo(t.dtype).min)
