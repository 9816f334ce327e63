#include "eval/static_gate.h"

#include <algorithm>
#include <regex>
#include <set>
#include <utility>

#include "core/strings.h"
#include "eval/static_gate_reach.h"
#include "eval/static_gate_text.h"
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

// Headers, matched against every file the candidate's #include lines bring in.
const char* const kForbiddenHeader = R"((^|/)(torch|ATen|c10)/|cublas|cudnn|cutlass/library/)";
const char* const kForbiddenHeaderWhy = "kernels may not call torch, cuBLAS, cuDNN or the CUTLASS library";

// Judged on the candidate's own preprocessed lines, literals blanked: macros and token pasting are
// expanded by then, so a name is caught however it was spelled. Names, not just calls, count:
// taking a function's address hides the call. RTLD_* flags and paths like /proc/self are no
// rules: the flags are macros gone by now and a path can be assembled at run time; the functions
// that would use them are. The runner's sandbox is the real boundary; this is the first filter.
const Rule kSourceRules[] = {
    // cuBLAS is already mapped in the worker (torch loaded it), so finding it needs no dlopen:
    // the loader's list of libraries and their ELF tables lead there too.
    {"dynamic loading",
     R"(\b(dlopen|dlmopen|dlsym|dlvsym|dladdr1?|dlinfo|dl_iterate_phdr|__libc_dl\w+|_dl_\w+|_r_debug|r_debug|link_map|_DYNAMIC|Elf(32|64)_\w+)\b)",
     "kernels may not load or look up libraries at run time"},
    {"library call", R"(\b(cublas\w*|cudnn\w*)\b|\b(at|torch|c10)\s*::)", "kernels may not call vendor libraries"},
    {"python call", R"(\b_?Py[A-Z]\w*)", "kernels may not call into the Python interpreter running the worker"},
    {"side stream", R"(\b(cudaStreamCreate\w*|cuStreamCreate\w*)\b)",
     "work must run on the stream passed to cutegen_forward"},
    // cudaStreamPerThread and cudaStreamLegacy are macros for ((cudaStream_t)0x2) and 0x1; a
    // kernel has no reason to make a stream handle from anything but the one passed in.
    {"side stream",
     R"(\(\s*(cudaStream_t|CUstream)\s*\)|\b\w+_cast\s*<\s*(cudaStream_t|CUstream)\s*>|\b(cudaStream_t|CUstream)\s*[({]|\b(cudaStream_t|CUstream)\s+\w+\s*=\s*(0|__null|nullptr)\b)",
     "a stream handle made from an integer names the default, legacy or per-thread stream"},
    {"side stream", R"(<<<[^;]*?,\s*(0|nullptr|__null)\s*>>>)", "a launch names the default stream; pass `stream`"},
    // Work off the stream hides from its events, and may outlive the call.
    {"host process or thread",
     R"((?:^|[^.>\w])(fork|vfork|clone3?|exec[lv]\w*|posix_spawn\w*|system|popen|pthread_create|thrd_create)\b|\bstd\s*::\s*(j?thread|async)\b)",
     "kernels may not start processes or host threads"},
    // Raw system calls and page protection get past every name above (mprotect could patch the
    // reference); a kernel reads no files or environment, so no cached or test-aware answer.
    {"system access",
     R"((?:^|[^.>\w])(syscall|mprotect|mmap|ptrace|prctl|process_vm_\w+|fopen|freopen|open|openat|creat|\w*fstream|getenv|secure_getenv|setenv|putenv|environ)\b)",
     "kernels may not make system calls or touch files or the environment"},
};

std::string located(int line, const std::string& what, const std::string& why) {
  return "line " + std::to_string(line) + ": " + what + " (" + why + ")";
}

// Launches with fewer than four configuration arguments run on the default stream.
void check_launch_arity(const OwnCode& own, std::vector<GateFinding>& out) {
  static const std::regex launch(R"(<<<([\s\S]*?)>>>)");
  // Template argument lists (`min<int>(`, `T<U<V>>::`) go first, innermost out, so that a `<` left
  // is a comparison (`blocks < 8192 ? blocks : 8192`), not a bracket.
  static const std::regex template_args(R"(<[^<>;(){}]*>\s*(?=[({:>]))");
  auto& src = own.text;
  for (auto it = std::sregex_iterator(src.begin(), src.end(), launch); it != std::sregex_iterator(); ++it) {
    std::string args = (*it)[1], bare = args;
    for (std::string prev; prev != bare;)
      prev = std::exchange(bare, std::regex_replace(bare, template_args, ""));
    int depth = 0, commas = 0;
    for (char c : bare) {
      depth += (c == '(' || c == '{' || c == '[') - (c == ')' || c == '}' || c == ']');
      commas += c == ',' && depth == 0;
    }
    if (commas < 3) {
      out.push_back({"side stream", located(own.line_at(it->position()), "launch <<<" + trim(args) + ">>>",
                                            "no stream argument; pass `stream`")});
      return;
    }
  }
}

// One pass's findings, each rule at its first match.
std::vector<GateFinding> check_pass(const OwnCode& own) {
  std::vector<GateFinding> out;
  static const std::regex header(kForbiddenHeader);
  for (auto& inc : own.includes)
    if (std::regex_search(inc.path, header)) {
      out.push_back({"forbidden include", located(inc.line, "#include brings in " + inc.path, kForbiddenHeaderWhy)});
      break;
    }
  for (auto& r : kSourceRules) {
    std::regex re(r.regex);
    std::smatch m;
    // Located by the match's last character: a match may begin with the one before a name.
    if (std::regex_search(own.text, m, re))
      out.push_back({r.rule, located(own.line_at(m.position() + m.length() - 1), trim(m.str()), r.why)});
  }
  check_launch_arity(own, out);
  if (auto host_asm = host_assembly(own.text); !host_asm.empty())
    out.push_back({"host assembly", located(own.line_at(host_asm[0]), "asm outside device code",
                                            "host-side assembly could make system calls no name shows")});
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

CuteUsage cute_usage(const std::string& code) {
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
  for (auto& [k, n] : usage)
    parts.push_back(k + " x" + std::to_string(n));
  return join(parts, ", ");
}

std::vector<GateFinding> check_written_source(const std::string& source) {
  std::string code = blank(source, Blank::kComments);
  static const std::regex include(R"(#\s*include\s*[<"]\s*([^>"\n]*))");
  static const std::regex header(kForbiddenHeader);
  static const std::regex line_directive(R"((^|\n)[ \t]*#[ \t]*(line\b|[0-9]))");
  std::vector<GateFinding> out;
  auto line_of = [&](size_t pos) {
    return 1 + static_cast<int>(std::count(code.begin(), code.begin() + long(pos), '\n'));
  };
  for (auto it = std::sregex_iterator(code.begin(), code.end(), include); it != std::sregex_iterator(); ++it)
    if (std::regex_search(it->str(1), header)) {
      out.push_back({"forbidden include", located(line_of(it->position()), it->str(), kForbiddenHeaderWhy)});
      break;
    }
  if (std::smatch m; std::regex_search(code, m, line_directive))
    out.push_back({"line directive", located(line_of(m.position() + m.length(1)), "#line",
                                             "line directives would pass the candidate's code off as a header's")});
  return out;
}

SourceGate check_preprocessed(const Preprocessed& pp, bool require_cute) {
  SourceGate gate;
  std::set<std::string> seen;  // the passes mostly agree: each rule once, from the first pass that breaks it
  for (auto& pass : pp.passes) {
    OwnCode own = own_code(pass.text, pp.source_path);
    for (auto& f : check_pass(own))
      if (seen.insert(f.rule).second) gate.findings.push_back(f);
    for (auto& [kind, n] : cute_usage(reachable_code(own.text)))
      gate.cute[kind] = std::max(gate.cute[kind], n);
  }
  if (require_cute && gate.cute.empty())
    gate.findings.push_back({"no CuTe",
                             "the code cutegen_forward reaches uses no CuTe layouts, tensors, copies or "
                             "MMA atoms (strings, comments, #if 0 and uncalled functions do not count)"});
  return gate;
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
