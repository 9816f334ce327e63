#include "llm/budget.h"

#include <cstdio>

namespace cutegen {
namespace {

std::optional<std::string> over(const char* scope, const Limits& l, const Spend& s) {
  char buf[160];
  if (l.calls > 0 && s.calls >= l.calls)
    std::snprintf(buf, sizeof buf, "%s calls: %ld made of %ld", scope, s.calls, l.calls);
  else if (l.tokens > 0 && s.tokens >= l.tokens)
    std::snprintf(buf, sizeof buf, "%s tokens: %ld spent of %ld", scope, s.tokens, l.tokens);
  else if (l.dollars > 0 && s.dollars >= l.dollars)
    std::snprintf(buf, sizeof buf, "%s dollars: $%.4f spent of $%.4f", scope, s.dollars, l.dollars);
  else
    return std::nullopt;
  return std::string(buf);
}

}  // namespace

std::optional<std::string> Budget::exhausted() const {
  if (auto r = over("run", run_limits_, run_)) return r;
  return over("task", task_limits_, task_);
}

void Budget::charge(const Usage& u, double dollars) {
  for (Spend* s : {&run_, &task_}) {
    s->calls += 1;
    s->tokens += u.input + u.output;
    s->dollars += dollars;
  }
}

}  // namespace cutegen
