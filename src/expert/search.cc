#include "expert/search.h"

#include <algorithm>

namespace cutegen {
namespace {

bool tried(const std::vector<Trial>& history, const Params& p) {
  return std::any_of(history.begin(), history.end(), [&](const Trial& t) { return t.params == p; });
}

// Parameter order to try: the verdict decides whether parallelism-in-flight comes first.
std::vector<const ParamDef*> parameter_order(const std::optional<BoundVerdict>& profile) {
  std::vector<const ParamDef*> defs;
  for (auto& d : param_defs())
    defs.push_back(&d);
  bool starved = profile && (profile->bound == Bound::kLatency ||
                             (profile->bound == Bound::kMemory && profile->percent_of_peak < 80));
  if (starved) {
    static const std::vector<std::string> first = {"unroll", "vec", "blocks_per_sm", "group", "split"};
    std::stable_partition(defs.begin(), defs.end(), [](const ParamDef* d) {
      return std::find(first.begin(), first.end(), d->name) != first.end();
    });
  }
  return defs;
}

}  // namespace

std::optional<Trial> best_trial(const std::vector<Trial>& history) {
  std::optional<Trial> best;
  for (auto& t : history)
    if (t.ok && (!best || t.ms < best->ms)) best = t;
  return best;
}

std::vector<Params> next_candidates(const std::vector<Trial>& history, const std::vector<Params>& space, int count,
                                    const std::vector<Params>& seeds) {
  std::vector<Params> out;
  auto take = [&](const Params& p) {
    if (static_cast<int>(out.size()) < count && !tried(history, p) && std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(p);
  };
  auto best = best_trial(history);
  if (!best) {
    for (auto& p : space)
      take(p);
    return out;
  }
  for (const ParamDef* d : parameter_order(best->profile)) {
    // Values of this parameter among space points equal to the best in every other parameter.
    std::vector<const Params*> line;
    for (auto& p : space) {
      Params q = p;
      q.*(d->field) = best->params.*(d->field);
      if (q == best->params) line.push_back(&p);
    }
    const Params *lower = nullptr, *higher = nullptr;
    int v = best->params.*(d->field);
    for (auto* p : line) {
      int w = p->*(d->field);
      if (w < v && (!lower || w > lower->*(d->field))) lower = p;
      if (w > v && (!higher || w < higher->*(d->field))) higher = p;
    }
    // Starved kernels try more of the resource first; otherwise the smaller step first.
    bool up_first = best->profile.has_value();
    for (auto* p : up_first ? std::vector{higher, lower} : std::vector{lower, higher})
      if (p) take(*p);
  }
  for (auto& p : seeds)
    take(p);
  return out;
}

}  // namespace cutegen
