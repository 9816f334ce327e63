// Prototype 2: buffers imported from POSIX fds (VMM), sync by stream memory operations.
#include <cuda.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char* s = ""; cuGetErrorString(e, &s); printf("err %s %s\n", #x, s); fflush(stdout); } } while (0)

static int recv_fd(int sock) {
  char data; iovec io{&data, 1}; char ctrl[CMSG_SPACE(sizeof(int))];
  msghdr m{}; m.msg_iov = &io; m.msg_iovlen = 1; m.msg_control = ctrl; m.msg_controllen = sizeof ctrl;
  if (recvmsg(sock, &m, 0) <= 0) return -1;
  cmsghdr* c = CMSG_FIRSTHDR(&m); int fd; memcpy(&fd, CMSG_DATA(c), sizeof fd); return fd;
}

int main(int argc, char** argv) {
  int sockfd = argc > 1 ? atoi(argv[1]) : 3;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  std::vector<CUdeviceptr> bufs;
  printf("ready uid=%d\n", getuid());
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    char cmd[32]; if (sscanf(line, "%31s", cmd) != 1) continue;
    if (!strcmp(cmd, "mem")) {  // mem bytes: the fd arrives on fd 3
      size_t n; sscanf(line, "%*s %zu", &n);
      int fd = recv_fd(sockfd);
      CUmemGenericAllocationHandle h; CK(cuMemImportFromShareableHandle(&h, (void*)(long)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
      close(fd);
      CUdeviceptr p; CK(cuMemAddressReserve(&p, n, 0, 0, 0)); CK(cuMemMap(p, n, 0, h, 0));
      CUmemAccessDesc a{}; a.location.type = CU_MEM_LOCATION_TYPE_DEVICE; a.location.id = 0; a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      CK(cuMemSetAccess(p, n, &a, 1)); CK(cuMemRelease(h));
      bufs.push_back(p); printf("ok mem %zu\n", bufs.size() - 1);
    } else if (!strcmp(cmd, "run")) {  // run flagbuf seq dst src bytes
      long f, seq, a, b, n; sscanf(line, "%*s %ld %ld %ld %ld %ld", &f, &seq, &a, &b, &n);
      CK(cuStreamWaitValue32(s, bufs[f], (cuuint32_t)seq, CU_STREAM_WAIT_VALUE_GEQ));
      if (n > 0) CK(cuMemcpyDtoDAsync(bufs[a], bufs[b], n, s));
      CK(cuStreamWriteValue32(s, bufs[f] + 4, (cuuint32_t)seq, 0));
      printf("ok run\n");
    } else if (!strcmp(cmd, "sync")) { CK(cuStreamSynchronize(s)); printf("ok sync\n"); }
    else if (!strcmp(cmd, "quit")) break;
  }
  return 0;
}
