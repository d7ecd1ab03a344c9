// The SM90 GEMM inside tessera::gemm: the dispatch from a problem to a kernel instance.
// bf16 and f16, every operand major (TN, NT, NN, TT), D in the inputs' type or f32; clusters
// of 2; 128x256 tiles or, for problems that would leave most SMs idle, 128x128 (D in the
// inputs' type); f32 with allow_tf32 as tf32, TN only. The kernels (37, listed in
// sm90_kernel_set.cuh) are compiled in sm90_instances_{bf16,f16,small,split,pingpong}.cu; this TU
// compiles none, it calls their entries (sm90_instance.hpp):
//   - whole-tile kernels (no split-K code) run every problem by default;
//   - split-K of the last wave, a kernel of its own, runs where the caller gives the workspace
//     sm90_workspace_size asks for and the plan splits: 16-bit TN and NT with D in the inputs'
//     type (both tiles); other problems have no split kernel (workspace size 0);
//   - small 16-bit TN problems with D in the inputs' type run the ping-pong kernel (64x128
//     tiles, two consumer warpgroups in turn; sm90_instances_pingpong.cu), by
//     sm90_schedule.hpp's rule (the one select_configuration reports);
//   - fused epilogues GELU tanh, ReLU, SiLU (with or without a bias) on 16-bit TN problems with
//     D in the inputs' type and the 128x256 tile run a kernel whose TMA-store epilogue applies
//     that activation (never split); other fusions take the direct epilogue of the plain kernel.
// Compiled for sm_90a (kernels/CMakeLists.txt, tools/device/*.sh).
#include "sm90_dispatch.hpp"
#include "sm90_instance.hpp"
#include "sm90_kernel_set.cuh"

namespace tessera::kernels::device {

namespace {
// The tile by shape (select_configuration): 128x128 when 128x256 tiles would leave most SMs idle.
int multiprocessors() {
  static const int sms = [] {
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return sms;
}
using sm90_entry::Entries;
using sm90_entry::entries;
namespace set = sm90_set;

// The plain whole-tile kernel for a problem, and the kernel to try first where one is built:
// its split-K twin, or the fused TMA-store kernel of its activation.
struct Choice {
  Entries whole, first;
  GemmResult refusal;          // set when no kernel takes the problem's types
  bool first_splits = false;  // first is split-K: tried only with a workspace
};

// (Small tiles only for D in the inputs' type: 8 more kernels rather than 16.)
template <class T, class D, GMMA::Major MA, GMMA::Major MB>
Choice with_tile(const GemmArguments& g) {
  constexpr bool splits = std::is_same_v<T, D> && set::has_split(MA, MB);
  if constexpr (std::is_same_v<T, D>) {
    const GemmConfiguration conf = select_configuration(g, DeviceInfo{9, multiprocessors()});
    // (small TN problems run ping-pong, the other majors 128x128 tiles: no 128x128 TN kernel)
    if constexpr (MA == GMMA::Major::K && MB == GMMA::Major::K) {
      if (conf.schedule == sm90::Schedule::Pingpong64x128) return {entries<set::Pingpong<T>>(), {}, {}};
    } else if (conf.tile_n == 128) {
      if constexpr (splits) return {entries<set::Small<T, MA, MB>>(), entries<set::SmallSplit<T, MA, MB>>(), {}, true};
      else return {entries<set::Small<T, MA, MB>>(), {}, {}};
    }
    if constexpr (MA == GMMA::Major::K && MB == GMMA::Major::K) {
      // The fused TMA-store kernels (no split: the fused instance is taken first).
      switch (set::has_fused_tma(g.epilogue.activation) ? g.epilogue.activation : Activation::Identity) {
        case Activation::GELUTanh: return {entries<set::Whole<T, MA, MB, D>>(), entries<set::Fused<T, Activation::GELUTanh>>(), {}};
        case Activation::ReLU: return {entries<set::Whole<T, MA, MB, D>>(), entries<set::Fused<T, Activation::ReLU>>(), {}};
        case Activation::SiLU: return {entries<set::Whole<T, MA, MB, D>>(), entries<set::Fused<T, Activation::SiLU>>(), {}};
        default: break;
      }
    }
  }
  if constexpr (splits) return {entries<set::Whole<T, MA, MB, D>>(), entries<set::Split<T, MA, MB>>(), {}, true};
  else return {entries<set::Whole<T, MA, MB, D>>(), {}, {}};
}
// The instantiation for the arguments' element type, operand majors (A K-major when
// row-major; B K-major when column-major) and D's type: the inputs' or f32 (bf16 inputs with
// an f16 D and the reverse are not instantiated: 8 more kernels for a rare combination).
template <class T, class D>
Choice with_majors(const GemmArguments& g) {
  constexpr auto K = GMMA::Major::K, MN = GMMA::Major::MN;
  const bool ak = g.a.major == Major::Row, bk = g.b.major == Major::Col;
  if (ak && bk) return with_tile<T, D, K, K>(g);
  if (ak) return with_tile<T, D, K, MN>(g);
  if (bk) return with_tile<T, D, MN, K>(g);
  return with_tile<T, D, MN, MN>(g);
}
template <class T>
Choice with_output(const GemmArguments& g) {
  const Element out = output_element(g);
  if (out == g.element) return with_majors<T, T>(g);
  if (out == Element::F32) return with_majors<T, float>(g);
  return {{}, {}, {GemmStatus::Unsupported, std::string("the sm90 kernel writes D in its inputs' type (") + to_string(g.element) +
                                                ") or f32, not " + to_string(out)}};
}
Choice choose(const GemmArguments& g) {
  if (g.element == Element::BF16) return with_output<bfloat16_t>(g);
  if (g.element == Element::F16) return with_output<half_t>(g);
  if (g.element == Element::F32) {
    // tf32 wgmma reads K-major operands only (the ISA transposes 16-bit types alone).
    if (g.a.major != Major::Row || g.b.major != Major::Col)
      return {{}, {}, {GemmStatus::Unsupported,
              "the sm90 kernel takes f32 (as tf32) only with A row-major and B column-major (TN: both K-major, as tf32 "
              "wgmma reads them); the SIMT kernel runs the other majors"}};
    return {entries<set::Tf32>(), {}, {}};
  }
  return {{}, {}, {GemmStatus::Unsupported, "the sm90 kernel takes bf16, f16, or f32 with allow_tf32"}};
}

}  // namespace

GemmResult sm90_can_implement(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g);
  return c.whole ? c.whole.can_implement(g) : c.refusal;
}

std::size_t sm90_workspace_size(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g);
  return c.first ? c.first.workspace_size(g) : 0;  // (0 for a fused kernel)
}

const char* sm90_schedule(const GemmArguments& args) {
  const GemmArguments g = sm90::as_column_major_d(args);
  if (!sm90_can_implement(args)) return "none";
  return sm90::to_string(select_configuration(g, DeviceInfo{9, multiprocessors()}).schedule);
}

GemmResult run_sm90(const GemmArguments& args, cudaStream_t stream) {
  const GemmArguments g = sm90::as_column_major_d(args);
  const Choice c = choose(g);
  if (!c.whole) return c.refusal;
  // The split-K kernel where the caller gave a workspace and the plan splits, the fused
  // TMA-store kernel where TMA stores D; each declines (launching nothing) otherwise, and
  // the plain whole-tile kernel runs.
  if (c.first && (g.workspace != nullptr || !c.first_splits)) {
    bool declined = false;
    const GemmResult r = c.first.run(g, stream, true, &declined);
    if (!declined) return r;
  }
  return c.whole.run(g, stream, false, nullptr);
}

}  // namespace tessera::kernels::device
