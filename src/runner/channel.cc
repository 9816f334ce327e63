#include "runner/channel.h"

#include <sys/socket.h>

#include <cstring>
#include <vector>

namespace cutegen::runner {

bool receive(int sock, Message& m) {
  std::vector<char> buf(1 << 20);  // a batch of many calls still fits one message
  char control[CMSG_SPACE(sizeof(int))];
  iovec io{buf.data(), buf.size()};
  msghdr h{};
  h.msg_iov = &io;
  h.msg_iovlen = 1;
  h.msg_control = control;
  h.msg_controllen = sizeof control;
  ssize_t n = recvmsg(sock, &h, MSG_CMSG_CLOEXEC);
  if (n <= 0) return false;
  m.text.assign(buf.data(), static_cast<size_t>(n));
  m.fd = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) std::memcpy(&m.fd, CMSG_DATA(c), sizeof(int));
  return true;
}

void reply(int sock, const std::string& text) { send(sock, text.data(), text.size(), MSG_NOSIGNAL); }

}  // namespace cutegen::runner
