#include "profile/static_profile.h"

#include <filesystem>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {

const std::vector<InstructionClass>& instruction_classes() {
  static const std::vector<InstructionClass> table = {
      {"HGMMA", "HGMMA", "", "Hopper warpgroup MMA (wgmma)"},
      {"HMMA", "HMMA", "", "warp-level tensor-core MMA (mma.sync)"},
      {"LDGSTS", "LDGSTS", "", "cp.async global->shared copies"},
      {"UTMALDG", "UTMALDG", "", "TMA tile loads"},
      {"LDG.128", "LDG", ".128", "128-bit global loads"},
      {"STG.128", "STG", ".128", "128-bit global stores"},
      {"LDL", "LDL", "", "local-memory loads (spills or indexed arrays)"},
      {"STL", "STL", "", "local-memory stores (spills or indexed arrays)"},
  };
  return table;
}

int SassMix::count(const std::string& label) const {
  auto it = counts.find(label);
  return it == counts.end() ? 0 : it->second;
}

namespace {

// "        /*00c0*/   @!P0 LDG.E.128.CONSTANT R8, desc[UR4][R4.64] ;  /* 0x... */" -> "LDG.E.128.CONSTANT"
std::string opcode_of(const std::string& line) {
  auto open = line.find("/*");
  if (open == std::string::npos) return "";
  auto close = line.find("*/", open);
  if (close == std::string::npos || line.find_first_not_of("0123456789abcdef", open + 2) != close) return "";
  auto words = split(trim(line.substr(close + 2)), ' ');
  size_t w = 0;
  while (w < words.size() && (words[w].empty() || words[w][0] == '@'))
    ++w;
  if (w >= words.size()) return "";
  std::string op = words[w];
  if (!op.empty() && op.back() == ';') op.pop_back();
  return op;
}

bool matches(const InstructionClass& c, const std::string& op) {
  auto parts = split(op, '.');
  if (parts[0] != c.opcode) return false;
  return !*c.modifier || contains(op + ".", std::string(c.modifier) + ".");
}

}  // namespace

std::map<std::string, SassMix> parse_sass(const std::string& dump) {
  std::map<std::string, SassMix> out;
  SassMix* cur = nullptr;
  for (auto& line : split_lines(dump)) {
    if (auto f = line.find("Function : "); f != std::string::npos) {
      cur = &out[trim(line.substr(f + 11))];
      continue;
    }
    if (!cur) continue;
    std::string op = opcode_of(line);
    if (op.empty()) continue;
    ++cur->total;
    for (auto& c : instruction_classes())
      if (matches(c, op)) ++cur->counts[c.label];
  }
  return out;
}

std::string find_cuobjdump(const std::string& nvcc) {
  if (auto p = find_executable("cuobjdump"); !p.empty()) return p;
  std::vector<std::string> dirs;
  if (!nvcc.empty()) dirs.push_back(std::filesystem::path(nvcc).parent_path().string());
  dirs.push_back("/usr/local/cuda/bin");
  // Triton wheels (pulled in by torch) ship a recent cuobjdump.
  for (const std::string& start : {executable_dir(), std::string(CUTEGEN_SOURCE_DIR)}) {
    std::string venv = find_upwards(start, ".deps/venv");
    if (venv.empty()) continue;
    std::error_code ec;
    for (auto& lib : std::filesystem::directory_iterator(venv + "/lib", ec))
      dirs.push_back(lib.path().string() + "/site-packages/triton/backends/nvidia/bin");
  }
  for (auto& d : dirs)
    if (file_exists(d + "/cuobjdump")) return d + "/cuobjdump";
  return "";
}

StaticProfile static_profile(const BuildResult& build, const std::string& cuobjdump) {
  StaticProfile p;
  for (auto& k : build.kernels)
    p.kernels.push_back({k, std::nullopt});
  if (cuobjdump.empty()) {
    p.sass_note = "no cuobjdump found (CUDA toolkit bin/ or Triton's bundled copy): instruction mix unavailable";
    return p;
  }
  auto r = run_process({.argv = {cuobjdump, "-sass", build.library_path}, .timeout = std::chrono::seconds(60)});
  if (!r || !r->success()) {
    p.sass_note = "cuobjdump -sass failed (" + (r ? r->describe() + ": " + trim(r->err) : r.message()) + ")";
    return p;
  }
  auto mixes = parse_sass(r->out);
  for (auto& k : p.kernels)
    if (auto it = mixes.find(k.resources.mangled); it != mixes.end()) k.mix = it->second;
  return p;
}

}  // namespace cutegen
