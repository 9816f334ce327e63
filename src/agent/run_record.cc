#include "agent/run_record.h"

namespace cutegen {

Result<RunRecord> read_run(const RunStore& store, const Ledger* ledger) {
  RunRecord r{.meta = CUTEGEN_TRY(store.meta()), .tasks = CUTEGEN_TRY(store.tasks())};
  for (auto& t : r.tasks) {
    auto& steps = r.steps[t.name] = CUTEGEN_TRY(store.steps(t.name));
    if (ledger) r.spend[t.name] = CUTEGEN_TRY(ledger->spent(r.meta.id, t.name));
    for (auto& s : steps)
      if (s.profiled && s.parent >= 0)
        r.profiles[t.name].push_back({s.step, s.parent, CUTEGEN_TRY(store.profile(t.name, s.parent))});
  }
  return r;
}

}  // namespace cutegen
