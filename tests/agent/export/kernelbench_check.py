"""Checks an exported ModelNew (`cutegen export`) the way KernelBench's harness uses a solution:
both sources are exec'd from strings into one fresh dict (no __file__), then Model(*init_inputs)
and ModelNew(*init_inputs) are built, each after torch.manual_seed(seed).

Usage: kernelbench_check.py MODE EXPORTED_PY TASK_PY
  cpu    construction, RNG use, state_dict keys and values, every input check (no build, no GPU)
  build  the embedded kernel compiles with the real nvcc and loads (no GPU); missing CUTLASS is named
  gpu    on CUDA: outputs equal the reference's on random inputs and random parameters; one verdict line
Prints one `ok: ...` line per check passed; exits 1 with `FAIL: ...` on the first that fails.
"""
import os
import sys

import torch

SEED = 42


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def load_kernelbench_way(exported, task):
    """As KernelBench's eval.py: the reference, then the solution, exec'd into the same dict."""
    context = {}
    exec(open(task).read(), context)
    exec(open(exported).read(), context)
    if "__file__" in context:
        fail("the namespace gained a __file__")
    return context


def build_pair(context):
    init = context["get_init_inputs"]()
    torch.manual_seed(SEED)
    ref = context["Model"](*init)
    ref_rng = torch.get_rng_state()
    torch.manual_seed(SEED)
    new = context["ModelNew"](*init)
    if not torch.equal(ref_rng, torch.get_rng_state()):
        fail("ModelNew's constructor drew a different amount of random numbers than Model's")
    return ref, new


def expect_value_error(call, needle, what):
    try:
        call()
    except ValueError as e:
        if needle not in str(e):
            fail(what + ": the error does not say '" + needle + "': " + str(e))
        print("ok: " + what + ": " + str(e))
        return
    fail(what + ": no ValueError")


def check_cpu(exported, task):
    exec(open(exported).read(), {})  # also loads alone, from a string, in an empty dict
    context = load_kernelbench_way(exported, task)
    print("ok: exec'd from a string without __file__")
    cu = exported[:-len("_model_new.py")] + "_cutegen.cu"
    if context["_REFERENCE_SOURCE"] != open(task).read() or context["_KERNEL_SOURCE"] != open(cu).read():
        fail("the embedded sources differ from " + task + " or " + cu)
    print("ok: embedded sources equal the task file and the .cu")
    ref, new = build_pair(context)
    print("ok: constructed with get_init_inputs() under a seed, same random numbers drawn")
    ref_state, new_state = ref.state_dict(), new.state_dict()
    if list(ref_state) != list(new_state):
        fail("state_dict keys differ: " + str(list(ref_state)) + " vs " + str(list(new_state)))
    for k in ref_state:
        if not torch.equal(ref_state[k], new_state[k]):
            fail("state_dict value differs under the same seed: " + k)
    new.load_state_dict(ref.state_dict(), strict=True)
    print("ok: state_dict keys " + str(list(new_state)) + " and values equal the reference's")

    def tripwire():
        raise AssertionError("a build was attempted before the inputs were checked")
    context["_kernel"] = tripwire  # forward finds _kernel in the namespace it was exec'd into
    first = context["_INPUTS"][0]
    name, shape, strides, dtype = first["name"], first["shape"], first["strides"], first["dtype"]
    right_layout = dict(size=shape, stride=strides, dtype=dtype)
    others = [torch.empty_strided(a["shape"], a["strides"], dtype=a["dtype"], device="meta") if "dtype" in a
              else 1 for a in context["_INPUTS"][1:]]
    expect_value_error(lambda: new(), "takes " + str(len(context["_INPUTS"])) + " inputs", "no inputs")
    expect_value_error(lambda: new([1.0], *others), "input " + name + ": expected a tensor", "a list")
    other_dtype = torch.float64 if dtype != torch.float64 else torch.float32
    expect_value_error(lambda: new(torch.empty_strided(shape, strides, dtype=other_dtype, device="meta"), *others),
                       "expected dtype " + str(dtype) + ", got " + str(other_dtype), "wrong dtype")
    expect_value_error(lambda: new(torch.empty(3, 5, dtype=dtype, device="meta"), *others),
                       "expected shape " + str(tuple(shape)), "wrong shape")
    if len(shape) >= 2:
        transposed = torch.empty(shape[::-1], dtype=dtype, device="meta").transpose(0, len(shape) - 1)
        expect_value_error(lambda: new(transposed, *others), "call .contiguous()", "non-contiguous")
    cpu_others = [torch.empty_strided(a["shape"], a["strides"], dtype=a["dtype"]) if "dtype" in a else 1
                  for a in context["_INPUTS"][1:]]
    expect_value_error(lambda: new(torch.empty_strided(**right_layout), *cpu_others),
                       "expected a tensor on a CUDA device, got one on cpu", "a CPU tensor")
    print("ok: no build was attempted")


def check_build(exported, task):
    context = load_kernelbench_way(exported, task)
    library = context["_build"]()
    if not os.path.isfile(library):
        fail("_build() returned no file: " + library)
    if context["_build"]() != library:
        fail("a second build did not find the first in the cache")
    context["_load"](library)  # ctypes finds cutegen_forward (static cudart: no GPU needed to load)
    print("ok: the embedded kernel built with nvcc and loaded: " + os.path.basename(library))
    os.environ.pop("CUTEGEN_CUTLASS_DIR", None)
    try:
        context["_build"]()
        fail("built without CUTEGEN_CUTLASS_DIR")
    except RuntimeError as e:
        if "CUTEGEN_CUTLASS_DIR" not in str(e):
            fail("the missing-CUTLASS error does not name CUTEGEN_CUTLASS_DIR: " + str(e))
        print("ok: without CUTLASS: " + str(e))


def check_gpu(exported, task, trials=3):
    context = load_kernelbench_way(exported, task)
    with torch.no_grad():
        ref, new = build_pair(context)
        # Random parameters too, copied into both, so a kernel that assumes LayerNorm's ones fails.
        torch.manual_seed(SEED + 1)
        for t in ref.state_dict().values():
            if t.dtype.is_floating_point:
                t.copy_(torch.randn_like(t))
        new.load_state_dict(ref.state_dict())
        ref, new = ref.cuda(), new.cuda()
        worst = 0.0
        for trial in range(trials):
            torch.manual_seed(SEED + 2 + trial)
            inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in context["get_inputs"]()]
            want, got = ref(*inputs), new(*inputs)
            torch.cuda.synchronize()
            if got.shape != want.shape:
                fail("output shape " + str(tuple(got.shape)) + " vs " + str(tuple(want.shape)))
            worst = max(worst, (got.double() - want.double()).abs().max().item())
            if not torch.allclose(got, want, atol=1e-2, rtol=1e-2):
                print("export_check " + os.path.basename(task) + ": WRONG (max abs diff " + "%.3g" % worst + ")")
                sys.exit(1)
    print("export_check " + os.path.basename(task) + ": PASS (loaded the KernelBench way, " + str(trials) +
          " trials, max abs diff " + "%.3g" % worst + ")")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("cpu", "build", "gpu"):
        sys.exit(__doc__)
    {"cpu": check_cpu, "build": check_build, "gpu": check_gpu}[sys.argv[1]](sys.argv[2], sys.argv[3])
