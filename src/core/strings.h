// Small string helpers shared by every module.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cutegen {

std::string trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
std::vector<std::string> split_lines(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
bool contains(std::string_view haystack, std::string_view needle);
std::string replace_all(std::string s, std::string_view from, std::string_view to);
// Keeps the first `max_chars` characters and says how much was cut.
std::string truncate_middle(const std::string& s, size_t max_chars);
std::string lowercase(std::string_view s);

}  // namespace cutegen
