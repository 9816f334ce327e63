// `cutegen report RUN [--out FILE]`: the run's HTML report (agent/report.h), by default
// RUN/report.html; read-only, so it works while the run is going.
#include <cstdio>

#include "agent/report.h"
#include "cli/commands.h"
#include "cli/run_setup.h"
#include "sys/fs.h"

namespace cutegen {

void define_report(CLI::App& sub, Context& ctx) {
  auto run = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  sub.add_option("run", *run, "run folder or id")->required();
  sub.add_option("--out", *out, "the HTML file to write (default: RUN/report.html)");
  sub.callback([&ctx, run, out]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto view = must(RunView::open(run_dir(ctx, *run)));  // all shards as one run
    std::string path = out->empty() ? view.run().dir() + "/report.html" : *out;
    must(Result<Ok>(write_file_atomic(path, run_report_html(must(read_run(view))))));
    std::printf("%s\n", path.c_str());
  });
}

}  // namespace cutegen
