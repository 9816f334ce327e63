#include "agent/line_diff.h"

#include "core/strings.h"

namespace cutegen {

std::vector<DiffLine> line_diff(const std::string& before, const std::string& after, int context) {
  auto a = split_lines(before), b = split_lines(after);
  size_t n = a.size(), m = b.size();
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]; kernels are a few hundred lines.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> all;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j])
      all.push_back({' ', a[i++]}), ++j;
    else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]))
      all.push_back({'-', a[i++]});  // removals first
    else
      all.push_back({'+', b[j++]});
  }
  // Keep unchanged lines within `context` of a change; runs beyond that become one '~' line.
  std::vector<int> near(all.size() + 1, 0);
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k].kind != ' ')
      for (long d = -context; d <= context; ++d)
        if (long at = static_cast<long>(k) + d; at >= 0 && at < static_cast<long>(all.size())) near[at] = 1;
  std::vector<DiffLine> out;
  for (size_t k = 0; k < all.size();) {
    if (near[k]) {
      out.push_back(all[k++]);
      continue;
    }
    size_t run = 0;
    while (k < all.size() && !near[k])
      ++k, ++run;
    out.push_back({'~', std::to_string(run)});
  }
  return out;
}

}  // namespace cutegen
