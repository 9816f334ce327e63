// The little HTML the report needs: text escaped for element content and attribute values, and
// printf-style formatting for numbers.
#pragma once

#include <string>
#include <string_view>

namespace cutegen {

// & < > " ' as entities: safe inside elements and inside quoted attributes.
std::string html_escape(std::string_view text);
// snprintf into a string (numbers and short labels; longer results are cut at 1 KiB).
std::string strf(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace cutegen
