// The runner's end of its SOCK_SEQPACKET socket to the judge (fd 0): one message per command or
// reply, a message may carry one file descriptor (a buffer's memory, the shared host page).
#pragma once

#include <string>

namespace cutegen::runner {

struct Message {
  std::string text;
  int fd = -1;  // received descriptor, or -1
};

// False at end of stream or on error.
bool receive(int sock, Message& m);
void reply(int sock, const std::string& text);

}  // namespace cutegen::runner
