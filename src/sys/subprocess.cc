#include "sys/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/strings.h"

extern char** environ;

namespace cutegen {
namespace {

using Clock = std::chrono::steady_clock;

void append_capped(std::string& dst, const char* data, size_t n, size_t cap) {
  if (dst.size() >= cap) return;
  dst.append(data, std::min(n, cap - dst.size()));
}

// The exec error is reported back to the parent through a close-on-exec pipe.
[[noreturn]] void exec_child(const ProcessSpec& spec, pid_t parent, int in_fd, int out_fd, int err_fd, int status_fd) {
  setpgid(0, 0);
  if (spec.die_with_parent && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)) _exit(137);
  if (spec.nice != 0) (void)!::nice(spec.nice);  // best effort: a failure leaves the priority as it was
  dup2(in_fd, 0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
    int e = errno;
    (void)!write(status_fd, &e, sizeof e);
    _exit(127);
  }
  std::vector<char*> argv;
  for (auto& a : spec.argv)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  std::vector<char*> envp;
  if (spec.env) {
    for (auto& [k, v] : *spec.env)
      env_strings.push_back(k + "=" + v);
    for (auto& s : env_strings)
      envp.push_back(s.data());
    envp.push_back(nullptr);
    environ = envp.data();
  }
  execvp(argv[0], argv.data());
  int e = errno;
  (void)!write(status_fd, &e, sizeof e);
  _exit(127);
}

}  // namespace

std::string ProcessResult::describe() const {
  if (timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %.1f s", wall_seconds);
    return buf;
  }
  if (signal) return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

Result<ProcessResult> run_process(const ProcessSpec& spec) {
  if (spec.argv.empty()) return error("run_process: empty command");
  int in_pipe[2], out_pipe[2], err_pipe[2], status_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) || pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC) ||
      pipe2(status_pipe, O_CLOEXEC))
    return error(std::string("pipe: ") + strerror(errno));

  auto start = Clock::now();
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) return error(std::string("fork: ") + strerror(errno));
  if (pid == 0) exec_child(spec, parent, in_pipe[0], out_pipe[1], err_pipe[1], status_pipe[1]);
  setpgid(pid, pid);  // also done by the child; whichever runs first wins the race harmlessly
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(status_pipe[1]);

  int exec_errno = 0;
  if (read(status_pipe[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno) {
    close(status_pipe[0]);
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    waitpid(pid, nullptr, 0);
    return error("cannot run '" + spec.argv[0] + "': " + strerror(exec_errno));
  }
  close(status_pipe[0]);

  ProcessResult res;
  signal(SIGPIPE, SIG_IGN);
  size_t in_off = 0;
  int in_fd = in_pipe[1];
  if (spec.stdin_data.empty()) {
    close(in_fd);
    in_fd = -1;
  } else {
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
  }
  int out_fd = out_pipe[0], err_fd = err_pipe[0];
  char buf[65536];
  while (out_fd >= 0 || err_fd >= 0 || in_fd >= 0) {
    int wait_ms = -1;
    if (spec.timeout.count() > 0) {
      auto left = spec.timeout - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
      if (left.count() <= 0) {
        res.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(left.count());
    }
    pollfd fds[3];
    int n = 0;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    int rc = poll(fds, n, wait_ms);
    if (rc < 0 && errno == EINTR) continue;
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      int fd = fds[i].fd;
      if (fd == in_fd) {
        ssize_t w = write(fd, spec.stdin_data.data() + in_off, spec.stdin_data.size() - in_off);
        if (w > 0) in_off += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN) in_off = spec.stdin_data.size();
        if (in_off >= spec.stdin_data.size()) {
          close(in_fd);
          in_fd = -1;
        }
        continue;
      }
      ssize_t r = read(fd, buf, sizeof buf);
      if (r > 0) {
        append_capped(fd == out_fd ? res.out : res.err, buf, static_cast<size_t>(r), spec.max_output_bytes);
      } else if (r == 0 || errno != EAGAIN) {
        close(fd);
        (fd == out_fd ? out_fd : err_fd) = -1;
      }
    }
  }
  if (res.timed_out) kill(-pid, SIGKILL);
  for (int fd : {in_fd, out_fd, err_fd})
    if (fd >= 0) close(fd);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // Children the process left behind in its group must not outlive a timeout or keep pipes open.
  if (res.timed_out) kill(-pid, SIGKILL);
  res.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.signal = WTERMSIG(status);
  return res;
}

std::string find_executable(const std::string& name) {
  if (name.empty()) return "";
  if (contains(name, "/")) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  for (auto& dir : split(path ? path : "/usr/bin:/bin", ':')) {
    std::string cand = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st;
    if (stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(cand.c_str(), X_OK) == 0) return cand;
  }
  return "";
}

std::map<std::string, std::string> allowlisted_environment(const std::vector<std::string>& keep,
                                                           const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> env;
  for (auto& k : keep)
    if (const char* v = std::getenv(k.c_str())) env[k] = v;
  for (auto& [k, v] : extra)
    env[k] = v;
  return env;
}

}  // namespace cutegen
