#include "cli/slurm.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace {

using json = nlohmann::json;

std::string shell_quote(const std::string& s) { return "'" + replace_all(s, "'", "'\\''") + "'"; }

std::string self_exe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "cutegen" : p.string();
}

std::string array_script(const std::string& run_dir, const std::string& run_id, size_t elements,
                         const SlurmOptions& opt, const std::vector<std::string>& flags, int number) {
  std::string n = std::to_string(number);
  std::string s = "#!/bin/bash\n# Written by cutegen: element i runs share i of submission " + n +
                  " (the run's run.db lists the shares), each task into its shard.\n";
  s += "#SBATCH --job-name=" + slurm_job_name(run_id) + "\n";
  s += "#SBATCH --array=0-" + std::to_string(elements - 1) + "\n";
  s += "#SBATCH --output=" + run_dir + "/slurm/submit-" + n + "-%a.log\n";
  s += "#SBATCH --chdir=" + std::filesystem::current_path().string() + "\n";
  if (!opt.partition.empty()) s += "#SBATCH --partition=" + opt.partition + "\n";
  if (!opt.time.empty()) s += "#SBATCH --time=" + opt.time + "\n";
  if (opt.gpus_per_job > 0) s += "#SBATCH --gres=gpu:" + std::to_string(opt.gpus_per_job) + "\n";
  std::string cmd = "exec " + shell_quote(self_exe());
  for (auto& f : flags)
    cmd += " " + shell_quote(f);
  cmd += " work " + shell_quote(run_dir) + " --submission " + n;
  return s + cmd + "\n";
}

json options_json(const SlurmOptions& o) {
  return {{"partition", o.partition},
          {"time", o.time},
          {"gpus_per_job", o.gpus_per_job},
          {"tasks_per_job", o.tasks_per_job}};
}

}  // namespace

std::string slurm_job_name(const std::string& run_id) { return "cutegen-" + run_id; }

Result<Submission> submit_array(const std::string& run_dir, const std::string& run_id,
                                const std::vector<std::string>& tasks, const SlurmOptions& opt,
                                const std::vector<std::string>& flags, int number) {
  if (tasks.empty()) return error("nothing to submit");
  Submission sub{.number = number};
  size_t per = static_cast<size_t>(std::max(1, opt.tasks_per_job));
  for (size_t i = 0; i < tasks.size(); i += per)
    sub.shares.emplace_back(tasks.begin() + i, tasks.begin() + std::min(tasks.size(), i + per));
  CUTEGEN_TRY(make_dirs(run_dir + "/slurm"));
  std::string script = run_dir + "/slurm/submit-" + std::to_string(number) + ".sh";
  CUTEGEN_TRY(write_file_atomic(script, array_script(run_dir, run_id, sub.shares.size(), opt, flags, number)));
  auto r = CUTEGEN_TRY(run_process({.argv = {"sbatch", "--parsable", script}, .timeout = std::chrono::seconds(60)}));
  if (!r.success()) return error("sbatch " + r.describe() + ": " + trim(r.err + r.out));
  sub.job_id = trim(split(trim(r.out), ';')[0]);  // "<id>" or "<id>;<cluster>"
  return sub;
}

Status record_submission(RunStore& run, const Submission& s, const SlurmOptions& opt) {
  return run.event(
      "", -1, EventKind::kSlurmSubmit,
      json{{"number", s.number}, {"job", s.job_id}, {"shares", s.shares}, {"options", options_json(opt)}}.dump());
}

Result<std::vector<Submission>> submissions(const RunStore& run) {
  std::vector<Submission> out;
  for (auto& e : CUTEGEN_TRY(run.events())) {
    if (e.kind != EventKind::kSlurmSubmit) continue;
    auto j = json::parse(e.detail, nullptr, false);
    if (!j.is_object()) return error(run.db_path() + ": a damaged slurm_submit event");
    out.push_back({j.value("number", 0), j.value("job", std::string()),
                   j.value("shares", std::vector<std::vector<std::string>>{})});
  }
  return out;
}

Result<SlurmOptions> recorded_slurm_options(const RunStore& run) {
  SlurmOptions o;
  bool found = false;
  for (auto& e : CUTEGEN_TRY(run.events())) {
    if (e.kind != EventKind::kSlurmSubmit) continue;
    auto event = json::parse(e.detail, nullptr, false);
    if (!event.is_object()) continue;
    auto j = event.value("options", json::object());
    o = {j.value("partition", std::string()), j.value("time", std::string()), j.value("gpus_per_job", 1),
         j.value("tasks_per_job", 1)};
    found = true;
  }
  if (!found) return error(run.dir() + ": not a Slurm run");
  return o;
}

Result<std::map<std::string, std::string>> element_states(const std::string& run_id) {
  std::map<std::string, std::string> out;
  // sacct first (finished elements, where accounting is on), then squeue, which knows the live
  // ones and, for MinJobAge, the ended ones.
  auto acct = run_process({.argv = {"sacct", "-n", "-P", "-X", "--name=" + slurm_job_name(run_id), "-o", "JobID,State"},
                           .timeout = std::chrono::seconds(30)});
  if (acct.ok() && acct->success())
    for (auto& l : split_lines(acct->out)) {
      auto f = split(l, '|');
      if (f.size() >= 2 && !contains(f[0], "[")) out[trim(f[0])] = split(trim(f[1]), ' ')[0];  // "CANCELLED by 0"
    }
  auto q = CUTEGEN_TRY(
      run_process({.argv = {"squeue", "-h", "-r", "-t", "all", "--name=" + slurm_job_name(run_id), "-o", "%i %T"},
                   .timeout = std::chrono::seconds(30)}));
  if (!q.success()) return error("squeue " + q.describe() + ": " + trim(q.err));
  for (auto& l : split_lines(q.out)) {
    auto f = split(trim(l), ' ');
    if (f.size() >= 2) out[f[0]] = f[1];
  }
  return out;
}

bool slurm_state_live(const std::string& s) {
  return s == "PENDING" || s == "RUNNING" || s == "CONFIGURING" || s == "COMPLETING" || s == "SUSPENDED" ||
         s == "REQUEUED" || s == "RESIZING" || s == "STAGE_OUT" || s == "SIGNALING";
}

}  // namespace cutegen
