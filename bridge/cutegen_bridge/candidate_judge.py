"""The candidate's calls, judged from outside its process.

The candidate runs in `cutegen-runner` (sandboxed, its own process and GPU context); the judge keeps
the reference model, eager's and float64's outputs, the answer and the clock. Every call the runner
makes is the same: a batch queued behind the host page's `go` word, each call with fresh inputs in
its own buffers and an L2 flush before it. Every call's outputs are compared with eager's on the same
inputs, and its inputs and the parameters checked for changes; correctness trials add the float64
reference to every call, timed calls on a few calls chosen at random after their batch ran.

Timing: the runner reports each call's flush and call intervals from its own events; the judge
measures each batch from writing `go` to seeing `done` on its own clock. Before the candidate's
process starts, a runner with no candidate calibrates what a batch costs beyond its calls (the
handshake) and what a clean flush takes, so the C++ side can check that the reported intervals
account for the whole batch. Eager and torch.compile are timed after the candidate's process has
exited, so nothing of it can still be running on the GPU.
"""
import contextlib
import os
import random
import sys
import time
from collections import defaultdict

import torch

from .compare import compare
from .runner_link import Runner
from .shared_memory import Driver
from .slots import SharedTensor, Slot, slot_bytes

MAX_BATCH = 16
CALIBRATION_BATCHES = 3
# A batch during which the OS preempted the judge is run again, with fresh inputs, up to this many
# times: its host clock may hold a time slice of other work (the compiles of `run --gpus` beside it).
PREEMPTED_RETRIES = 4
RETRY_SEED_STRIDE = 1 << 32  # a retry's seeds, apart from every other call's
REF64_TIMED_SAMPLES = 4  # timed calls also checked against float64, chosen at random after they ran


class PhaseClock:
    """Wall seconds the judge spends per phase, reported with the answer (the evaluator's own cost)."""

    def __init__(self):
        self.seconds = defaultdict(float)

    @contextlib.contextmanager
    def phase(self, name):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - t0

    def totals(self):
        return {k: round(v, 3) for k, v in self.seconds.items()}


def runner_environment():
    keep = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "NVIDIA_VISIBLE_DEVICES", "NCCL_NVLS_ENABLE",
            "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS", "LD_LIBRARY_PATH")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PATH="/usr/bin:/bin", HOME="/tmp", TMPDIR="/tmp")
    return env


def vendor_dirs():
    """Folders of the judge's own libraries (torch's, and NVIDIA's wheels): their math libraries are masked."""
    dirs = {os.path.join(os.path.dirname(torch.__file__), "lib")}
    for entry in sys.path:
        nvidia = os.path.join(entry, "nvidia")
        if os.path.isdir(nvidia):
            for pkg in os.listdir(nvidia):
                for sub in ("lib", "lib64"):
                    if os.path.isdir(os.path.join(nvidia, pkg, sub)):
                        dirs.add(os.path.join(nvidia, pkg, sub))
    return sorted(dirs)


class CandidateJudge:
    def __init__(self, session, args, work_dir):
        self.s, self.args, self.spec = session, args, session.spec
        self.driver = Driver(torch.cuda.current_device())
        self.flush_bytes = max(2 * torch.cuda.get_device_properties(0).L2_cache_size, 1 << 20)
        self.work_dir = work_dir
        free, _ = torch.cuda.mem_get_info()
        per_call = 2 * slot_bytes(self.spec) + 1
        self.batch_size = int(max(1, min(MAX_BATCH, (0.3 * free) // per_call)))
        self.calibration = None
        self.runner_cpu = None  # the candidate's process over the timed batches: CPU time, batches' time
        self.clock = PhaseClock()
        self.runner = None
        self.log_tail = ""  # the candidate's process's last output, once it has ended

    # --- processes -------------------------------------------------------------------------------
    def start(self, null):
        name = "null" if null else "candidate"
        runner = Runner(self.args.runner, os.devnull if null else self.args.lib, runner_environment(),
                        os.path.join(self.work_dir, f"runner-{name}-{os.getpid()}.log"))
        note = runner.start(vendor_dirs(), null=null, require_sandbox=self.args.require_sandbox)
        runner.set_flush(self.flush_bytes)
        return runner, note

    @staticmethod
    def end(runner):
        """Ends a runner and removes its log; returns the log's last lines (what the candidate printed)."""
        runner.close()
        try:
            with open(runner.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 2000))
                tail = f.read().decode(errors="replace")
            os.remove(runner.log_path)
        except OSError:
            tail = ""
        return tail

    def calibrate(self):
        """Batches of no-op calls in a runner that never sees the candidate."""
        with self.clock.phase("calibration"):
            self.calibrate_batches()

    def calibrate_batches(self):
        runner, _ = self.start(null=True)
        try:
            probe = torch.zeros(1, device="cuda")
            self.probe(probe)  # the first launch loads the kernel
            batches = []
            for _ in range(CALIBRATION_BATCHES):
                attempt = self.unpreempted_batch(
                    runner, lambda attempt: [[] for _ in range(self.batch_size)], timeout=60)
                batches.append(self.batch_record(attempt, self.probe(probe)))
        finally:
            self.end(runner)
        self.calibration = {"batches": batches, "flush_after_write_ms": self.flush_after_write()}

    def flush_after_write(self):
        """A flush right after a full L2 of writes (every line dirty, to be written back), timed in the
        judge: the longest a flush after any call, outputs or workspace, may honestly take."""
        dirty = torch.empty(self.flush_bytes // 2, dtype=torch.uint8, device="cuda")
        flush = torch.empty(self.flush_bytes, dtype=torch.uint8, device="cuda")
        times = []
        for _ in range(5):
            dirty.fill_(1)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            flush.fill_(2)
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end))
        return max(times)

    def open_candidate(self):
        self.runner, note = self.start(null=False)
        self.params = [SharedTensor(self.driver, self.runner, list(p.shape), list(p.stride()), p.dtype)
                       for p in self.s.params]
        for shared, p in zip(self.params, self.s.params):
            shared.tensor.copy_(p)
        self.slots = [Slot(self.driver, self.runner, self.spec) for _ in range(self.batch_size)]
        torch.cuda.synchronize()
        return note

    def close(self):
        """Ends the candidate's process; after this nothing of it runs on the GPU."""
        if self.runner is not None:
            self.log_tail = self.end(self.runner)
            for s in self.slots:
                s.free()
            for p in self.params:
                p.free()
            self.runner = None

    # --- calls -----------------------------------------------------------------------------------
    def probe(self, buf):
        """Host time for a tiny kernel of the judge's own: long when another context still holds the GPU."""
        t0 = time.perf_counter()
        buf.add_(1)
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) * 1e3

    @staticmethod
    def batch_record(attempt, probe_ms):
        host_ms, intervals, preempted, wait_ms = attempt
        return {"calls": len(intervals), "host_ms": host_ms, "flush_ms": [f for f, _ in intervals],
                "call_ms": [c for _, c in intervals], "probe_ms": probe_ms, "preempted": preempted,
                "wait_ms": wait_ms}

    def unpreempted_batch(self, runner, make_calls, timeout):
        """runner.batch(make_calls(attempt)), again while the OS preempted the judge during it (at most
        PREEMPTED_RETRIES more times); the last attempt's (host_ms, intervals, preempted, wait_ms)."""
        for attempt in range(PREEMPTED_RETRIES + 1):
            calls = make_calls(attempt)
            with self.clock.phase("batches"):
                result = runner.batch(calls, timeout=timeout)
            _, _, preempted, _ = result
            if not preempted:
                break
        return result

    def run_batch(self, seeds, ref64_chance, ref64_at_least_one=False):
        """One batch with fresh inputs per call; returns (batch record, per-call verdict inputs). Each
        call is checked against float64 with probability `ref64_chance` (or, when asked, at least one),
        drawn after the batch ran. A batch run again after a preemption gets fresh seeds too, so no
        two timed calls ever see the same data."""
        param_tokens = [p.token for p in self.params]
        pristine, final_seeds = [], []

        def fill(attempt):
            pristine.clear()
            final_seeds[:] = [seed + attempt * RETRY_SEED_STRIDE for seed in seeds]
            calls = []
            with self.clock.phase("inputs"):
                for slot, seed in zip(self.slots, final_seeds):
                    inputs = self.s.inputs(seed)
                    pristine.append(inputs)
                    calls.append(slot.fill(inputs, param_tokens))
                torch.cuda.synchronize()
            return calls

        attempt = self.unpreempted_batch(self.runner, fill, self.args.call_timeout)
        record = self.batch_record(attempt, self.probe(torch.zeros(1, device="cuda")))
        seeds = final_seeds
        checked = [random.random() < ref64_chance for _ in seeds]
        if ref64_at_least_one and not any(checked):
            checked[random.randrange(len(seeds))] = True
        with self.clock.phase("verify"):
            results = [self.verify(slot, inputs, seed, with_ref64)
                       for slot, inputs, seed, with_ref64 in zip(self.slots, pristine, seeds, checked)]
        return record, results

    def verify(self, slot, pristine, seed, with_ref64):
        # The sub-phases (inside "verify") say where the judge's own cost on large outputs goes.
        with self.clock.phase("verify_mutation"):
            mutated = [e["name"] for e, x, p in zip(self.spec["inputs"], slot.input_tensors(), pristine)
                       if x is not None and not torch.equal(x, p)]
            mutated += [e["name"] for e, shared, p in zip(self.spec["params"], self.params, self.s.params)
                        if not torch.equal(shared.tensor, p)]
        with self.clock.phase("verify_eager"):
            eager = self.s.eager(pristine)
        with self.clock.phase("verify_float64"):
            ref64 = self.s.reference64(pristine) if with_ref64 else None
        with self.clock.phase("verify_compare"):
            outputs = [{"name": self.spec["outputs"][i]["name"],
                        **compare(o, e, ref64[i] if ref64 is not None else None, self.args.atol, self.args.rtol)}
                       for i, (o, e) in enumerate(zip(slot.output_tensors(), eager))]
        return {"seed": seed, "outputs": outputs, "mutated_inputs": mutated, "ref64": ref64 is not None}

    def trials(self, count, first_seed):
        """Correctness calls, each against float64 too; in batches like every other call."""
        results = []
        for lo in range(0, count, self.batch_size):
            seeds = [first_seed + t for t in range(lo, min(count, lo + self.batch_size))]
            _, batch_results = self.run_batch(seeds, ref64_chance=1.0)
            results += batch_results
        return results

    def timed(self, count, first_seed):
        batches, calls = [], []
        warm_seeds = [first_seed - 1 - k for k in range(min(self.args.warmup, self.batch_size))]
        _, calls = self.run_batch(warm_seeds, ref64_chance=0.0)  # warms clocks and caches; checked, not timed
        chance = min(1.0, REF64_TIMED_SAMPLES / max(count, 1))
        cpu0, batch0 = self.runner.cpu_ms(), self.runner.batch_ms
        for lo in range(0, count, self.batch_size):
            seeds = [first_seed + k for k in range(lo, min(count, lo + self.batch_size))]
            last = lo + self.batch_size >= count
            sampled = any(c["ref64"] for c in calls[len(warm_seeds):])
            record, results = self.run_batch(seeds, chance, ref64_at_least_one=last and not sampled)
            batches.append(record)
            calls += results
        self.runner_cpu = {"cpu_ms": self.runner.cpu_ms() - cpu0, "batch_ms": self.runner.batch_ms - batch0}
        return batches, calls
