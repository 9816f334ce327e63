#!/bin/sh
# A scripted model for `--llm command:sh tests/agent/relu_session/answer.sh`: answers each prompt
# by its template's header line with a prepared answer (the honest ReLU kernel, reached through
# a compile error and a wrong result). A re-ask gets the answer of the prompt it re-asks.
dir=$(dirname "$0")
prompt=$(cat)
case "$prompt" in
  *"<!-- prompt: optimize"*"cutegen-demo v3"*) cat "$dir/tune.md"; exit 0 ;;
esac
for kind in repair_compile repair_wrong optimize tune generate; do
  case "$prompt" in
    *"<!-- prompt: $kind"*) cat "$dir/$kind.md"; exit 0 ;;
  esac
done
echo "answer.sh: no prepared answer for this prompt" >&2
exit 1
