#include "build/compile_slots.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <optional>
#include <thread>

namespace cutegen {

TEST(CompileSlots, APoolOfTwoLetsTwoCompileAndTheThirdWaitsForOne) {
  std::string dir = "/tmp/cutegen-slots-" + std::to_string(getpid());
  std::atomic<bool> third{false};
  {
    auto a = CompileSlot::acquire(dir, 2);
    std::optional<CompileSlot> b(CompileSlot::acquire(dir, 2));
    EXPECT_TRUE(a.held() && b->held());
    std::thread waiter([&]() {
      auto c = CompileSlot::acquire(dir, 2);  // the slots are files: a thread or another process waits alike
      third = c.held();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(third) << "a third compile started while two held the pool";
    b.reset();
    waiter.join();
    EXPECT_TRUE(third);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace cutegen
