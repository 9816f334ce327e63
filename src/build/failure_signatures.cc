#include "build/failure_signatures.h"

#include <regex>

#include "core/strings.h"

namespace cutegen {

// One row per signature, each proven on real nvcc output by the fixture named like its id
// (failure_signatures_test.cc, signatures_compile_test.cc). Keep a cause and a fix to one line each.
const std::vector<FailureSignature>& failure_signatures() {
  static const std::vector<FailureSignature> table = {
      {"anon_namespace", R"re(reference to \S*_GLOBAL__N_\w*\S* is ambiguous)re",
       "a kernel in an anonymous namespace beside a file-scope `using namespace cute;`: nvcc's host stub "
       "cannot tell the file's anonymous namespace from CuTe's",
       "take the kernel out of the anonymous namespace (or make it `static`), or move `using namespace cute;` "
       "inside the functions"},
      {"host_call", R"re(calling a __host__ function.*from a __(global|device)__ function)re",
       "device code calls a host-only function (a helper without __device__, or a std:: function)",
       "mark the helper `__device__` (or `__host__ __device__`), or use a CUDA intrinsic (fmaxf, __expf) or a "
       "cute:: helper"},
      {"abi_namespace", R"re(identifier "\w+_(numel|dim[0-9]+)" is undefined)re",
       "an ABI size constant named without its namespace: the force-included header declares them in "
       "namespace cutegen_abi",
       "write `cutegen_abi::x_numel` (or `cutegen_abi::x_dim0`); do not include the ABI header again"},
      {"dynamic_owning_tensor", R"re(Dynamic owning tensors not supported)re",
       "a register tensor (make_tensor<T>(shape), make_fragment_like) was given a runtime extent; tensors that "
       "own their storage need a static shape",
       "give it compile-time extents (`Int<8>{}`, `_8{}`), e.g. from the task's constants; keep runtime sizes to "
       "views of global memory"},
      {"copy_shape_mismatch", R"re(cute/algorithm/copy\.hpp: static assertion failed)re",
       "cute::copy between tensors whose shapes (or ranks) differ, e.g. a register fragment not shaped like the "
       "partition it is copied from",
       "make the destination from the source's partition (`make_fragment_like(tXgX)`, `partition_fragment_A/B/C`) "
       "so that their shapes agree"},
      {"tiled_copy_too_few_vals", R"re(TiledCopy uses too few vals for selected CopyAtom)re",
       "the copy atom moves more values per thread than the tiled MMA's tile holds, e.g. ldmatrix x4 "
       "(SM75_U32x4_LDSM_N, SM75_U16x8_LDSM_T) on a tiled MMA whose N is only 16",
       "give make_tiled_mma the permutation tile, e.g. `make_tiled_mma(atom, Layout<Shape<_2,_2>>{}, "
       "Tile<_32,_32,_16>{})`, or use a narrower atom (x2, x1)"},
      {"shadowed_short_name", R"re("\w+" is ambiguous)re",
       "a name of yours clashes with one `using namespace cute;` brings in (CuTe has short names such as `C`, "
       "`X`, `Int`, `Layout`, `Shape`)",
       "rename yours (kChannels rather than C), or qualify CuTe names with `cute::` instead of the using-directive"},
      {"missing_cute_include",
       R"re(name must be a namespace name \| using namespace cute\b|namespace "cute" has no member|)re"
       R"re(identifier "(Tensor|make_tensor|make_layout|make_shape|make_gmem_ptr|make_smem_ptr|local_tile)" is undefined)re",
       "CuTe is used but not included", "add `#include <cute/tensor.hpp>` at the top of the file"},
  };
  return table;
}

std::string signature_text(const Diagnostic& d) {
  std::string text = d.file + ": " + d.message;
  for (auto& c : d.context)
    text += " | " + c;
  return text;
}

std::vector<const FailureSignature*> match_signatures(const std::vector<Diagnostic>& diags) {
  static const std::vector<std::regex> patterns = [] {
    std::vector<std::regex> p;
    for (auto& s : failure_signatures())
      p.emplace_back(s.pattern);
    return p;
  }();
  std::vector<const FailureSignature*> found;
  for (size_t i = 0; i < patterns.size(); ++i)
    for (auto& d : diags)
      if (d.severity == "error" && std::regex_search(signature_text(d), patterns[i])) {
        found.push_back(&failure_signatures()[i]);
        break;
      }
  return found;
}

bool in_host_stub(const Diagnostic& d) {
  return contains(d.file, ".cudafe1.stub.c") || contains(d.file, ".cudafe1.cpp");
}

}  // namespace cutegen
