import ctypes, os, socket, subprocess, sys, statistics, json
import torch
torch.zeros(1, device="cuda")
cu = ctypes.CDLL("libcuda.so.1")
class Loc(ctypes.Structure): _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]
class Flags(ctypes.Structure): _fields_ = [("compressionType", ctypes.c_ubyte), ("gpuDirectRDMACapable", ctypes.c_ubyte), ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]
class Prop(ctypes.Structure): _fields_ = [("type", ctypes.c_int), ("requestedHandleTypes", ctypes.c_int), ("location", Loc), ("win32HandleMetaData", ctypes.c_void_p), ("allocFlags", Flags)]
class Access(ctypes.Structure): _fields_ = [("location", Loc), ("flags", ctypes.c_int)]
def ck(r, what):
    if r != 0: raise RuntimeError(f"{what} -> {r}")
prop = Prop(); prop.type = 1; prop.requestedHandleTypes = 1; prop.location.type = 1; prop.location.id = 0
gran = ctypes.c_size_t(); ck(cu.cuMemGetAllocationGranularity(ctypes.byref(gran), ctypes.byref(prop), 0), "gran")
G = gran.value
class Buf:
    def __init__(self, n):
        n = -(-n // G) * G; self.n = n
        h = ctypes.c_ulonglong(); ck(cu.cuMemCreate(ctypes.byref(h), ctypes.c_size_t(n), ctypes.byref(prop), ctypes.c_ulonglong(0)), "create")
        p = ctypes.c_ulonglong(); ck(cu.cuMemAddressReserve(ctypes.byref(p), ctypes.c_size_t(n), ctypes.c_size_t(0), ctypes.c_ulonglong(0), ctypes.c_ulonglong(0)), "reserve")
        ck(cu.cuMemMap(p, ctypes.c_size_t(n), ctypes.c_size_t(0), h, ctypes.c_ulonglong(0)), "map")
        a = Access(); a.location.type = 1; a.location.id = 0; a.flags = 3
        ck(cu.cuMemSetAccess(p, ctypes.c_size_t(n), ctypes.byref(a), ctypes.c_size_t(1)), "access")
        fd = ctypes.c_int(); ck(cu.cuMemExportToShareableHandle(ctypes.byref(fd), h, 1, ctypes.c_ulonglong(0)), "export")
        self.fd, self.ptr = fd.value, p.value
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "|u1", "data": (self.ptr, False), "version": 3}
        self.t = torch.as_tensor(self, device="cuda")
def main():
    sizes = [16 << 10, 64 << 20, 512 << 20, 4 << 30]
    bufs = {n: (Buf(n), Buf(n)) for n in sizes}
    flag = Buf(G); flag.t.zero_()
    for a, b in bufs.values(): b.t.random_(0, 255)
    prefixes = {"plain": [], "ns-net-mnt-nobody": ["unshare", "--net", "--mount", "--ipc", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]}
    for name, pre in prefixes.items():
        js, rs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        p = subprocess.Popen(pre + [sys.argv[1], str(rs.fileno())], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, pass_fds=(rs.fileno(),))
        print(name, p.stdout.readline().strip())
        def ask(line, fd=None):
            p.stdin.write(line + "\n"); p.stdin.flush()
            if fd is not None: socket.send_fds(js, [b"x"], [fd])
            r = p.stdout.readline().strip()
            if not r.startswith("ok"): print("RUNNER:", r, "for", line)
            return r
        idx = {}
        fl = int(ask(f"mem {flag.n}", flag.fd).split()[2])
        for n, (a, b) in bufs.items():
            idx[n] = (int(ask(f"mem {a.n}", a.fd).split()[2]), int(ask(f"mem {b.n}", b.fd).split()[2]))
        s = torch.cuda.Stream(); seq = 0
        flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
        for n, (a, b) in bufs.items():
            r = {"cross": [], "local": [], "empty": []}
            for i in range(30):
                for mode in r:
                    a.t.zero_(); torch.cuda.synchronize(); seq += 1
                    with torch.cuda.stream(s):
                        torch.cuda._sleep(2_000_000); flush.zero_()
                        st, en = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                        st.record(s)
                        if mode == "local":
                            cu.cuMemcpyDtoDAsync_v2(ctypes.c_ulonglong(a.ptr), ctypes.c_ulonglong(b.ptr), ctypes.c_size_t(n), ctypes.c_void_p(s.cuda_stream))
                        else:
                            ck(cu.cuStreamWriteValue32_v2(ctypes.c_void_p(s.cuda_stream), ctypes.c_ulonglong(flag.ptr), ctypes.c_uint(seq), 0), "write")
                            ask(f"run {fl} {seq} {idx[n][0]} {idx[n][1]} {n if mode == 'cross' else 0}")
                            ck(cu.cuStreamWaitValue32_v2(ctypes.c_void_p(s.cuda_stream), ctypes.c_ulonglong(flag.ptr + 4), ctypes.c_uint(seq), 0), "wait")
                        en.record(s)
                    torch.cuda.synchronize()
                    if mode == "cross" and not torch.equal(a.t, b.t):
                        fv = flag.t[:8].view(torch.int32).tolist()
                        bad = (a.t != b.t).sum().item()
                        ask("sync")
                        bad2 = (a.t != b.t).sum().item()
                        print("MISMATCH", name, n, i, "seq", seq, "flags", fv, "bad", bad, "after runner sync", bad2, flush=True)

                    r[mode].append(st.elapsed_time(en) * 1000)
            print(name, n, {k: round(statistics.median(v), 2) for k, v in r.items()}, {k + "_sd": round(statistics.pstdev(v), 2) for k, v in r.items()}, flush=True)
        p.stdin.write("quit\n"); p.stdin.flush(); p.wait(10)
main()
