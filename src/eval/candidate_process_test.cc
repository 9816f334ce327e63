// The candidate's process on a CPU machine: the real cutegen-runner, driven through the bridge's own
// runner_link, loads a hostile stand-in (testdata/hostile_candidate.c). Its command line says nothing
// about the evaluation, and it cannot write the judge's answer or ceilings files or open a vendor
// library. (The GPU side of the runner is exercised by scripts/gpu's adversarial suite.)
#include <gtest/gtest.h>

#include <filesystem>

#include "core/strings.h"
#include "cutegen_paths.h"
#include "eval/worker.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"

namespace cutegen {
namespace {

namespace fs = std::filesystem;

std::string runner_binary() {
  const char* bin = std::getenv("CUTEGEN_BIN");
  return bin ? (fs::path(bin).parent_path() / "cutegen-runner").string() : "";
}

// A file outside /tmp (the sandbox gives the runner a /tmp of its own), as the judge's files are.
fs::path judge_dir() {
  return fs::path(CUTEGEN_SOURCE_DIR) / "build" / ("candidate-process-test-" + std::to_string(getpid()));
}

TEST(CandidateProcess, HostileCandidateReachesNothingOfTheJudges) {
  std::string runner = runner_binary();
  ASSERT_TRUE(file_exists(runner)) << "cutegen-runner next to CUTEGEN_BIN: " << runner;
  fs::path dir = judge_dir();
  fs::create_directories(dir);
  std::string lib = (dir / "hostile.so").string();
  auto cc = run_process({.argv = {"cc", "-shared", "-fPIC", "-o", lib,
                                  std::string(CUTEGEN_SOURCE_DIR) + "/src/eval/testdata/hostile_candidate.c", "-ldl"},
                         .timeout = std::chrono::seconds(60)});
  ASSERT_TRUE(cc.ok() && cc->success()) << (cc.ok() ? cc->err : cc.message());
  for (auto name : {"answer.json", "ceilings.json"})
    ASSERT_TRUE(write_file_atomic((dir / name).string(), "judge's").ok());
  // The vendor libraries this machine has (CI's CUDA toolkit has cuBLAS, Debian's BLAS sits behind
  // an alternatives link), and one the runner itself loads, which must stay reachable.
  std::vector<std::string> vendor;
  for (auto p : {"/usr/local/cuda/lib64/libcublas.so", "/usr/lib/x86_64-linux-gnu/libblas.so.3", "libcublasLt.so"})
    if (file_exists(p) || p[0] != '/') vendor.push_back(p);

  std::string script = R"py(
import os, sys
from cutegen_bridge.runner_link import Runner, RunnerError
runner = Runner(sys.argv[1], sys.argv[2], dict(os.environ), sys.argv[3])
try:
    print("sandbox:", runner.ask("sandbox"))
except RunnerError as exc:
    print("sandbox: UNSANDBOXED", exc)
print("load:", runner.ask("load"))
# The judge's accounting of a busy machine reads the sandboxed runner's CPU time and run-queue delay.
print("schedstat fields:", len(open(f"/proc/{runner.proc.pid}/schedstat").read().split()))
print("stat fields:", len(open(f"/proc/{runner.proc.pid}/stat").read().rsplit(")", 1)[1].split()) > 12)
try:
    runner.ask("cuda")
except RunnerError as exc:
    print("cuda:", exc.kind)
runner.close()
print("exit:", runner.exit_note())
)py";
  std::string log = (dir / "runner.log").string();
  auto env = worker_environment({.python = python_executable(""), .bridge_dir = bridge_dir()});
  env["HOSTILE_ANSWER"] = (dir / "answer.json").string();
  env["HOSTILE_CEILINGS"] = (dir / "ceilings.json").string();
  env["HOSTILE_LIBS"] = join(vendor, ":") + ":libm.so.6";
  auto r = run_process({.argv = {python_executable(""), "-c", script, runner, lib, log},
                        .env = env,
                        .timeout = std::chrono::seconds(120)});
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->success()) << r->out << r->err;
  if (contains(r->out, "sandbox: UNSANDBOXED") || !contains(r->out, "sandbox: sandbox:"))
    GTEST_SKIP() << "this machine allows no namespaces: " << r->out;
  EXPECT_TRUE(contains(r->out, "load: load")) << r->out;
  EXPECT_TRUE(contains(r->out, "schedstat fields: 3\n")) << r->out;
  EXPECT_TRUE(contains(r->out, "stat fields: True\n")) << r->out;
  std::string seen = *read_file(log);
  EXPECT_TRUE(contains(seen, "cmdline: " + runner + " " + lib + " \n")) << "a fixed command line:\n" << seen;
  // Read-only where the judge's folder is visible; absent where it lies under /tmp, which the sandbox
  // replaces with a private one (a checkout under /tmp): either way the candidate cannot write them.
  for (const char* file : {"answer: ", "ceilings: "})
    EXPECT_TRUE(contains(seen, file + std::string("Read-only file system")) ||
                contains(seen, file + std::string("No such file or directory")))
        << seen;
  for (auto& v : vendor)
    EXPECT_TRUE(contains(seen, "library " + v + ": refused")) << seen;
  EXPECT_TRUE(contains(seen, "library libm.so.6: LOADED")) << "the system's own libraries stay:\n" << seen;
  if (geteuid() == 0) {
    EXPECT_TRUE(contains(seen, "uid: 65534")) << seen;
  }
  EXPECT_EQ(*read_file((dir / "answer.json").string()), "judge's");
  EXPECT_EQ(*read_file((dir / "ceilings.json").string()), "judge's");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cutegen
