// An EvalResult as JSON, for `--json` output and the run store.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/evaluator.h"

namespace cutegen {

nlohmann::json eval_result_json(const EvalResult& r);

}  // namespace cutegen
