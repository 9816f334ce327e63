"""`eval`: the judge. Runs a compiled candidate, in its own sandboxed process (candidate_judge.py),
against the task's reference on the GPU.

Modes: check (correctness trials), time (side-by-side timing), full (both), profile (warm-up,
then one forward inside the NVTX range "cutegen_profile" for Nsight Compute; the candidate is loaded
into this process, and no verdict is made of it), baseline (eager alone, timed the same way, before
any kernel exists), ceilings (the GPU's copy bandwidth and matmul rates). Verdicts are made by the
C++ caller from these numbers. A CUDA fault ends the run with {"fault": the message, "phase": ...}.
"""
import copy
import json
import os
import random

import torch

from . import ceilings as ceilings_mod
from . import precision
from .candidate import Candidate
from .candidate_judge import CandidateJudge
from .compare import FAST, compare
from .params import vary_constant_parameters
from .runner_link import RunnerError
from .task_file import TaskError, call_user, load_task
from .timing import event_overhead, interleaved, l2_flusher
from .tracing import PinDevice


def configure(parser):
    parser.add_argument("--mode", choices=["check", "time", "full", "profile", "baseline", "ceilings"], default="full")
    parser.add_argument("--task")
    parser.add_argument("--spec", help="TaskSpec JSON written by `spec`")
    parser.add_argument("--lib", help="the candidate's shared library")
    parser.add_argument("--runner", help="cutegen-runner, the candidate's own process (check, time, full)")
    parser.add_argument("--work-dir", help="where the runner's log goes")
    parser.add_argument("--require-sandbox", action="store_true", help="refuse to run a candidate unsandboxed")
    parser.add_argument("--call-timeout", type=float, default=60.0, help="seconds one batch of calls may take")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--timed-runs", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--atol", type=float, default=1e-2)
    parser.add_argument("--rtol", type=float, default=1e-2)
    parser.add_argument("--compare-compile", action="store_true")
    parser.add_argument("--compare-lib", help="fast_compare.cu built: the timed calls' check in one pass")


class Fault(Exception):
    """A CUDA error while running `phase`; the process's CUDA context is unusable after it."""

    def __init__(self, phase, message):
        super().__init__(message)
        self.phase = phase


def run(args):
    if not torch.cuda.is_available():
        raise TaskError("no CUDA device visible to torch", kind="setup")
    if args.mode == "ceilings":
        return {"ceilings": ceilings_mod.measure()}
    with open(args.spec) as f:
        spec = json.load(f)
    if args.mode == "baseline":
        session = Session(args, spec)
        return {"device": device_facts(), "timing": session.timing(), **session.precision_errors()}
    session = Session(args, spec)
    doc = {"device": device_facts(), "varied_parameters": session.varied}
    if args.compare_lib:
        FAST.load(args.compare_lib)
    doc["quick_check"] = "one pass (fast_compare.cu)" if FAST.library is not None else "torch"
    if args.mode == "profile":
        try:
            session.profile_launch()
            doc["profiled"] = True
        except Fault as exc:
            doc.update(fault=first_line(exc), phase=exc.phase)
        return doc
    judge = CandidateJudge(session, args, args.work_dir or os.path.dirname(os.path.abspath(args.spec)))
    timed = args.mode in ("time", "full")
    phase = "calibration"
    try:
        if timed:
            with judge.clock.phase("references"):
                # All of eager's samples before any runner: timed after the candidate's process ended,
                # memory-bound eager ran 6-11% slower (decisions.md, "Eager before the runner").
                references, _ = session.reference_samples(args.timed_runs, args.compare_compile)
            if args.compare_compile:
                doc["compile_cache"] = compile_cache_counters()
            torch.cuda.empty_cache()  # eager's input sets, cached by torch: the shared buffers need the room
            judge.calibrate()
        phase = "start"
        with judge.clock.phase("start"):
            doc["isolation"] = judge.open_candidate()
        if args.mode in ("check", "full"):
            phase = "candidate"
            doc["trials"] = judge.trials(args.trials, args.seed)
            if args.mode == "full" and not all(trial_ok(t) for t in doc["trials"]):
                return doc  # timing a wrong kernel is wasted time
        if timed:
            phase = "timing"
            batches, calls = judge.timed(args.timed_runs, args.seed + 1000)
            judge.close()
            doc["timing"] = session.candidate_timing(references, judge, batches, calls)
    except RunnerError as exc:
        doc.update(fault=first_line(exc), phase=phase, fault_kind=exc.kind)
    except Fault as exc:
        doc.update(fault=first_line(exc), phase=exc.phase)
    finally:
        judge.close()
    if "fault" in doc and judge.log_tail:
        doc["runner_log"] = judge.log_tail
    doc["judge_seconds"] = judge.clock.totals()
    return doc


def compile_cache_counters():
    """Whether torch.compile's graph came from Inductor's caches (AOTAutograd's and the FX graph's) or
    was compiled here: a timed run after a warm-up pass should show hits only."""
    from torch._dynamo.utils import counters
    return {k: v for group in ("aot_autograd", "inductor") for k, v in counters[group].items() if "cache" in k}


def first_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else "CUDA error"


def trial_ok(t):
    return not t["mutated_inputs"] and all(o["bad"] == 0 for o in t["outputs"])


def device_facts():
    p = torch.cuda.get_device_properties(0)
    return {"name": p.name, "sms": p.multi_processor_count, "l2_bytes": p.L2_cache_size,
            "memory_bytes": p.total_memory, "cc": f"{p.major}.{p.minor}", "torch": torch.__version__}


def guarded(phase, fn):
    try:
        out = fn()
        torch.cuda.synchronize()
        return out
    except RuntimeError as exc:
        if "CUDA" in str(exc) or "cuda" in str(exc):
            raise Fault(phase, str(exc))
        raise


class Session:
    def __init__(self, args, spec):
        self.args, self.spec = args, spec
        self.module = load_task(args.task)
        self.stream = torch.cuda.Stream()
        torch.manual_seed(args.seed)
        random.seed(args.seed)
        with torch.no_grad(), PinDevice("cuda"):
            init = call_user("get_init_inputs()", lambda: list(self.module.get_init_inputs()), kind="init")
            self.model = call_user("Model(*get_init_inputs())", self.module.Model, *init, kind="init")
        self.model = self.model.cuda().eval()
        self.varied = vary_constant_parameters(self.model, args.seed)  # before anything reads them
        self.params = state_tensors(self.model, spec)

    def inputs(self, seed):
        """Fresh inputs from the task's own get_inputs() under `seed`, made on the GPU."""
        torch.manual_seed(seed)
        random.seed(seed)
        with torch.no_grad(), PinDevice("cuda"):
            xs = call_user("get_inputs()", lambda: list(self.module.get_inputs()), kind="inputs")
        xs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in xs]
        # Made on the default stream; everything else runs on self.stream, which does not wait for it.
        torch.cuda.synchronize()
        return xs

    def eager(self, inputs):
        """Eager's outputs, complete: callers read them on other streams."""
        with torch.no_grad(), torch.cuda.stream(self.stream):
            out = flatten(self.model(*[clone(x) for x in inputs]))
        self.stream.synchronize()
        return out

    def reference64(self, inputs, tf32=False):
        """The model and its floating inputs in float64: the accuracy yardstick for both sides. tf32: with
        the inputs and the convolution and linear weights rounded to tf32 first (precision.py)."""
        try:
            # The copies and roundings run on self.stream with the model: self.stream does not wait for the
            # default stream, and a model reading its float64 inputs before they were written measured garbage.
            with torch.no_grad(), torch.cuda.stream(self.stream):
                model64 = copy.deepcopy(self.model).double()
                xs = [to64(x) for x in inputs]
                if tf32:
                    precision.round_layers_tf32(model64)
                    xs = precision.round_inputs_tf32(xs)
                out = flatten(model64(*xs))
            self.stream.synchronize()
            return out
        except (RuntimeError, TypeError):
            return None

    def run_candidate(self, candidate, inputs, outputs):
        with torch.cuda.stream(self.stream):
            candidate(inputs, self.params, outputs, self.stream)

    def input_sets(self):
        """Enough input sets that rotating them defeats the L2 (at least 2, at most 4, memory allowing)."""
        first = self.inputs(self.args.seed + 1000)
        size = sum(x.numel() * x.element_size() for x in first if isinstance(x, torch.Tensor))
        size += sum(o["bytes"] for o in self.spec["outputs"] if "bytes" in o) * 2
        l2 = torch.cuda.get_device_properties(0).L2_cache_size
        free, _ = torch.cuda.mem_get_info()
        want = max(2, min(4, -(-3 * l2 // max(size, 1))))
        count = int(max(1, min(want, (free * 0.5) // max(size, 1))))
        return [first] + [self.inputs(self.args.seed + 1000 + k) for k in range(1, count)]

    def reference_samples(self, runs, with_compile=False):
        """Eager (and torch.compile) timed in this process, interleaved, on rotated input sets."""
        sets = self.input_sets()

        def eager(i):
            with torch.no_grad():
                self.model(*sets[i % len(sets)])

        fns = {"eager": eager}
        if with_compile:
            compiled = torch.compile(self.model)

            def comp(i):
                with torch.no_grad():
                    compiled(*sets[i % len(sets)])
            fns["compile"] = comp
        flush = l2_flusher(self.stream)
        samples = guarded("timing", lambda: interleaved(fns, runs, self.args.warmup, self.stream, flush))
        return samples, len(sets)

    def precision_errors(self):
        """On one input set, the worst relative error against float64 over the outputs of eager
        (eager_rel_err: the yardstick of the accuracy rule, stated in the prompts) and of the float64
        model with TF32 operands (tf32_rel_err: precision.py); None when the model has no float64 form."""
        inputs = self.inputs(self.args.seed)
        ref64 = guarded("reference", lambda: self.reference64(inputs))
        if ref64 is None:
            return {"eager_rel_err": None, "tf32_rel_err": None}
        eager = guarded("reference", lambda: self.eager(inputs))
        tf32 = guarded("reference", lambda: self.reference64(inputs, tf32=True))
        return {"eager_rel_err": worst_error(eager, ref64), "tf32_rel_err": None if tf32 is None else worst_error(tf32, ref64)}

    def timing(self):
        """Eager alone: the baseline before any kernel exists."""
        samples, sets = self.reference_samples(self.args.timed_runs)
        return {"ms": samples, "input_sets": sets}

    def candidate_timing(self, references, judge, batches, calls):
        """The candidate's timed calls (its process gone by now) beside the references, timed before
        its process started."""
        samples = dict(references)
        samples["candidate"] = [c for b in batches for c in b["call_ms"]]
        return {"ms": samples, "event_overhead_ms": event_overhead(50, self.stream),
                "input_sets": len(batches[0]["call_ms"]), "batches": batches,
                "calibration": judge.calibration, "runner_cpu": judge.runner_cpu, "calls": calls}

    def profile_launch(self):
        """Under Nsight Compute only: the candidate is loaded into this process (no verdict comes of it)."""
        candidate = Candidate(self.args.lib, self.spec)
        inputs = self.inputs(self.args.seed)
        outputs = candidate.new_outputs()
        for _ in range(3):
            guarded("warm-up", lambda: self.run_candidate(candidate, inputs, outputs))
        torch.cuda.nvtx.range_push("cutegen_profile")
        guarded("profile", lambda: self.run_candidate(candidate, inputs, outputs))
        torch.cuda.nvtx.range_pop()


def state_tensors(model, spec):
    """The model's parameters and buffers by the names and order the spec (and so the ABI) uses."""
    by_name = dict(model.state_dict(keep_vars=True))
    by_name.update(dict(model.named_buffers(remove_duplicate=False)))
    missing = [p["name"] for p in spec["params"] if p["name"] not in by_name]
    if missing:
        raise TaskError(f"the model has no parameter or buffer {missing[0]} named in the spec", kind="spec")
    return [by_name[p["name"]].detach().contiguous() for p in spec["params"]]


def flatten(result):
    if isinstance(result, torch.Tensor):
        return [result]
    return [t for t in torch.utils._pytree.tree_flatten(result)[0] if isinstance(t, torch.Tensor)]


def worst_error(outputs, ref64):
    errors = [compare(o, o, r, 0.0, 0.0).get("eager_rel_err") for o, r in zip(outputs, ref64) if o.is_floating_point()]
    return max(errors) if errors else None


def clone(x):
    return x.clone() if isinstance(x, torch.Tensor) else x


def to64(x):
    return x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x
