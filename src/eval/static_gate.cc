#include "eval/static_gate.h"

#include <algorithm>
#include <regex>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace {

struct Pattern {
  const char* kind;
  const char* regex;
};

// What counts as using CuTe: the constructs the paper's kernels are built from.
const Pattern kCuteKinds[] = {
    {"Layout", R"(\b(make_layout|Layout\s*<|make_shape|make_stride|composition|logical_divide|zipped_divide)\b)"},
    {"Tensor", R"(\b(make_tensor|make_gmem_ptr|make_smem_ptr|make_rmem_ptr|make_fragment_like|Tensor\s+\w)\b)"},
    {"tiling", R"(\b(local_tile|local_partition|partition_S|partition_D|partition_fragment_[ABC])\b)"},
    {"tiled copy", R"(\b(make_tiled_copy\w*|Copy_Atom|TiledCopy|copy_if|cute::copy|SM80_CP_ASYNC\w*|UniversalCopy)\b)"},
    {"TMA", R"(\b(make_tma_copy\w*|SM90_TMA_\w+|SM90_BULK_COPY_\w+|tma_store\w*)\b)"},
    {"MMA atom", R"(\b(make_tiled_mma|MMA_Atom|TiledMMA|SM80_16x8x\w+|SM90_64x\w+|cute::gemm|partition_[ABC])\b)"},
    {"swizzle", R"(\bSwizzle\s*<)"},
};

struct Rule {
  const char* rule;
  const char* regex;
  const char* why;
};

const Rule kSourceRules[] = {
    {"forbidden include", R"(#\s*include\s*[<"]\s*(torch/|ATen/|c10/|cublas|cublasLt|cudnn|cutlass/library/))",
     "kernels may not call torch, cuBLAS, cuDNN or the CUTLASS library"},
    {"dynamic loading", R"(\b(dlopen|dlsym|dlmopen)\s*\()", "kernels may not load libraries at run time"},
    {"side stream", R"(\b(cudaStreamCreate\w*|cudaStreamPerThread|cudaStreamLegacy|cuStreamCreate\w*)\b)",
     "work must run on the stream passed to cutegen_forward"},
    {"side stream", R"(<<<[^;]*?,\s*(0|nullptr|NULL|cudaStreamPerThread)\s*>>>)",
     "a launch names the default stream; pass `stream`"},
    {"library call", R"(\b(cublas\w+|cudnn\w+|at::\w+|torch::\w+)\s*\()", "kernels may not call vendor libraries"},
};

int line_of(const std::string& text, size_t pos) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

// Launches with fewer than four configuration arguments run on the default stream.
void check_launch_arity(const std::string& src, std::vector<GateFinding>& out) {
  static const std::regex launch(R"(<<<([^>]*)>>>)");
  for (auto it = std::sregex_iterator(src.begin(), src.end(), launch); it != std::sregex_iterator(); ++it) {
    std::string args = (*it)[1];
    int depth = 0, commas = 0;
    for (char c : args) {
      depth += (c == '(' || c == '{' || c == '<') - (c == ')' || c == '}' || c == '>');
      commas += c == ',' && depth == 0;
    }
    if (commas < 3)
      out.push_back({"side stream", "line " + std::to_string(line_of(src, it->position())) +
                                        ": launch <<<" + trim(args) + ">>> has no stream argument; pass `stream`"});
  }
}

// Comments and string literals are not code; blank them (keeping newlines for line numbers).
std::string strip_comments(const std::string& s) {
  std::string out = s;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n') out[i] = ' ';
    }
  }
  return out;
}

// Provenance comes from the symbol's version tag: glibc (libc, libm, libdl, libpthread), libstdc++
// and libgcc version every symbol they export. The static CUDA runtime is inside the library, so
// it leaves only versioned libc symbols behind; an unversioned undefined symbol must therefore be
// a weak loader hook or come from a library the harness never links (cuBLAS declared by hand...).
bool allowed_undefined(const std::string& versioned) {
  auto at = versioned.find('@');
  std::string name = versioned.substr(0, at);
  std::string version = at == std::string::npos ? "" : versioned.substr(versioned.find_first_not_of('@', at));
  static const std::regex system_version(R"(^(GLIBC|GLIBCXX|CXXABI|GCC)_[0-9.]+$)");
  static const std::regex unversioned_ok(R"(^(_ITM_\w+|__gmon_start__|__cxa_finalize|cuda\w+|cu[A-Z]\w*|__cuda\w+)$)");
  if (!version.empty()) return std::regex_match(version, system_version);
  return std::regex_match(name, unversioned_ok);
}

}  // namespace

CuteUsage cute_usage(const std::string& source) {
  std::string code = strip_comments(source);
  CuteUsage usage;
  for (auto& k : kCuteKinds) {
    std::regex re(k.regex);
    int n = static_cast<int>(std::distance(std::sregex_iterator(code.begin(), code.end(), re), std::sregex_iterator()));
    if (n) usage[k.kind] = n;
  }
  return usage;
}

std::string describe_usage(const CuteUsage& usage) {
  if (usage.empty()) return "none";
  std::vector<std::string> parts;
  for (auto& [k, n] : usage) parts.push_back(k + " x" + std::to_string(n));
  return join(parts, ", ");
}

std::vector<GateFinding> check_source(const std::string& source, bool require_cute) {
  std::string code = strip_comments(source);
  std::vector<GateFinding> out;
  for (auto& r : kSourceRules) {
    std::regex re(r.regex);
    std::smatch m;
    if (std::regex_search(code, m, re))
      out.push_back({r.rule, "line " + std::to_string(line_of(code, m.position())) + ": " + trim(m.str()) +
                                 " (" + r.why + ")"});
  }
  check_launch_arity(code, out);
  if (require_cute && cute_usage(code).empty())
    out.push_back({"no CuTe", "the kernel uses no CuTe layouts, tensors, copies or MMA atoms beyond the include"});
  return out;
}

std::vector<GateFinding> check_symbols(const std::vector<std::string>& undefined,
                                       const std::vector<std::string>& defined,
                                       const std::vector<std::string>& strings) {
  std::vector<GateFinding> out;
  if (std::find(defined.begin(), defined.end(), "cutegen_forward") == defined.end())
    out.push_back({"no entry point", "the library defines no extern \"C\" cutegen_forward"});
  for (auto& s : undefined)
    if (!allowed_undefined(s))
      out.push_back({"forbidden symbol", s + " is not from the CUDA runtime, libc, libm or libstdc++"});
  static const std::regex libs(R"((libcublas|libcublasLt|libcudnn|libtorch|libc10|libcutlass)\S*)");
  for (auto& s : strings) {
    std::smatch m;
    if (std::regex_search(s, m, libs)) {
      out.push_back({"forbidden library", "the binary names " + m.str()});
      break;
    }
  }
  return out;
}

Result<LibrarySymbols> read_library_symbols(const std::string& library_path) {
  LibrarySymbols syms;
  for (bool want_undefined : {true, false}) {
    std::vector<std::string> argv = {"nm", "-D", "--format=posix"};
    argv.push_back(want_undefined ? "--undefined-only" : "--defined-only");
    argv.push_back(library_path);
    auto r = CUTEGEN_TRY(run_process({.argv = argv, .timeout = std::chrono::seconds(60)}));
    if (!r.success()) return error("nm " + library_path + ": " + r.describe() + " " + trim(r.err));
    for (auto& line : split_lines(r.out)) {
      auto name = split(line, ' ')[0];  // "memcpy@GLIBC_2.14": the version tag names the provider
      if (!want_undefined) name = name.substr(0, name.find('@'));
      if (!name.empty()) (want_undefined ? syms.undefined : syms.defined).push_back(name);
    }
  }
  auto bytes = CUTEGEN_TRY(read_file(library_path));
  std::string run;
  for (char c : bytes) {
    if (c >= 32 && c < 127) {
      run += c;
    } else {
      if (run.size() >= 6) syms.strings.push_back(run);
      run.clear();
    }
  }
  return syms;
}

}  // namespace cutegen
