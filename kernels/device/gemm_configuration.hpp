// What tessera::gemm(args) runs, as a host function of the arguments and the device:
//
//   GemmConfiguration c = select_configuration(args, DeviceInfo{cc_major, multiprocessors});
//
// On sm_90 it is the listed kernel (sm90_kernel_list.hpp) that the dispatch (sm90_instances.cu)
// runs by the rule: the problem's types in the orientation, with the schedule, of the rule's
// configuration (sm90_schedule.hpp: choose_config, or choose_config_stream_k where the caller
// gives a workspace), and its tile, cluster and stages are read off that kernel's type, not
// restated here; where the list has no kernel for the types, what gemm() runs instead (the SM80
// or SIMT kernel, or a refusal). A tuning record (gemm_tune) may replace the rule's choice at run
// time. Elsewhere it is the SM80 or SIMT kernel with the collective builders' tile
// (collective_builder.hpp). Plain C++ (no CUDA), so CI tests it (kernels_collective_builder_test).
#pragma once

#include <cstdint>
#include <string>

#include "tessera/kernels/gemm_arguments.hpp"
#include "tessera/kernels/simt_partition.hpp"
#include "tessera/kernels/tensorop_partition.hpp"
#include "../collective/collective_builder.hpp"
#include "sm90_schedule.hpp"

namespace tessera::kernels {

struct DeviceInfo {
  int cc_major = 0;         // compute capability (major)
  int multiprocessors = 0;  // SMs
};

struct GemmConfiguration {
  GemmResult status;  // Unsupported: nothing runs these arguments here (fused epilogue off sm_90)
  GemmKernel kernel = GemmKernel::SimtF32;
  int tile_m = 0, tile_n = 0, tile_k = 0, stages = 0, cluster_m = 1;
  bool vectorized = false;  // 16-byte copies (cp.async or TMA)
  bool swap_ab = false;     // sm90: D row-major runs as D^T = B^T A^T (column-major D)
  Element element_d = Element::F32;
  // sm90: the schedule (sm90_schedule.hpp); Cooperative128x256 for the other kernels too.
  sm90::Schedule schedule = sm90::Schedule::Cooperative128x256;
  // sm90: whole tiles, or Stream-K (the wave model prefers a Stream-K kernel and the arguments
  // carry a workspace: the kernel runs whole tiles after all when the workspace is smaller than
  // gemm_workspace_size asks, or its plan on the resident clusters shares nothing).
  Decomposition decomposition = Decomposition::DataParallel;
};

namespace configuration_detail {
template <int Align>
using Sm80Builder = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, Align, bfloat16_t, KMajor, Align, float,
                                      tuple<C<DefaultTensorOpTile::BM>, C<DefaultTensorOpTile::BN>, C<DefaultTensorOpTile::BK>>,
                                      tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using SimtBuilder = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float,
                                      tuple<_128, _128, C<DefaultSimtTile::BK>>, tuple<_1, _1, _1>,
                                      StageCount<DefaultSimtTile::Stages>, ScheduleAuto>;
template <class B>
GemmConfiguration from_builder(GemmKernel kernel, Element d) {
  GemmConfiguration c;
  c.kernel = kernel;
  c.tile_m = B::BM;
  c.tile_n = B::BN;
  c.tile_k = B::BK;
  c.stages = B::Stages;
  c.vectorized = B::Vectorized;
  if constexpr (requires { B::ClusterM; }) c.cluster_m = B::ClusterM;
  if constexpr (requires { B::ClusterN; }) static_assert(B::ClusterN == 1, "a GemmConfiguration names clusters along M only");
  c.element_d = d;
  return c;
}
}  // namespace configuration_detail

// Success when the SM90 kernel takes `g` on a device of `dev` (the rules of
// GemmSm90::can_implement: element and D types, tf32 majors, TMA's 16-byte alignment, 32-bit
// coordinates, compute capability 9), else why not.  `g` passed check_arguments.
inline GemmResult sm90_takes(const GemmArguments& g, const DeviceInfo& dev) {
  const Element out = output_element(g);
  if (is_fp8(g.element)) {
    // (check_arguments already refused FP8 that is not TN or not 16-byte aligned)
    if (out != Element::BF16 && out != Element::F16 && out != Element::F32 && out != Element::E4M3)
      return {GemmStatus::Unsupported, std::string("the sm90 FP8 kernels write D in bf16, f16, f32 or e4m3, not ") + to_string(out)};
  } else if (g.element == Element::F32) {
    if (!g.allow_tf32)
      return {GemmStatus::Unsupported, "the sm90 kernel multiplies f32 inputs as tf32 only: set allow_tf32 (else the SIMT kernel runs them in f32)"};
    if (g.a.major != Major::Row || g.b.major != Major::Col)
      return {GemmStatus::Unsupported,
              "the sm90 kernel takes f32 (as tf32) only with A row-major and B column-major (TN: both K-major, as tf32 "
              "wgmma reads them); the SIMT kernel runs the other majors"};
    if (out != Element::F32) return {GemmStatus::Unsupported, "the sm90 tf32 kernel writes D in f32"};
  } else if (out != g.element && out != Element::F32) {
    return {GemmStatus::Unsupported, std::string("the sm90 kernel writes D in its inputs' type (") + to_string(g.element) +
                                         ") or f32, not " + to_string(out)};
  }
  const std::int64_t per16 = 16 / element_bytes(g.element);
  auto aligned16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (!aligned16(g.a.ptr) || !aligned16(g.b.ptr) || g.a.ld % per16 != 0 || g.b.ld % per16 != 0 ||
      (g.batch > 1 && (g.a.batch_stride % per16 != 0 || g.b.batch_stride % per16 != 0)))
    return {GemmStatus::Misaligned, "the sm90 kernel's TMA copies need 16-byte aligned A/B, leading dimensions and batch strides"};
  const std::int64_t limit = std::int64_t(1) << 31;
  if (g.m >= limit || g.n >= limit || g.k >= limit || g.batch >= limit)
    return {GemmStatus::InvalidSize, "the sm90 kernel addresses M, N, K, L below 2^31"};
  if (dev.cc_major != 9) return {GemmStatus::Unsupported, "the sm90 kernel needs compute capability 9.0 (wgmma, TMA)"};
  return {};
}

// The configuration tessera::gemm(args) runs for arguments that passed check_arguments.
inline GemmConfiguration select_configuration(const GemmArguments& g, const DeviceInfo& dev) {
  using namespace configuration_detail;
  const Element out = output_element(g);
  namespace set = device::sm90_set;
  GemmResult unlisted;  // why the sm90 kernel list has nothing for g's types, where it has not
  if ((g.element != Element::F32 || g.allow_tf32) && sm90_takes(g, dev)) {
    // The rule's configuration (Stream-K where the caller gives a workspace and the wave model
    // prefers it), and the problem in its orientation: where the kernel's D major is not the
    // caller's, M and N swap; A and B swap roles, with their types, and both stay K-major or not.
    const auto stream_k = g.workspace != nullptr ? sm90::choose_config_stream_k(g, dev.multiprocessors) : std::nullopt;
    const sm90::Sm90Config config = stream_k ? *stream_k : sm90::choose_config(g, dev.multiprocessors);
    // (the kernel with the plain epilogue: a fused activation's TMA-store kernel has its tile)
    const GemmArguments oriented = sm90::oriented(g, config.d);
    if (const auto kernel = config.stream_k ? sm90::plain_kernel(config.schedule, oriented, true)
                                            : sm90::whole_tile_kernel(config.schedule, oriented)) {
      GemmConfiguration c;
      c.kernel = GemmKernel::Sm90TmaWgmma;
      c.tile_m = kernel->bm;
      c.tile_n = kernel->bn;
      c.tile_k = kernel->bk;
      c.stages = kernel->stages;
      c.cluster_m = kernel->cluster_m;
      c.vectorized = true;  // (TMA)
      c.element_d = out;
      c.schedule = config.schedule;
      c.decomposition = config.stream_k ? Decomposition::StreamK : Decomposition::DataParallel;
      c.swap_ab = g.c.major != config.d;
      return c;
    }
    unlisted = set::list_refusal(sm90::as_column_major_d(g));
  }
  if (is_fp8(g.element)) {  // (the SM80 and SIMT kernels have no 8-bit MMA path)
    GemmConfiguration c;
    c.status = {GemmStatus::Unsupported, std::string(to_string(g.element)) + " inputs run on the sm90 TMA + wgmma kernel only: " +
                                             (unlisted ? sm90_takes(g, dev) : unlisted).message};
    return c;
  }
  if (is_fused(g)) {
    GemmConfiguration c;
    c.status = {GemmStatus::Unsupported,
                "fused epilogues run on the sm90 TMA + wgmma kernel only: " + (unlisted ? sm90_takes(g, dev) : unlisted).message};
    return c;
  }
  switch (select_kernel(g)) {
    case GemmKernel::SimtF32: return from_builder<SimtBuilder>(GemmKernel::SimtF32, Element::F32);
    case GemmKernel::TensorOpVec8: return from_builder<Sm80Builder<8>>(GemmKernel::TensorOpVec8, g.element);
    default: return from_builder<Sm80Builder<1>>(GemmKernel::TensorOpScalar, g.element);
  }
}

}  // namespace tessera::kernels
