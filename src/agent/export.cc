#include "agent/export.h"

#include "core/strings.h"
#include "sys/fs.h"
#include "task/abi.h"

namespace cutegen {

std::string standalone_source(const TaskSpec& spec, const std::string& kernel) {
  return "// Exported by CuTeGen for task `" + spec.name + "`: the ABI header first, then the kernel.\n" +
         abi_header(spec) + "\n" + kernel;
}

std::string model_new_python(const TaskSpec& spec, const std::string& arch) {
  std::string compute = replace_all(arch, "sm_", "compute_");
  std::string args, ptrs;
  std::vector<std::string> forward_args, outputs;
  for (auto& a : spec.inputs) forward_args.push_back(c_identifier(a.name));
  // The ABI order: inputs, then parameters/buffers (from the module's state_dict), then outputs.
  for (auto& p : abi_params(spec)) {
    const TaskArg& a = *p.arg;
    if (a.kind == ArgKind::kOutput) {
      outputs.push_back(p.c_name);
      ptrs += "        " + p.c_name + " = torch.empty(" + dims_text(a.shape) + ", dtype=torch." +
              std::string(dtype_info(a.dtype).name) + ", device=dev)\n";
      args += "ctypes.c_void_p(" + p.c_name + ".data_ptr()), ";
    } else if (a.kind == ArgKind::kParameter || a.kind == ArgKind::kBuffer) {
      args += "ctypes.c_void_p(state[" + std::string("\"") + a.name + "\"].contiguous().data_ptr()), ";
    } else if (a.kind == ArgKind::kScalar) {
      std::string ct = a.ctype == "double" ? "ctypes.c_double" : a.ctype == "bool" ? "ctypes.c_bool" : "ctypes.c_int64";
      args += ct + "(" + c_identifier(a.name) + "), ";
    } else {
      args += "ctypes.c_void_p(" + c_identifier(a.name) + ".contiguous().data_ptr()), ";
    }
  }
  std::string ret = outputs.size() == 1 ? outputs[0] : "(" + join(outputs, ", ") + ")";
  return R"PY(# Exported by CuTeGen for task `)PY" + spec.name + R"PY(`: a KernelBench-compatible ModelNew that
# builds )PY" + spec.name + R"PY(_cutegen.cu with nvcc and calls cutegen_forward on torch's current stream.
import ctypes
import hashlib
import os
import subprocess
import sys

import torch
import torch.nn as nn

_HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCE = os.path.join(_HERE, ")PY" + spec.name + R"PY(_cutegen.cu")
_FLAGS = ["-std=c++17", "-O3", "-DNDEBUG", "--expt-relaxed-constexpr", "-gencode=arch=)PY" + compute + ",code=" + arch + R"PY(",
          "-Xcompiler", "-fPIC", "-shared", "-lineinfo"]


def _build():
    cutlass = os.environ.get("CUTEGEN_CUTLASS_DIR")
    if not cutlass:
        raise RuntimeError("set CUTEGEN_CUTLASS_DIR to a CUTLASS checkout (or its include folder)")
    include = os.path.join(cutlass, "include") if os.path.isdir(os.path.join(cutlass, "include")) else cutlass
    cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    nvcc = os.path.join(cuda_home, "bin", "nvcc") if os.path.exists(os.path.join(cuda_home, "bin", "nvcc")) else "nvcc"
    with open(_SOURCE, "rb") as f:
        key = hashlib.sha256(f.read() + " ".join(_FLAGS).encode()).hexdigest()[:16]
    lib = os.path.join(_HERE, ".cutegen_build", ")PY" + spec.name + R"PY(_" + key + ".so")
    if not os.path.exists(lib):
        os.makedirs(os.path.dirname(lib), exist_ok=True)
        tmp = lib + ".%d.tmp" % os.getpid()
        cmd = [nvcc, *_FLAGS, "-I" + include, _SOURCE, "-o", tmp]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            raise RuntimeError("nvcc failed for " + _SOURCE)
        os.replace(tmp, lib)
    so = ctypes.CDLL(lib)
    so.cutegen_forward.restype = None
    return so


class ModelNew(nn.Module):
    def __init__(self, *init_args):
        super().__init__()
        self._lib = _build()
        self._state = {}

    def load_reference_state(self, model):
        """Parameters and buffers of the reference Model, used in ABI order."""
        self._state = dict(model.state_dict())

    def forward(self, )PY" + join(forward_args, ", ") + R"PY():
        dev = torch.device("cuda", torch.cuda.current_device())
        state = self._state
)PY" + ptrs + R"PY(        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        self._lib.cutegen_forward()PY" + args + R"PY(stream)
        return )PY" + ret + "\n";
}

Result<std::pair<std::string, std::string>> export_kernel(const TaskSpec& spec, const std::string& kernel,
                                                          const std::string& out_dir, const std::string& arch) {
  CUTEGEN_TRY(make_dirs(out_dir));
  std::string cu = out_dir + "/" + spec.name + "_cutegen.cu", py = out_dir + "/" + spec.name + "_model_new.py";
  CUTEGEN_TRY(write_file_atomic(cu, standalone_source(spec, kernel)));
  CUTEGEN_TRY(write_file_atomic(py, model_new_python(spec, arch)));
  return std::make_pair(cu, py);
}

}  // namespace cutegen
