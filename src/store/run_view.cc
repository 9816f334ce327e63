#include "store/run_view.h"

#include "sys/fs.h"

namespace cutegen {

std::string shard_dir(const std::string& run_dir, const std::string& task) { return run_dir + "/shards/" + task; }

Result<RunView> RunView::open(const std::string& run_dir) {
  RunView v(CUTEGEN_TRY(RunStore::open_readonly(run_dir)));
  for (auto& t : CUTEGEN_TRY(v.run_.tasks())) {
    std::string dir = shard_dir(run_dir, t.name);
    if (file_exists(dir + "/run.db")) v.shards_.emplace(t.name, CUTEGEN_TRY(RunStore::open_readonly(dir)));
  }
  return v;
}

Result<std::vector<TaskRow>> RunView::tasks() const {
  auto rows = CUTEGEN_TRY(run_.tasks());
  for (auto& row : rows) {
    auto it = shards_.find(row.name);
    if (it == shards_.end()) continue;
    for (auto& s : CUTEGEN_TRY(it->second.tasks()))
      if (s.name == row.name)
        row = TaskRow{s.name, row.path, row.position, s.status, s.spec_json, s.stop_reason, s.best_step, s.final_json};
  }
  return rows;
}

Result<std::vector<StepRecord>> RunView::steps(const std::string& task) const { return store_for(task).steps(task); }

const RunStore& RunView::store_for(const std::string& task) const {
  auto it = shards_.find(task);
  return it == shards_.end() ? run_ : it->second;
}

}  // namespace cutegen
