// File-system helpers that report failures as one-line errors.
#pragma once

#include <string>

#include "core/result.h"

namespace cutegen {

Result<std::string> read_file(const std::string& path);
// Writes through a temporary file and rename, so readers never see a half-written file.
Status write_file_atomic(const std::string& path, const std::string& data);
Status make_dirs(const std::string& path);
// Creates `dir` if needed and proves it writable by creating and removing a file in it.
Status ensure_writable_dir(const std::string& dir);
bool file_exists(const std::string& path);
// Directory of the running executable (from /proc/self/exe).
std::string executable_dir();
// Walks up from `start` looking for `relative`; returns the first existing match or "".
std::string find_upwards(const std::string& start, const std::string& relative);
std::string absolute_path(const std::string& path);

}  // namespace cutegen
