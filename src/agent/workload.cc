#include "agent/workload.h"

#include "core/strings.h"

namespace cutegen {
namespace {

struct WorkloadRow {
  Workload workload;
  std::vector<const char*> op_words;  // an op matches when one begins a word of its bare name (see op_base)
  int profile_after;
  const char* optimize_template;
};

const std::vector<WorkloadRow>& rows() {
  static const std::vector<WorkloadRow> table = {
      {Workload::kConv, {"convolution", "conv1d", "conv2d", "conv3d", "conv_transpose"}, 6, "optimize_conv"},
      {Workload::kGemm, {"mm", "matmul", "linear", "addmm", "bmm", "baddbmm", "einsum", "dot"}, 6, "optimize_gemm"},
      {Workload::kLoss, {"loss", "cross_entropy", "nll", "kl_div", "binary_cross"}, 3, "optimize_reduction"},
      {Workload::kReduction,
       {"sum", "mean", "softmax", "norm", "var", "std", "max", "min", "amax", "amin", "argmax", "argmin", "prod",
        "cumsum", "cumprod", "logsumexp", "any", "all", "pool"},
       5,
       "optimize_reduction"},
      {Workload::kOther,
       {"sort", "argsort", "topk", "gather", "scatter", "index", "embedding", "unique", "nonzero", "where_nonzero",
        "interpolate", "upsample", "grid_sampler"},
       4,
       "optimize_other"},
      {Workload::kElementwise, {}, 2, "optimize_elementwise"},  // what no row's words name
  };
  return table;
}

// The op's bare name, lowercased. The bridge writes torch's OpOverload names,
// "namespace.name.overload" ("aten.mm.default", "aten.sum.dim_IntList"); a packet is
// "namespace.name"; the schema form "aten::mm.out" is accepted too. Names never hold a dot.
std::string op_base(const std::string& op) {
  std::string s = op;
  if (auto p = s.find("::"); p != std::string::npos) {
    s = s.substr(p + 2);
  } else if (auto p = s.find('.'); p != std::string::npos) {
    s = s.substr(p + 1);  // drop the namespace
  }
  if (auto p = s.find('.'); p != std::string::npos) s = s.substr(0, p);  // drop the overload
  return lowercase(s);
}

// Whether `word` begins one of the name's '_'-separated words: "norm" in "native_layer_norm",
// "linear" not in "upsample_bilinear2d".
bool starts_a_word(const std::string& base, const std::string& word) {
  for (auto p = base.find(word); p != std::string::npos; p = base.find(word, p + 1))
    if (p == 0 || base[p - 1] == '_') return true;
  return false;
}

bool is_shape_only(const std::string& base) {
  static const char* words[] = {"view",    "reshape", "permute", "transpose", "expand", "contiguous", "clone",
                                "copy",    "empty",   "zeros",   "ones",      "full",   "t",          "unsqueeze",
                                "squeeze", "slice",   "select",  "detach",    "alias",  "_to_copy",   "to",
                                "flatten", "split",   "cat",     "stack"};
  for (auto w : words)
    if (base == w) return true;
  return false;
}

const WorkloadRow& row_of(Workload w) {
  for (auto& row : rows())
    if (row.workload == w) return row;
  return rows().back();  // unreachable: every class has a row (workload_test checks)
}

}  // namespace

template <>
std::span<const NameRow<Workload>> name_table() {
  static const NameRow<Workload> t[] = {
      {Workload::kConv, "conv", "conv"},    {Workload::kGemm, "gemm", "gemm"},
      {Workload::kLoss, "loss", "loss"},    {Workload::kReduction, "reduction", "reduction"},
      {Workload::kOther, "other", "other"}, {Workload::kElementwise, "elementwise", "elementwise"},
  };
  return t;
}

Workload classify_workload(const std::vector<std::string>& ops) {
  for (auto& row : rows())
    for (auto& op : ops) {
      std::string base = op_base(op);
      for (auto w : row.op_words) {
        // Short words ("mm", "max", "std") must be the whole name or its first or last word.
        std::string word = w;
        bool hit = word.size() <= 3 ? base == word || base.starts_with(word + "_") || base.ends_with("_" + word) ||
                                          (word == "mm" && (base == "bmm" || base == "addmm" || base == "baddbmm"))
                                    : starts_a_word(base, word);
        if (hit) return row.workload;
      }
    }
  bool any = false;
  for (auto& op : ops)
    if (!is_shape_only(op_base(op))) any = true;
  return any ? Workload::kElementwise : Workload::kOther;
}

int default_profile_after(Workload w) { return row_of(w).profile_after; }

std::string optimize_template(Workload w) { return row_of(w).optimize_template; }

}  // namespace cutegen
