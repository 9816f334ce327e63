#include "cli/commands.h"

namespace cutegen {

const std::vector<CommandDef>& commands() {
  static const std::vector<CommandDef> table = {
      {"build", "compile a CUDA/CuTe source to a shared library (cached)", define_build},
      {"doctor", "check this machine's toolchain, GPU, profiler and Python", define_doctor},
      {"task", "describe a task file: inputs, parameters, outputs, ops, FLOPs and its C ABI header", define_task},
      {"eval", "verify and time a candidate kernel against a task's reference on the GPU", define_eval},
      {"profile", "profile a candidate: static facts, and Nsight Compute counters where a GPU allows", define_profile},
      {"prompt", "print the prompt the model would get for a task at a stage (no GPU, no model needed)", define_prompt},
      {"llm", "send a prompt (stdin or --prompt) to a model spec and print the answer and usage", define_llm},
      {"run",
       "generate, verify and optimize kernels for tasks (files or folders) into a new run folder; --agent "
       "expert|llm|hybrid",
       define_run},
      {"resume", "continue a run that was stopped, killed or is waiting for a model's answer", define_resume},
      {"status", "each task of a run: queued, running, stopped or done, from its shard and from Slurm", define_status},
      {"work", "run a share of a Slurm run's tasks here (what each element of its job array runs)", define_work},
      {"replay", "re-run a recorded run with its recorded model answers, as a new run", define_replay},
      {"reeval", "re-measure a run's best kernels with the evaluator, no model calls", define_reeval},
      {"export", "write a task's best kernel as a standalone .cu and a KernelBench ModelNew .py", define_export},
      {"report",
       "write a run's HTML report: its table, KernelBench aggregates, and per task plots, diffs, profiles and findings",
       define_report},
      {"expert", "the built-in CuTe expert: recognize a task, list its template's parameter space, emit kernels",
       define_expert},
      {"config", "print every config key with its value and where it came from", define_config},
  };
  return table;
}

}  // namespace cutegen
