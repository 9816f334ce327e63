// Every ```cuda fragment of the knowledge pack (prompts/knowledge/*.md) compiles with the real
// Builder for sm_90a against the toolchain's CUTLASS. A fragment whose first line is
// `// whole file` is a translation unit as written; any other is a function body, compiled inside
// a __global__ function after `#include <cute/tensor.hpp>`. The cache lives under the system temp
// dir across runs, so an unchanged pack compiles nothing.
#include <gtest/gtest.h>

#include <filesystem>

#include "build/builder.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

struct Fragment {
  std::string where;  // file:line of the fence
  std::string code;
};

std::vector<Fragment> cuda_fragments(const std::string& path, const std::string& text) {
  std::vector<Fragment> out;
  auto lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (trim(lines[i]) != "```cuda") continue;
    Fragment f{path.substr(path.find_last_of('/') + 1) + ":" + std::to_string(i + 1), ""};
    while (++i < lines.size() && trim(lines[i]) != "```")
      f.code += lines[i] + "\n";
    out.push_back(f);
  }
  return out;
}

std::string translation_unit(const std::string& code) {
  if (code.starts_with("// whole file")) return code;
  return "#include <cute/tensor.hpp>\n__global__ void knowledge_fragment() {\n" + code + "}\n";
}

TEST(KnowledgePack, EveryCudaFragmentCompiles) {
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  std::vector<Fragment> fragments;
  for (auto& e : std::filesystem::directory_iterator(std::string(CUTEGEN_SOURCE_DIR) + "/prompts/knowledge")) {
    if (e.path().extension() != ".md") continue;
    auto text = read_file(e.path().string());
    ASSERT_TRUE(text.ok()) << text.message();
    for (auto& f : cuda_fragments(e.path().string(), *text))
      fragments.push_back(f);
  }
  ASSERT_GE(fragments.size(), 3u) << "the pack's fragments were not found";
  auto cache = std::filesystem::temp_directory_path() / "cutegen-knowledge-compile-cache";
  Builder builder(*tc, BuilderOptions{.cache_dir = cache.string()});
  std::vector<BuildRequest> requests;
  for (auto& f : fragments)
    requests.push_back({.source = translation_unit(f.code), .display_name = f.where, .target = Target{9, 0, true}});
  auto results = builder.build_all(requests);
  for (size_t i = 0; i < results.size(); ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].message();
    EXPECT_TRUE(results[i]->ok()) << fragments[i].where << ": " << results[i]->message << "\n"
                                  << render_diagnostics(results[i]->diagnostics, fragments[i].where);
  }
}

}  // namespace
}  // namespace cutegen
