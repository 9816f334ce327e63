#include "agent/html.h"

#include <cstdarg>
#include <cstdio>

namespace cutegen {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string strf(const char* format, ...) {
  char b[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(b, sizeof b, format, args);
  va_end(args);
  return b;
}

}  // namespace cutegen
