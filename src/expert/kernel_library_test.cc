// The kernel library: every header compiles on its own with the real nvcc for sm_90a (as the
// expert's kernels are built), instances inline what they include, and instance templates refuse a
// missing or an unused value.
#include "expert/kernel_library.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "build/builder.h"
#include "core/strings.h"

namespace cutegen {
namespace {

TEST(KernelLibrary, EveryHeaderCompilesAlone) {
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  auto cache = std::filesystem::temp_directory_path() / "cutegen-expert-compile-cache";
  Builder builder(*tc, BuilderOptions{.cache_dir = cache.string()});
  std::vector<BuildRequest> requests;
  for (auto& [path, text] : kernel_library()) {
    if (!path.ends_with(".cuh")) continue;
    auto source = inline_library("#include \"" + path + "\"\n");
    ASSERT_TRUE(source.ok()) << path << ": " << source.message();
    requests.push_back({.source = *source, .display_name = path, .target = Target{9, 0, true}});
  }
  ASSERT_GE(requests.size(), 30u);  // prelude, elementwise, reductions, row norms, gemm, conv
  auto results = builder.build_all(requests);
  for (size_t i = 0; i < results.size(); ++i) {
    ASSERT_TRUE(results[i].ok()) << results[i].message();
    EXPECT_TRUE(results[i]->ok()) << requests[i].display_name << ": " << results[i]->message << "\n"
                                  << render_diagnostics(results[i]->diagnostics, requests[i].display_name);
  }
}

TEST(KernelLibrary, InliningGivesOneSelfContainedSource) {
  auto source =
      inline_library("// an instance\n#include \"rownorm/held.cuh\"\n#include \"rownorm/norms.cuh\"\nint x;\n");
  ASSERT_TRUE(source.ok()) << source.message();
  EXPECT_EQ(source->find("#include \""), std::string::npos);  // only system includes remain
  EXPECT_EQ(source->find("#pragma once"), std::string::npos);
  EXPECT_NE(source->find("#include <cute/tensor.hpp>"), std::string::npos);
  // Each header once, though held.cuh, norms.cuh and stats.cuh all reach the prelude.
  const std::string once = "namespace cg_expert {";
  EXPECT_EQ(source->find(once), source->rfind(once));
  EXPECT_TRUE(source->starts_with("// an instance\n"));
  EXPECT_TRUE(source->ends_with("int x;\n"));
  EXPECT_EQ(inline_library("#include \"rownorm/nothing.cuh\"\n").message(),
            "the instance: includes \"rownorm/nothing.cuh\", which kernels/ does not hold");
}

TEST(KernelLibrary, InstanceTemplatesRefuseMissingAndUnusedValues) {
  auto ok = render_instance("instances/norm_softmax.cu.in", {});
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_EQ(render_instance("instances/norm_softmax.cu.in", {{"eps", "1e-5"}}).message(),
            "kernels/instances/norm_softmax.cu.in: value 'eps' given but the template has no {{eps}}");
  EXPECT_TRUE(contains(render_instance("instances/norm_layer.cu.in", {{"eps", "1e-5"}}).message(), "no value for {{"));
  EXPECT_EQ(render_instance("instances/none.cu.in", {}).message(),
            "kernels/instances/none.cu.in: no such instance template");
}

}  // namespace
}  // namespace cutegen
