// Prototype: a separate process that opens IPC buffers/events and runs copies bracketed by the judge.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <unistd.h>

static bool unhex(const char* s, void* out, size_t n) {
  auto* b = (unsigned char*)out;
  for (size_t i = 0; i < n; ++i) { unsigned v; if (sscanf(s + 2 * i, "%2x", &v) != 1) return false; b[i] = v; }
  return true;
}
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("err %s %s\n", #x, cudaGetErrorString(e)); fflush(stdout); } } while (0)

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<void*> bufs; std::vector<cudaEvent_t> evs;
  char line[4096];
  printf("ready uid=%d pid=%d\n", getuid(), getpid());
  while (fgets(line, sizeof line, stdin)) {
    char cmd[32]; char arg[1024]; long a = 0, b = 0, n = 0;
    if (sscanf(line, "%31s", cmd) != 1) continue;
    if (!strcmp(cmd, "mem")) {
      sscanf(line, "%*s %1023s", arg); cudaIpcMemHandle_t h; unhex(arg, &h, sizeof h);
      void* p = nullptr; CK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess)); bufs.push_back(p);
      printf("ok mem %zu %p\n", bufs.size() - 1, p);
    } else if (!strcmp(cmd, "ev")) {
      sscanf(line, "%*s %1023s", arg); cudaIpcEventHandle_t h; unhex(arg, &h, sizeof h);
      cudaEvent_t ev; CK(cudaIpcOpenEventHandle(&ev, h)); evs.push_back(ev); printf("ok ev %zu\n", evs.size() - 1);
    } else if (!strcmp(cmd, "run")) {  // run go done dst src bytes
      long go, done; sscanf(line, "%*s %ld %ld %ld %ld %ld", &go, &done, &a, &b, &n);
      CK(cudaStreamWaitEvent(s, evs[go], 0));
      if (n > 0) CK(cudaMemcpyAsync(bufs[a], bufs[b], n, cudaMemcpyDeviceToDevice, s));
      CK(cudaEventRecord(evs[done], s));
      printf("ok run\n");
    } else if (!strcmp(cmd, "sync")) { CK(cudaStreamSynchronize(s)); printf("ok sync\n"); }
    else if (!strcmp(cmd, "quit")) break;
  }
  for (void* p : bufs) cudaIpcCloseMemHandle(p);
  return 0;
}
