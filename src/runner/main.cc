// cutegen-runner: runs one candidate kernel for the judge, in a process of its own.
//
//   cutegen-runner CANDIDATE.so      (fd 0: a SOCK_SEQPACKET socket to the judge)
//
// The command line is the same for every evaluation and says nothing about what is measured: the
// judge sends every call the same way (a batch behind a go flag, each call with its own buffers
// and an L2 flush before it), then checks each call's outputs itself. Everything this process
// reports is untrusted: the judge cross-checks the intervals against its own clock.
//
// Commands (one message each; replies start with "ok" or "err"):
//   sandbox DIR...        enter the sandbox (sandbox.h), masking vendor libraries in DIR... too
//   load | load null      dlopen the candidate (or a no-op candidate, to calibrate) and find cutegen_invoke
//   cuda                  initialize the driver on device 0 (the judge sets CUDA_VISIBLE_DEVICES)
//   buf BYTES   + fd      map a buffer the judge exported (a POSIX fd of a cuMemCreate allocation)
//   host BYTES  + fd      map the shared host page: word 0 is `go`, word 1 is `done`
//   flush BYTES           allocate the buffer that each call's L2 flush writes
//   batch SEQ\nCALL...    replies "ok queued", waits on the host until go >= SEQ, then issues per call:
//                         event, flush, event, candidate, event; then done = SEQ on the stream. Replies
//                         "ok done F0 C0 F1 C1 ..." (ms of each flush and call) once the stream is idle. CALL:
//                         space-separated 64-bit argument slots in ABI order, "pID" for buffer ID's address or "xHEX"
//                         for a raw value.
//   quit
#include <dlfcn.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "runner/channel.h"
#include "runner/driver.h"
#include "runner/sandbox.h"

namespace cutegen::runner {
namespace {

using Invoke = void (*)(const uint64_t* slots, CUstream stream);
void null_invoke(const uint64_t*, CUstream) {}

struct Buffer {
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
};

class Runner {
 public:
  explicit Runner(std::string candidate) : candidate_(std::move(candidate)) {}

  // Returns the reply; sets `quit` when the loop should end.
  std::string handle(const Message& m, bool& quit) {
    std::istringstream in(m.text);
    std::string cmd;
    in >> cmd;
    if (cmd == "sandbox") return sandbox(in);
    if (cmd == "load") return load(in);
    if (cmd == "cuda") return cuda();
    if (cmd == "buf") return import_buffer(in, m.fd);
    if (cmd == "host") return map_host(in, m.fd);
    if (cmd == "flush") return flush_buffer(in);
    if (cmd == "batch") return batch(m.text);
    if (cmd == "quit") {
      quit = true;
      return "ok quit";
    }
    return "err unknown command " + cmd;
  }

  // The second reply of a batch, once its stream is idle.
  std::string finish_batch() {
    issue_batch();
    if (CUresult r = cu_.StreamSynchronize(stream_); r != CUDA_SUCCESS) {
      broken_ = true;
      return "err fault " + cu_.describe("cuStreamSynchronize", r);
    }
    std::string out = "ok done";
    for (size_t i = 0; i < calls_.size(); ++i) {
      float flush = 0, call = 0;
      cu_.EventElapsedTime(&flush, events_[3 * i], events_[3 * i + 1]);
      cu_.EventElapsedTime(&call, events_[3 * i + 1], events_[3 * i + 2]);
      out += " " + std::to_string(flush) + " " + std::to_string(call);
    }
    calls_.clear();
    return out;
  }
  bool pending() const { return !calls_.empty(); }
  bool broken() const { return broken_; }

 private:
  std::string sandbox(std::istringstream& in) {
    SandboxPlan plan{{}, candidate_};
    for (std::string d; in >> d;)
      plan.mask_dirs.push_back(d);
    SandboxResult r = enter_sandbox(plan);
    if (!r.ok) return "err sandbox " + r.note;
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a change of uid clears it
    candidate_ = r.candidate;
    return "ok " + r.note;
  }

  std::string load(std::istringstream& in) {
    std::string mode;
    in >> mode;
    if (mode == "null") {
      invoke_ = null_invoke;
      return "ok load null";
    }
    void* lib = dlopen(candidate_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) return std::string("err load ") + dlerror();
    invoke_ = reinterpret_cast<Invoke>(dlsym(lib, "cutegen_invoke"));
    return invoke_ ? "ok load" : "err load the library has no cutegen_invoke (not built by the harness)";
  }

  std::string cuda() {
    if (std::string why = cu_.load(); !why.empty()) return "err cuda " + why;
    CUdevice dev;
    CUcontext ctx;
    char name[256] = {};
    if (CUresult r = cu_.Init(0); r != CUDA_SUCCESS) return "err cuda " + cu_.describe("cuInit", r);
    if (CUresult r = cu_.DeviceGet(&dev, 0); r != CUDA_SUCCESS) return "err cuda " + cu_.describe("cuDeviceGet", r);
    cu_.DeviceGetName(name, sizeof name - 1, dev);
    // The primary context: the one the candidate's CUDA runtime will use too.
    if (CUresult r = cu_.DevicePrimaryCtxRetain(&ctx, dev); r != CUDA_SUCCESS)
      return "err cuda " + cu_.describe("cuDevicePrimaryCtxRetain", r);
    cu_.CtxSetCurrent(ctx);
    if (CUresult r = cu_.StreamCreate(&stream_, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS)
      return "err cuda " + cu_.describe("cuStreamCreate", r);
    return std::string("ok cuda ") + name;
  }

  std::string import_buffer(std::istringstream& in, int fd) {
    Buffer b;
    in >> b.bytes;
    if (fd < 0 || b.bytes == 0) return "err buf needs a size and a descriptor";
    CUmemGenericAllocationHandle h;
    CUresult r = cu_.MemImportFromShareableHandle(&h, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    close(fd);
    if (r != CUDA_SUCCESS) return "err buf " + cu_.describe("cuMemImportFromShareableHandle", r);
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = 0;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if ((r = cu_.MemAddressReserve(&b.ptr, b.bytes, 0, 0, 0)) != CUDA_SUCCESS ||
        (r = cu_.MemMap(b.ptr, b.bytes, 0, h, 0)) != CUDA_SUCCESS ||
        (r = cu_.MemSetAccess(b.ptr, b.bytes, &access, 1)) != CUDA_SUCCESS)
      return "err buf " + cu_.describe("mapping", r);
    cu_.MemRelease(h);
    buffers_.push_back(b);
    return "ok buf " + std::to_string(buffers_.size() - 1);
  }

  std::string map_host(std::istringstream& in, int fd) {
    size_t bytes = 0;
    in >> bytes;
    if (fd < 0 || bytes < 8) return "err host needs a size and a descriptor";
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return "err host mmap failed";
    if (CUresult r = cu_.MemHostRegister(p, bytes, CU_MEMHOSTREGISTER_DEVICEMAP); r != CUDA_SUCCESS)
      return "err host " + cu_.describe("cuMemHostRegister", r);
    if (CUresult r = cu_.MemHostGetDevicePointer(&host_, p, 0); r != CUDA_SUCCESS)
      return "err host " + cu_.describe("cuMemHostGetDevicePointer", r);
    host_word_ = static_cast<const uint32_t*>(p);
    return "ok host";
  }

  std::string flush_buffer(std::istringstream& in) {
    in >> flush_.bytes;
    if (CUresult r = cu_.MemAlloc(&flush_.ptr, flush_.bytes); r != CUDA_SUCCESS)
      return "err flush " + cu_.describe("cuMemAlloc", r);
    return "ok flush";
  }

  bool parse_call(const std::string& line, std::vector<uint64_t>& slots) const {
    std::istringstream in(line);
    for (std::string t; in >> t;) {
      if (t.size() < 2) return false;
      char* end = nullptr;
      unsigned long long v = std::strtoull(t.c_str() + 1, &end, t[0] == 'x' ? 16 : 10);
      if (*end) return false;
      if (t[0] == 'p') {
        if (v >= buffers_.size()) return false;
        slots.push_back(buffers_[v].ptr);
      } else if (t[0] == 'x') {
        slots.push_back(v);
      } else {
        return false;
      }
    }
    return true;
  }

  std::string batch(const std::string& text) {
    if (!invoke_ || !stream_ || !host_word_ || !flush_.ptr) return "err batch before load, cuda, host and flush";
    std::istringstream in(text);
    std::string head;
    std::getline(in, head);
    seq_ = static_cast<uint32_t>(std::strtoull(head.c_str() + 5, nullptr, 10));
    calls_.clear();
    for (std::string line; std::getline(in, line);) {
      calls_.emplace_back();
      if (!parse_call(line, calls_.back())) {
        std::string which = std::to_string(calls_.size());
        calls_.clear();
        return "err batch cannot read call " + which;
      }
    }
    if (calls_.empty()) return "err batch with no calls";  // nothing would ever write `done`
    while (events_.size() < 3 * calls_.size()) {
      CUevent e;
      if (CUresult r = cu_.EventCreate(&e, CU_EVENT_DEFAULT); r != CUDA_SUCCESS)
        return "err batch " + cu_.describe("cuEventCreate", r);
      events_.push_back(e);
    }
    return "ok queued";
  }

  // Waits on the host for go, then issues the whole batch; the GPU stays behind the host because
  // every call starts with a flush longer than issuing a call. Nothing waits on the GPU for go,
  // so a candidate that synchronizes inside cutegen_forward is slow, not deadlocked.
  void issue_batch() {
    const volatile uint32_t* go = host_word_;
    for (unsigned spins = 0; *go < seq_; ++spins)
      if (spins % 1024 == 0) {
        pollfd judge{0, POLLIN, 0};
        if (poll(&judge, 1, 0) > 0 && (judge.revents & (POLLHUP | POLLERR))) std::exit(1);  // the judge is gone
        sched_yield();
      }
    for (size_t i = 0; i < calls_.size(); ++i) {
      cu_.EventRecord(events_[3 * i], stream_);
      cu_.MemsetD8Async(flush_.ptr, static_cast<unsigned char>(i), flush_.bytes, stream_);
      cu_.EventRecord(events_[3 * i + 1], stream_);
      invoke_(calls_[i].data(), stream_);
      cu_.EventRecord(events_[3 * i + 2], stream_);
    }
    cu_.StreamWriteValue32(stream_, host_ + 4, seq_, CU_STREAM_WRITE_VALUE_DEFAULT);
  }

  std::string candidate_;
  Driver cu_;
  CUstream stream_ = nullptr;
  CUdeviceptr host_ = 0;
  Buffer flush_;
  std::vector<Buffer> buffers_;
  std::vector<CUevent> events_;
  Invoke invoke_ = nullptr;
  std::vector<std::vector<uint64_t>> calls_;  // the batch waiting for go
  uint32_t seq_ = 0;
  const uint32_t* host_word_ = nullptr;  // the host page as this process maps it
  bool broken_ = false;
};

}  // namespace
}  // namespace cutegen::runner

int main(int argc, char** argv) {
  using namespace cutegen::runner;
  if (argc != 2) {
    std::fprintf(stderr, "usage: cutegen-runner CANDIDATE.so  (fd 0: the judge's SOCK_SEQPACKET socket)\n");
    return 2;
  }
  close_range(3, ~0U, 0);            // nothing of the judge's but the socket and the standard streams
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // gone with the judge (set again after the sandbox's uid change)
  Runner runner(argv[1]);
  Message m;
  for (bool quit = false; !quit && receive(0, m);) {
    reply(0, runner.handle(m, quit));
    if (runner.pending()) reply(0, runner.finish_batch());
    if (runner.broken()) break;  // a faulted context is unusable; the judge sees the socket close
  }
  return 0;
}
