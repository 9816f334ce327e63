#include "build/compile_slots.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "sys/fs.h"

namespace cutegen {

CompileSlot CompileSlot::acquire(const std::string& dir, int slots) {
  if (!make_dirs(dir).ok()) return CompileSlot(-1);
  for (;;) {
    for (int i = 0; i < slots; ++i) {
      int fd = open((dir + "/slot-" + std::to_string(i)).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) return CompileSlot(-1);
      if (flock(fd, LOCK_EX | LOCK_NB) == 0) return CompileSlot(fd);
      close(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

CompileSlot::~CompileSlot() {
  if (fd_ >= 0) close(fd_);  // closing releases the lock
}

}  // namespace cutegen
