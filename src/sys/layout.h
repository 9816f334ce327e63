// Where the binary finds the project's own files (the bridge, prompts/, the CUTLASS headers):
// first in the install layout beside it (PREFIX/bin/cutegen reads PREFIX/share/cutegen/...), then
// walking up from the binary (a build tree inside a checkout, or a moved tree), then the checkout it
// was built from. So an installed tool works with the checkout gone, and a build tree needs no install.
#pragma once

#include <string>

namespace cutegen {

// PREFIX/share/cutegen for a binary in PREFIX/bin (whether or not it exists).
std::string install_share_dir();
// The first existing `install_relative` under install_share_dir(), else `checkout_relative` found
// upwards from the binary, else under the checkout; "" when none exists.
std::string locate_project_file(const std::string& install_relative, const std::string& checkout_relative);
// Where a located path came from, for `cutegen doctor`: "install" (under PREFIX/share/cutegen, or
// beside the binary outside the checkout), "checkout" or "elsewhere".
std::string project_file_origin(const std::string& path);

}  // namespace cutegen
