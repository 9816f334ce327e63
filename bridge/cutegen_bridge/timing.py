"""Side-by-side timing with CUDA events on one stream: warm-up, a GPU-side hold and an L2 flush
before every run, input sets rotated, references interleaved (the candidate's calls are timed in its own
process: candidate_judge.py)."""
import time

import torch


def l2_flusher(stream):
    """A buffer twice the L2 size; zeroing it evicts whatever the last run left in the cache."""
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    buf = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")
    return lambda: buf.zero_()


def sleep_cycles_per_ms(stream):
    """How many cycles of torch.cuda._sleep (a GPU-side spin) take one millisecond."""
    cycles = 1 << 20
    with torch.cuda.stream(stream):
        torch.cuda._sleep(cycles)  # the first launch loads the kernel
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(stream)
        torch.cuda._sleep(cycles)
        end.record(stream)
    torch.cuda.synchronize()
    return cycles / max(start.elapsed_time(end), 1e-3)


def interleaved(fns, runs, warmup, stream, flush):
    """fns: name -> f(i) running one forward on input set i. Returns name -> list of ms.

    Before each timed sample the GPU spins for twice the longest time the host took to issue one
    sample during warm-up (at least 0.5 ms, at most 5 ms). The host then stays ahead of the GPU, so a sample times
    the GPU's work alone; otherwise a forward shorter than its own host-side call (a tiny task, a
    torch.compile guard check) would time the host, and erratically when other processes share it.
    """
    names = list(fns)
    issue_ms = 0.0
    with torch.cuda.stream(stream):
        for i in range(warmup):
            for n in names:
                t0 = time.perf_counter()
                flush()
                fns[n](i)
                if i >= warmup // 2:  # the first calls may compile or tune
                    issue_ms = max(issue_ms, (time.perf_counter() - t0) * 1e3)
    # At least 0.5 ms: a few warm-up samples underestimate how long the host may take to issue a torch
    # op (docs/decisions.md, "Hold before each sample"); capped: a forward that synchronizes inside its
    # call cannot be helped by a hold anyway.
    hold = int(min(max(2 * issue_ms, 0.5), 5.0) * sleep_cycles_per_ms(stream))
    with torch.cuda.stream(stream):
        events = {n: [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                      for _ in range(runs)] for n in names}
        for i in range(runs):
            for n in (names if i % 2 == 0 else reversed(names)):
                torch.cuda._sleep(hold)
                flush()
                start, end = events[n][i]
                start.record(stream)
                fns[n](i)
                end.record(stream)
    torch.cuda.synchronize()
    return {n: [s.elapsed_time(e) for s, e in events[n]] for n in names}


def event_overhead(runs, stream):
    """Two back-to-back events with nothing between: what the harness itself adds to each sample."""
    pairs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
    with torch.cuda.stream(stream):
        for s, e in pairs:
            s.record(stream)
            e.record(stream)
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in pairs]
