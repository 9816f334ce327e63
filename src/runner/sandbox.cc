#include "runner/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/mount.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace cutegen::runner {
namespace {

constexpr uid_t kNobody = 65534;

std::string failed(const std::string& what) { return what + ": " + std::strerror(errno); }

bool write_text(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// Where libraries are found by default, plus LD_LIBRARY_PATH; the judge adds its own (torch's) folders.
std::vector<std::string> library_dirs(const std::vector<std::string>& extra) {
  std::vector<std::string> dirs = {"/usr/local/cuda/lib64",
                                   "/usr/local/cuda/targets/x86_64-linux/lib",
                                   "/usr/lib/x86_64-linux-gnu",
                                   "/lib/x86_64-linux-gnu",
                                   "/usr/lib64",
                                   "/usr/local/lib",
                                   "/usr/lib"};
  if (const char* ld = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream in(ld);
    for (std::string d; std::getline(in, d, ':');)
      if (!d.empty()) dirs.push_back(d);
  }
  dirs.insert(dirs.end(), extra.begin(), extra.end());
  return dirs;
}

// Binds /dev/null over every vendor library in the folders; returns how many were masked.
int mask_vendor_libraries(const std::vector<std::string>& dirs) {
  std::set<std::string> done, masked_files;
  int masked = 0;
  for (const auto& dir : dirs) {
    char real[PATH_MAX];
    if (!realpath(dir.c_str(), real) || !done.insert(real).second) continue;
    DIR* d = opendir(real);
    if (!d) continue;
    while (dirent* e = readdir(d)) {
      if (!is_vendor_library(e->d_name)) continue;
      // A link is masked where it leads, which may be another folder (Debian's alternatives put
      // libblas.so.3 under blas/).
      char target[PATH_MAX];
      std::string path = std::string(real) + "/" + e->d_name;
      struct stat st;
      if (!realpath(path.c_str(), target) || stat(target, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (masked_files.insert(target).second && mount("/dev/null", target, nullptr, MS_BIND, nullptr) == 0) ++masked;
    }
    closedir(d);
  }
  return masked;
}

// Root of the machine, not root of a user namespace someone else made (where only one uid is mapped).
bool machine_root() {
  if (geteuid() != 0) return false;
  std::ifstream map("/proc/self/uid_map");
  unsigned long inside = 1, outside = 1, count = 0;
  map >> inside >> outside >> count;
  return inside == 0 && outside == 0 && count == 4294967295UL;
}

int mount_setattr_flags(const char* path, bool recursive, uint64_t set, uint64_t clear) {
  mount_attr attr{};
  attr.attr_set = set;
  attr.attr_clr = clear;
  return static_cast<int>(syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? AT_RECURSIVE : 0, &attr, sizeof attr));
}

}  // namespace

bool is_vendor_library(const std::string& name) {
  static const char* stems[] = {"cublas", "cudnn",    "cufft", "curand",    "cusolver", "cusparse",
                                "nccl",   "nvblas",   "nvrtc", "nvJitLink", "torch",    "c10",
                                "mkl",    "openblas", "blas",  "cblas",     "lapack",   "cutlass"};
  if (name.rfind("lib", 0) != 0 || name.find(".so") == std::string::npos) return false;
  for (const char* s : stems)
    if (name.compare(3, std::strlen(s), s) == 0) return true;
  return false;
}

SandboxResult enter_sandbox(const SandboxPlan& plan) {
  SandboxResult r;
  std::ifstream in(plan.candidate, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) return {false, "cannot read " + plan.candidate, ""};
  bool root = machine_root();
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | (root ? 0 : CLONE_NEWUSER)) != 0)
    return {false, failed("unshare"), ""};
  if (!root && !(write_text("/proc/self/setgroups", "deny") &&
                 write_text("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") &&
                 write_text("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")))
    return {false, failed("user namespace maps"), ""};
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return {false, failed("private mounts"), ""};
  int masked = mask_vendor_libraries(library_dirs(plan.mask_dirs));
  if (mount_setattr_flags("/", true, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0) != 0)
    return {false, failed("read-only root"), ""};
  // cuInit writes under /proc (the H200 machine: it fails with a read-only /proc); as nobody the
  // candidate can write only its own process's files there.
  if (mount_setattr_flags("/proc", false, 0, MOUNT_ATTR_RDONLY) != 0) return {false, failed("writable /proc"), ""};
  if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=512m,mode=1777") != 0)
    return {false, failed("private /tmp"), ""};
  r.candidate = "/tmp/candidate.so";
  {
    std::ofstream out(r.candidate, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return {false, "cannot copy the candidate into the private /tmp", ""};
  }
  chmod(r.candidate.c_str(), 0555);
  std::string who = "the caller's uid " + std::to_string(uid) + " (not root, so no other uid to take)";
  if (root) {
    if (setgroups(0, nullptr) != 0 || setresgid(kNobody, kNobody, kNobody) != 0 ||
        setresuid(kNobody, kNobody, kNobody) != 0)
      return {false, failed("dropping to nobody"), ""};
    who = "uid/gid 65534 (nobody)";
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return {false, failed("no_new_privs"), ""};
  r.ok = true;
  r.note = "sandbox: mount+network+IPC namespaces" + std::string(root ? "" : " in a user namespace") +
           ", read-only filesystem, private /tmp, " + std::to_string(masked) + " vendor libraries masked, " + who;
  return r;
}

}  // namespace cutegen::runner
