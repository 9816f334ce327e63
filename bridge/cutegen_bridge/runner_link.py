"""The judge's end of the candidate's process (`cutegen-runner`, src/runner/main.cc).

The runner is started with the same command line for every evaluation, enters its sandbox, loads the
candidate and maps only the buffers sent to it. A batch of calls is queued behind the `go` word of the
shared host page; the judge's clock runs from writing `go` to seeing `done`, so whatever the runner
reports about its calls is checked against time the candidate cannot touch.
"""
import os
import resource
import select
import socket
import subprocess
import time

from .shared_memory import HostPage

REPLY_TIMEOUT_S = 30.0
TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def run_queue_ns(schedstat_path):
    """The kernel's run-queue delay of one thread so far (runnable, no CPU): 0 where not kept."""
    try:
        with open(schedstat_path) as f:
            return int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0


class RunnerError(Exception):
    """The runner refused a command, faulted or stopped answering; `kind` is sandbox, fault, timeout or setup."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class Runner:
    def __init__(self, runner_path, library, env, log_path):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.log_path = log_path
        self.log = open(log_path, "wb")
        self.proc = subprocess.Popen([runner_path, library], stdin=theirs, stdout=self.log, stderr=self.log,
                                     env=env, close_fds=True)
        theirs.close()
        self.seq = 0
        self.buffers = {}  # id(SharedBuffer) -> the runner's buffer id
        self.batch_ms = 0.0  # the host clock of every batch run so far, reruns included

    def ask(self, text, fd=None, timeout=REPLY_TIMEOUT_S):
        try:
            if fd is None:
                self.sock.send(text.encode())
            else:
                socket.send_fds(self.sock, [text.encode()], [fd])
                os.close(fd)
            self.sock.settimeout(timeout)
            reply = self.sock.recv(1 << 20).decode(errors="replace")
        except socket.timeout:
            raise RunnerError("timeout", f"the candidate's process did not answer `{text.split()[0]}` "
                                         f"within {timeout:.0f} s")
        except OSError as exc:
            raise RunnerError("fault", f"the candidate's process is gone ({exc}; {self.exit_note()})")
        if not reply:
            raise RunnerError("fault", f"the candidate's process ended during `{text.split()[0]}` ({self.exit_note()})")
        if not reply.startswith("ok"):
            kind = reply.split()[1] if len(reply.split()) > 1 else "setup"
            raise RunnerError("fault" if kind == "fault" else "setup", reply[3:].strip())
        return reply[3:].strip()

    def exit_note(self):
        code = self.proc.poll()
        if code is None:
            return "still running"
        return f"killed by signal {-code}" if code < 0 else f"exit code {code}"

    def start(self, mask_dirs, null=False, require_sandbox=False):
        """Sandbox, candidate, CUDA; returns the sandbox's note."""
        try:
            note = self.ask("sandbox " + " ".join(mask_dirs))
        except RunnerError as exc:
            if require_sandbox or exc.kind != "setup":
                raise RunnerError("sandbox", f"no sandbox for the candidate: {exc}")
            note = f"UNSANDBOXED: {exc}"
        self.ask("load null" if null else "load")
        self.ask("cuda")
        self.page = HostPage()
        self.ask("host 4096", self.page.export_fd())
        return note

    def share(self, buf):
        if id(buf) not in self.buffers:
            self.buffers[id(buf)] = int(self.ask(f"buf {buf.nbytes}", buf.export_fd()).split()[1])
        return self.buffers[id(buf)]

    def set_flush(self, nbytes):
        self.ask(f"flush {nbytes}")

    def cpu_ms(self):
        """CPU time of the runner's process so far, every thread (ended ones too), in clock ticks."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1e3 / TICKS_PER_S  # utime, stime
        except (OSError, ValueError, IndexError):
            return 0.0

    def waited_ns(self):
        """Run-queue delay so far of this thread and of the runner's main thread, the one issuing calls."""
        return run_queue_ns("/proc/thread-self/schedstat") + run_queue_ns(f"/proc/{self.proc.pid}/schedstat")

    def batch(self, calls, timeout):
        """calls: lists of argument slots ("p<id>" or "x<hex>"). Returns (host_ms, [(flush_ms, call_ms)],
        preempted, wait_ms): preempted counts the times the OS took the CPU from this thread between
        writing `go` and seeing `done`, each of which can add a time slice to host_ms; wait_ms is how
        long this thread and the runner's sat runnable without a CPU meanwhile."""
        self.seq += 1
        body = "".join(" ".join(c) + "\n" for c in calls)  # one line per call, even a call with no arguments
        self.ask(f"batch {self.seq}\n{body}", timeout=REPLY_TIMEOUT_S)
        words = self.page.words
        deadline = time.perf_counter() + timeout
        switches = resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw
        waited = self.waited_ns()
        t0 = time.perf_counter_ns()
        words[0] = self.seq
        spins = 0
        while words[1] != self.seq:
            spins += 1
            if spins % 4096 == 0:  # now and then: a fault report, or the deadline
                if select.select([self.sock], [], [], 0)[0] or time.perf_counter() > deadline:
                    break
        if words[1] != self.seq:
            if time.perf_counter() > deadline:
                raise RunnerError("timeout", f"{len(calls)} calls did not finish within {timeout:.0f} s")
            self.receive_done(timeout)  # a fault report raises here
            raise RunnerError("fault", "the candidate's process reported its calls done before the GPU was")
        host_ms = (time.perf_counter_ns() - t0) / 1e6
        wait_ms = (self.waited_ns() - waited) / 1e6
        preempted = resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw - switches
        self.batch_ms += host_ms
        return host_ms, self.receive_done(timeout), preempted, wait_ms

    def receive_done(self, timeout):
        try:
            self.sock.settimeout(timeout)
            reply = self.sock.recv(1 << 20).decode(errors="replace")
        except (socket.timeout, OSError) as exc:
            raise RunnerError("fault", f"no report from the candidate's process ({exc}; {self.exit_note()})")
        if not reply.startswith("ok done"):
            raise RunnerError("fault", reply[3:].strip() if reply else f"the candidate's process ended ({self.exit_note()})")
        numbers = [float(x) for x in reply.split()[2:]]
        return list(zip(numbers[0::2], numbers[1::2]))

    def close(self, timeout=10):
        """Ends the process and waits for it: its GPU context is gone once this returns."""
        try:
            self.sock.send(b"quit")
        except OSError:
            pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.sock.close()
        self.log.close()
