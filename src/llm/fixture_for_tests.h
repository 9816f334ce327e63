// Test support, header-only: starts testdata/fixture_server.py as a real process on loopback,
// reads its port from the first stdout line, and stops it when the object goes away.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "llm/backends.h"
#include "llm/http.h"
#include "cutegen_paths.h"

namespace cutegen {

class FixtureServer {
 public:
  explicit FixtureServer(std::vector<std::string> args = {}) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
    std::string script = std::string(CUTEGEN_SOURCE_DIR) + "/src/llm/testdata/fixture_server.py";
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0), dup2(out[1], 1);
      close(in[0]), close(in[1]), close(out[0]), close(out[1]);
      std::vector<char*> argv = {const_cast<char*>("python3"), script.data()};
      for (auto& a : args)
        argv.push_back(a.data());
      argv.push_back(nullptr);
      execvp("python3", argv.data());
      _exit(127);
    }
    close(in[0]), close(out[1]);
    stdin_ = in[1];
    FILE* f = fdopen(out[0], "r");
    char line[64] = {0};
    if (!f || !fgets(line, sizeof line, f)) throw std::runtime_error("fixture server printed no port");
    fclose(f);
    port_ = std::stoi(line);
  }
  ~FixtureServer() {
    close(stdin_);  // the server exits when its stdin closes
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  FixtureServer(const FixtureServer&) = delete;
  FixtureServer& operator=(const FixtureServer&) = delete;

  int port() const { return port_; }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Every request the server has seen: [{path, headers, body}].
  nlohmann::json log() const { return control("/control/log"); }
  void reset() const { control("/control/reset"); }

 private:
  nlohmann::json control(const std::string& path) const {
    auto r = make_curl_transport()->post({.url = base() + path, .body = "{}"}, {});
    if (!r) throw std::runtime_error(r.message());
    return nlohmann::json::parse(r->body);
  }
  pid_t pid_ = -1;
  int stdin_ = -1;
  int port_ = 0;
};

// Fast, deterministic options: sleeps are recorded, not slept; jitter is centred.
inline BackendOptions test_options(std::vector<double>* slept) {
  BackendOptions o;
  o.retry = RetryPolicy{.max_attempts = 3, .initial_s = 0.5, .multiplier = 2, .max_s = 4, .jitter = 0.25};
  o.sleep = [slept](double s) { slept->push_back(s); };
  o.random01 = [] { return 0.5; };
  o.timeout = std::chrono::seconds(10);
  o.connect_timeout = std::chrono::seconds(2);
  return o;
}

inline Request ask(const std::string& text, std::string system = "") {
  Request r;
  r.system = std::move(system);
  r.messages = {{"user", text}};
  r.max_output_tokens = 256;
  return r;
}

// A fresh folder under /tmp, removed at the end of the test.
struct TempDir {
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cutegen-llm-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
  std::string path;
};

}  // namespace cutegen
