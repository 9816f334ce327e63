#include "agent/run_record.h"

namespace cutegen {

Result<RunRecord> read_run(const RunView& run) {
  RunRecord r{.meta = CUTEGEN_TRY(run.meta()), .tasks = CUTEGEN_TRY(run.tasks())};
  for (auto& t : r.tasks) {
    auto& steps = r.steps[t.name] = CUTEGEN_TRY(run.steps(t.name));
    const RunStore& store = run.store_for(t.name);
    auto ledger = CUTEGEN_TRY(Ledger::open(store.db_path()));
    r.spend[t.name] = CUTEGEN_TRY(ledger.spent(CUTEGEN_TRY(store.meta()).id, t.name));
    for (auto& s : steps)
      if (s.profiled && s.parent >= 0)
        if (auto profile = CUTEGEN_TRY(store.profile(t.name, s.parent)))
          r.profiles[t.name].push_back({s.step, s.parent, profile->text});
  }
  return r;
}

}  // namespace cutegen
