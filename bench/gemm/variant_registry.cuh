// The benchmark's table of GEMM variants: each translation unit of variants_*.cu registers the
// kernels it instantiates under a name derived from their configuration, e.g.
//   ws.bf16>bf16.rc.128x256x64.s4.c2x1.identity      (kernel.in>out.layouts.tile.stages.cluster.epilogue)
//   ws.3xtf32>f32.rc.128x128x32.s5.c1x1.p4.identity  (fp32 promoting every 4 k-tiles: .pN where N > 1)
// with kernel ws (warp-specialized, cooperative), pingpong (warp-specialized, ping-pong) or pipelined.
// so the Python side picks variants by name and a name can never disagree with its kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "epilogue_functors.cuh"
#include "gemm_call.h"
#include "operand_layout.cuh"

namespace cutegen::gemm::bench {

struct Variant {
  std::string name;
  int64_t (*workspace_bytes)(GemmCall const&);
  int (*run)(GemmCall const&);
};

inline std::vector<Variant>& variants() {
  static std::vector<Variant> table;
  return table;
}

template <class T>
constexpr char const* type_label = "?";
template <>
constexpr char const* type_label<cute::bfloat16_t> = "bf16";
template <>
constexpr char const* type_label<cute::half_t> = "fp16";
template <>
constexpr char const* type_label<float> = "f32";

template <class L>
constexpr char layout_letter = std::is_same_v<L, RowMajor> ? 'r' : 'c';

template <class F>
constexpr char const* functor_label = "?";
template <>
constexpr char const* functor_label<IdentityEpilogue> = "identity";
template <>
constexpr char const* functor_label<BiasReluEpilogue> = "bias_relu";

// `inputs` names what the caller passes (bf16, fp16, or 3xtf32 for fp32 through the split);
// `layouts` is "rr".."cc", or "any" where the variant accepts every combination.
template <class Kernel>
std::string variant_name(std::string const& inputs, std::string const& layouts) {
  using C = typename Kernel::Config;
  char const* kernel = !Kernel::Persistent ? "pipelined" : C::MmaWarpgroups == 1 ? "pingpong" : "ws";
  return std::string(kernel) + "." + inputs + ">" + type_label<typename C::ElementC> + "." + layouts + "." +
         std::to_string(C::TileM) + "x" + std::to_string(C::TileN) + "x" + std::to_string(C::TileK) + ".s" +
         std::to_string(C::Stages) + ".c" + std::to_string(C::ClusterM) + "x" + std::to_string(C::ClusterN) + "." +
         (C::PromoteEvery > 1 ? "p" + std::to_string(C::PromoteEvery) + "." : "") +
         functor_label<typename Kernel::Epilogue::FunctorType>;
}

// Registers every runner in Runners... at load time: `static Register<R1, R2> registered;`.
template <class... Runners>
struct Register {
  Register() { (variants().push_back(Variant{Runners::name(), &Runners::workspace_bytes, &Runners::run}), ...); }
};

}  // namespace cutegen::gemm::bench
