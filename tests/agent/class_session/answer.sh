#!/bin/sh
# A scripted model for `--llm "command:sh tests/agent/class_session/answer.sh KERNEL.cu"`: whatever
# the prompt (generate, repair, the workload class's optimize template), the answer is KERNEL.cu as a
# whole file. With a real kernel it shows the loop, on the real evaluator, choosing each class's
# prompts (scripts/gpu stage `classes`; cli.RunCommandTest.EachWorkloadClassGetsItsOptimizePrompt).
cat > /dev/null
[ -f "$1" ] || { echo "answer.sh: no kernel file '$1'" >&2; exit 1; }
printf 'The kernel, whole.\n\n```cuda\n'
cat "$1"
printf '```\n'
