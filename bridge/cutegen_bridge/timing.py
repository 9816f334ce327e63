"""Side-by-side timing with CUDA events on one stream: warm-up, an L2 flush before every run,
input sets rotated, candidate and references interleaved; plus a host-clock check that
exposes work hidden from the events (for example on another stream)."""
import time

import torch


def l2_flusher(stream):
    """A buffer twice the L2 size; zeroing it evicts whatever the last run left in the cache."""
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    buf = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")
    return lambda: buf.zero_()


def interleaved(fns, runs, warmup, stream, flush):
    """fns: name -> f(i) running one forward on input set i. Returns name -> list of ms."""
    names = list(fns)
    with torch.cuda.stream(stream):
        for i in range(warmup):
            for n in names:
                fns[n](i)
        events = {n: [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                      for _ in range(runs)] for n in names}
        for i in range(runs):
            for n in (names if i % 2 == 0 else reversed(names)):
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


def host_check(fn, calls, stream):
    """Compares a host clock around a device-wide synchronize with events on the stream.

    issue_ms: time to enqueue the calls; device_ms: the events' span; host_ms: until the whole
    device is idle. Work the candidate hides from its stream shows up as host_ms well above both.
    """
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0 = time.perf_counter()
    with torch.cuda.stream(stream):
        start.record(stream)
        for i in range(calls):
            fn(i)
        end.record(stream)
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    return {"calls": calls, "issue_ms": (t1 - t0) * 1e3, "host_ms": (t2 - t0) * 1e3,
            "device_ms": start.elapsed_time(end)}
