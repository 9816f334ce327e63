"""Prototype judge: times copies in-process and bracketed across a process boundary."""
import ctypes, os, subprocess, sys, time, statistics, json
import torch

torch.cuda.init(); torch.zeros(1, device="cuda")
lib = None
for line in open("/proc/self/maps"):
    if "libcudart" in line:
        lib = line.split()[-1]; break
print("cudart:", lib)
rt = ctypes.CDLL(lib)

class Buf:
    def __init__(self, n):
        p = ctypes.c_void_p()
        assert rt.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(n)) == 0
        self.ptr, self.n = p.value, n
        h = (ctypes.c_ubyte * 64)()
        assert rt.cudaIpcGetMemHandle(h, p) == 0
        self.handle = bytes(h).hex()
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "|u1", "data": (self.ptr, False), "version": 3}
        self.t = torch.as_tensor(self, device="cuda")

def start_runner(prefix):
    p = subprocess.Popen(prefix + [sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    print("runner:", p.stdout.readline().strip())
    return p

def ask(p, line):
    p.stdin.write(line + "\n"); p.stdin.flush()
    r = p.stdout.readline().strip()
    if not r.startswith("ok"): print("RUNNER SAYS:", r, "for", line)
    return r

def main():
    prefixes = {"plain": []}
    for name, pre in [("unshare-net-mnt", ["unshare", "--net", "--mount"]),
                      ("unshare-net-mnt-pid", ["unshare", "--net", "--mount", "--pid", "--fork"]),
                      ("setpriv-nobody", ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]),
                      ("unshare+nobody", ["unshare", "--net", "--mount", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]),
                      ("unshare-user", ["unshare", "--user", "--map-root-user", "--net", "--mount"])]:
        prefixes[name] = pre
    for t in ["bwrap", "unshare", "setpriv", "nsenter"]:
        print(t, subprocess.run(["which", t], capture_output=True, text=True).stdout.strip())
    sizes = [16 << 10, 64 << 20, 512 << 20, 4 << 30]
    bufs = {n: (Buf(n), Buf(n)) for n in sizes}
    for a, b in bufs.values(): b.t.random_(0, 255)
    results = {}
    for name, pre in prefixes.items():
        try:
            p = start_runner(pre)
        except Exception as e:
            print(name, "start failed", e); continue
        idx = {}
        ok = True
        for n, (a, b) in bufs.items():
            ra = ask(p, "mem " + a.handle); rb = ask(p, "mem " + b.handle)
            if not ra.startswith("ok") or not rb.startswith("ok"): ok = False; break
            idx[n] = (int(ra.split()[2]), int(rb.split()[2]))
        go = torch.cuda.Event(interprocess=True); done = torch.cuda.Event(interprocess=True)
        r1 = ask(p, "ev " + bytes(go.ipc_handle()).hex()); r2 = ask(p, "ev " + bytes(done.ipc_handle()).hex())
        if not ok or not r1.startswith("ok"):
            print(name, "IPC open failed"); p.kill(); results[name] = "ipc failed"; continue
        s = torch.cuda.Stream()
        flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
        res = {}
        for n, (a, b) in bufs.items():
            cross, local, empty = [], [], []
            for i in range(30):
                for mode in ("cross", "local", "empty"):
                    a.t.zero_(); torch.cuda.synchronize()
                    with torch.cuda.stream(s):
                        torch.cuda._sleep(2_000_000)  # ~1ms hold so the host stays ahead
                        flush.zero_()
                        st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        st.record(s)
                        if mode == "local":
                            rt.cudaMemcpyAsync(ctypes.c_void_p(a.ptr), ctypes.c_void_p(b.ptr), ctypes.c_size_t(n), 3, ctypes.c_void_p(s.cuda_stream))
                        else:
                            go.record(s)
                            ask(p, f"run 0 1 {idx[n][0]} {idx[n][1]} {n if mode == 'cross' else 0}")
                            s.wait_event(done)
                        en.record(s)
                    torch.cuda.synchronize()
                    ms = st.elapsed_time(en)
                    if mode == "cross":
                        assert torch.equal(a.t, b.t), "copy incomplete at end event"
                    {"cross": cross, "local": local, "empty": empty}[mode].append(ms)
            res[n] = {k: round(statistics.median(v) * 1000, 2) for k, v in [("cross_us", cross), ("local_us", local), ("empty_us", empty)]}
            res[n]["cross_min_us"] = round(min(cross) * 1000, 2); res[n]["local_min_us"] = round(min(local) * 1000, 2)
            print(name, n, res[n], flush=True)
        results[name] = res
        ask(p, "quit") if False else None
        p.stdin.write("quit\n"); p.stdin.flush(); p.wait(10)
    print(json.dumps(results, indent=1))

main()
