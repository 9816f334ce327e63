#include <cstdio>

#include "cli/commands.h"

namespace cutegen {

void define_config(CLI::App& sub, Context& ctx) {
  sub.callback([&ctx]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    for (auto& k : config_keys())
      std::printf("%-22s = %-14s  # %s [%s]\n", k.key, ctx.config.str(k.key).c_str(), k.help,
                  ctx.config.origin(k.key).c_str());
  });
}

}  // namespace cutegen
