#include "agent/report_plot.h"

#include <algorithm>
#include <cmath>

#include "agent/html.h"

namespace cutegen {
namespace {

constexpr double kWidth = 720, kHeight = 240;
constexpr double kLeft = 48, kRight = 16, kTop = 28, kBottom = 34;

// A tick spacing of 1, 2 or 5 times a power of ten giving about four ticks up to `top`.
double tick_step(double top) {
  double raw = top / 4, p = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

}  // namespace

std::string speedup_plot_svg(const std::string& task, const std::vector<StepRecord>& steps) {
  double top = 1.2;
  for (auto& s : steps)
    top = std::max(top, std::max(s.speedup, s.speedup_high) * 1.1);
  double tick = tick_step(top);
  top = std::ceil(top / tick) * tick;
  size_t n = std::max<size_t>(steps.size(), 1);
  double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  constexpr double kInset = 16;  // the first and last marks clear the axis labels
  auto x = [&](int step) {
    return kLeft + kInset + (plot_w - 2 * kInset) * (n == 1 ? 0.5 : static_cast<double>(step) / (n - 1));
  };
  auto y = [&](double v) { return kTop + plot_h * (1 - v / top); };

  std::string out = strf(
      "<svg class=\"speedup-plot\" data-task=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
      "viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"speedup over eager by step\">\n",
      html_escape(task).c_str(), kWidth, kHeight);
  for (double v = 0; v <= top + 1e-9; v += tick) {
    out += strf("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", kLeft, kWidth - kRight, y(v),
                y(v));
    out += strf("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%gx</text>\n", kLeft - 6, y(v) + 4, v);
  }
  out += strf(
      "<line class=\"eager\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
      "<text class=\"eager-label\" x=\"%.1f\" y=\"%.1f\">eager</text>\n",
      kLeft, kWidth - kRight, y(1), y(1), kLeft + 4, y(1) - 5);
  size_t label_every = std::max<size_t>(1, (n + 11) / 12);
  for (size_t i = 0; i < steps.size(); ++i)
    if (i % label_every == 0 || i + 1 == steps.size())
      out += strf("<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>", x(i),
                  kHeight - kBottom + 16, steps[i].step + 1);
  out += strf("<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">step</text>\n", kLeft + plot_w / 2,
              kHeight - 4);

  // The best kernel so far, as a step line from the first kept step on.
  std::string best_line;
  double best = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].outcome == StepOutcome::kAccepted) {
      if (best > 0) best_line += strf(" %.1f,%.1f", x(i), y(best));
      best = steps[i].speedup;
    }
    if (best > 0) best_line += strf(" %.1f,%.1f", x(i), y(best));
  }
  if (!best_line.empty()) out += "<polyline class=\"best\" points=\"" + best_line.substr(1) + "\"/>\n";

  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& s = steps[i];
    std::string title = strf("step %d (%s): %s, ", s.step + 1, name(s.stage), step_verdict_name(s)) +
                        (s.verdict == Verdict::kPass ? strf("%.2fx, ", s.speedup) : "") + name(s.outcome);
    std::string tip = "<title>" + html_escape(title) + "</title>";
    if (s.verdict == Verdict::kPass && s.speedup_high > s.speedup_low)
      out += strf("<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x(i), x(i), y(s.speedup_low),
                  y(s.speedup_high));
    if (s.outcome == StepOutcome::kAccepted || s.outcome == StepOutcome::kReverted)
      out += strf("<circle class=\"step %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\">", name(s.outcome), x(i), y(s.speedup)) +
             tip + "</circle>\n";
    else  // failed: a cross on the axis, the verdict in its tooltip
      out += strf("<path class=\"step failed\" d=\"M%.1f %.1fl9 9m0 -9l-9 9\">", x(i) - 4.5, y(0) - 4.5) + tip +
             "</path>\n";
  }
  out += strf("<g class=\"legend\" transform=\"translate(%.0f 14)\">", kLeft);
  out += "<circle class=\"step accepted\" cx=\"0\" cy=\"0\" r=\"5\"/><text x=\"9\" y=\"4\">kept</text>";
  out += "<circle class=\"step reverted\" cx=\"58\" cy=\"0\" r=\"5\"/><text x=\"67\" y=\"4\">reverted</text>";
  out += "<path class=\"step failed\" d=\"M136 -4.5l9 9m0 -9l-9 9\"/><text x=\"150\" y=\"4\">failed</text>";
  out +=
      "<line class=\"best\" x1=\"196\" x2=\"216\" y1=\"0\" y2=\"0\"/><text x=\"221\" y=\"4\">best so far</text></g>\n";
  return out + "</svg>";
}

}  // namespace cutegen
