#!/bin/sh
# A scripted model for hybrid runs (`--llm command:sh tests/agent/expert/hybrid_answer.sh`): it answers
# only when the prompt's base kernel is the expert's best point under tests/agent/expert/evaluator.json
# (threads=512), with a whole-file rewrite that evaluator scores 2.40x.
prompt=$(cat)
if printf '%s' "$prompt" | grep -qF '[threads=512,vec=4,unroll=1,blocks_per_sm=0,'; then
  cat <<'ANSWER'
A rewrite of the expert's kernel.

```cuda
#include <cute/tensor.hpp>
// cutegen-demo v2: the model's refinement
using namespace cute;
extern "C" void cutegen_forward(const float* x, float* out, cudaStream_t stream) {}
```
ANSWER
  exit 0
fi
echo "hybrid_answer.sh: the prompt's base is not the expert's best kernel" >&2
exit 1
