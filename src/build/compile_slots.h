// A machine-wide pool of compile slots: flock'd files <dir>/slot-<i>, i < n. Every cutegen process
// that shares the build cache draws on the same pool, so a run over several GPUs (one process per
// GPU) keeps as few nvcc processes at once as one process would: bounded by cores and memory.
#pragma once

#include <string>

namespace cutegen {

class CompileSlot {
 public:
  // Waits (polling) until one of the `slots` slot files under `dir` is free and holds it. When the
  // folder cannot be made the slot is empty and nothing is limited: the pool is a courtesy, not a lock.
  static CompileSlot acquire(const std::string& dir, int slots);
  CompileSlot(CompileSlot&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  CompileSlot& operator=(CompileSlot&&) = delete;
  ~CompileSlot();
  bool held() const { return fd_ >= 0; }

 private:
  explicit CompileSlot(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace cutegen
