// The kernel layer as a type composed of (ProblemShape, CollectiveMainloop, CollectiveEpilogue,
// TileScheduler):
//
//   using Kernel = gemm_kernel_t<GemmProblemShape, Mainloop::CollectiveOp, Epilogue::CollectiveOp,
//                                SplitKRasterization<8>>;
//
// resolves to the kernel that runs those collectives under that scheduler:
//   CollectiveMma<MainloopSm80CpAsyncSimt..> + EpilogueSimt +
//     GroupedRasterization                                       -> GemmSimtKernel
//   CollectiveMma<MainloopSm80CpAsync..> + EpilogueSmem16 +
//     SplitKRasterization                                        -> GemmTensorOpKernel<the four>
//   CollectiveMainloopSm90TmaWgmma + an SM90 epilogue + a
//     persistent scheduler (sm90::StreamKTileScheduler)          -> sm90::GemmTmaWarpSpecialized
//   the same with the ping-pong policy + sm90::WholeTileScheduler -> sm90::GemmTmaWarpSpecializedPingpong
// A combination no kernel runs fails with a static_assert naming the rule.  Plain C++ like the
// builders (collective_builder.hpp): the kernels are named through declarations here.
#pragma once

#include <type_traits>

#include "../collective/collective_builder.hpp"
#include "sm80_kernel_contract.hpp"
#include "sm90_epilogue_order.hpp"
#include "split_k_rasterization.hpp"
#include "tile_scheduler.cuh"

namespace tessera::kernels {

template <class ProblemShape, class CollectiveMainloop, class CollectiveEpilogue, class TileScheduler>
struct GemmTensorOpKernel;
template <class ProblemShape, class Mainloop, class Epilogue, class TileScheduler>
struct GemmSimtKernel;
namespace sm90 {
struct SplitKTileScheduler;
struct StreamKTileScheduler;
struct WholeTileScheduler;
template <class Mainloop, class Epilogue, class Scheduler>
struct GemmTmaWarpSpecializedPingpong;
}  // namespace sm90

template <class ProblemShape, class CollectiveMainloop, class CollectiveEpilogue, class TileScheduler>
struct GemmKernelOf {
  static_assert(builder_detail::dependent_false<CollectiveMainloop>,
                "gemm_kernel_t: no kernel runs this (mainloop, epilogue, scheduler): SIMT runs under GroupedRasterization<G>, "
                "SM80 tensor op under SplitKRasterization<G>, SM90 under sm90::WholeTileScheduler, sm90::StreamKTileScheduler or sm90::SplitKTileScheduler");
};

namespace kernel_detail {
template <class ProblemShape>
inline constexpr bool is_gemm_problem_shape = std::is_same_v<ProblemShape, GemmProblemShape>;
}

template <class ProblemShape, int Stages, class TileShape, class EA, class MA, class EB, class MB, class TiledMma, class G2SA,
          class SmemA, class S2RA, class G2SB, class SmemB, class S2RB, class Trace, class Epilogue, int Group>
struct GemmKernelOf<ProblemShape,
                    CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB,
                                  SmemB, S2RB, Trace>,
                    Epilogue, GroupedRasterization<Group>> {
  using Mainloop = CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB,
                                 SmemB, S2RB, Trace>;
  // (The collective's rules, checked where a kernel is composed of it.)
  using Parts = CollectiveMmaSimtParts<MainloopSm80CpAsyncSimt<Stages>, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA,
                                       G2SB, SmemB, S2RB>;
  static_assert(sizeof(Parts) > 0);  // (instantiates Parts: its rules)
  static_assert(kernel_detail::is_gemm_problem_shape<ProblemShape>, "gemm_kernel_t: the problem shape is (M, N, K, L): GemmProblemShape");
  static_assert(std::is_same_v<Epilogue, EpilogueSimt<Mainloop>>,
                "gemm_kernel_t: the SIMT mainloop's accumulators are stored by EpilogueSimt of that mainloop");
  using type = GemmSimtKernel<ProblemShape, Mainloop, Epilogue, GroupedRasterization<Group>>;
};

namespace kernel_detail {
// The parts of an SM80 collective (CollectiveMma<MainloopSm80CpAsync<...>, ...>), where the
// mainloop is one: its rules and derived types, plain C++ (sm80_collective_mma.hpp).
template <class Mainloop>
struct Sm80CollectiveOf {
  static constexpr bool value = false;
};
template <int Stages, int MinBlocks, int Group, class TileShape, class EA, class MA, class EB, class MB, class TiledMma, class G2SA,
          class SmemA, class S2RA, class G2SB, class SmemB, class S2RB, class Trace>
struct Sm80CollectiveOf<CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA,
                                      S2RA, G2SB, SmemB, S2RB, Trace>> {
  static constexpr bool value = true;
  using Policy = MainloopSm80CpAsync<Stages, MinBlocks, Group>;
  using Parts = CollectiveMmaSm80Parts<Policy, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB, SmemB, S2RB>;
};

// EpilogueSmem16's parameters, where the epilogue is one.
template <class Epilogue>
struct Smem16Of {
  static constexpr bool value = false;
  static constexpr int BM = 0, BN = 0, Threads = 0;
  using Tag = void;
};
template <int BM_, int BN_, int Threads_, class Tag_>
struct Smem16Of<EpilogueSmem16<BM_, BN_, Threads_, Tag_>> {
  static constexpr bool value = true;
  static constexpr int BM = BM_, BN = BN_, Threads = Threads_;
  using Tag = Tag_;
};

// The rules of GemmTensorOpKernel<ProblemShape, CollectiveMainloop, CollectiveEpilogue,
// TileScheduler>, checked where the kernel is composed (gemm_kernel_t) and by the kernel itself.
template <class ProblemShape, class Mainloop, class Epilogue, class Scheduler>
struct Sm80TensorOpKernelRules {
  static_assert(is_gemm_problem_shape<ProblemShape>, "gemm_kernel_t: the problem shape is (M, N, K, L): GemmProblemShape");
  static_assert(Sm80CollectiveOf<Mainloop>::value,
                "GemmTensorOpKernel: the mainloop is a CollectiveMma<MainloopSm80CpAsync<...>, ...> (sm80_collective_mma.hpp)");
  // (Its rules, checked where a kernel is composed of it.)
  using Policy = typename Sm80CollectiveOf<Mainloop>::Policy;
  using Parts = typename Sm80CollectiveOf<Mainloop>::Parts;
  using E = Smem16Of<Epilogue>;
  static_assert(E::value, "gemm_kernel_t: the SM80 tensor-op mainloop's accumulators are stored by an EpilogueSmem16<BM, BN, "
                          "Threads, Tag> (the staged 16-byte-vector epilogue)");
  static_assert(!E::value || (E::BM == Parts::BM && E::BN == Parts::BN),
                "gemm_kernel_t: the epilogue's tile (BM, BN) is the mainloop's: it stores the accumulators of that tile");
  static_assert(!E::value || E::Threads == Parts::Threads,
                "gemm_kernel_t: the epilogue runs on the mainloop's threads (the TiledMma's), which hold the accumulators");
  static_assert(!E::value || std::is_same_v<typename E::Tag, typename builder_detail::tag_of<typename Parts::Elem>::type>,
                "gemm_kernel_t: the epilogue writes D in the mainloop's element type (bf16_tag for bfloat16_t, f16_tag for "
                "half_t)");
  static_assert(is_split_k_rasterization<Scheduler>,
                "gemm_kernel_t: the SM80 tensor-op kernel is scheduled by SplitKRasterization<G> (grouped rasterization, the "
                "last wave split along K)");
  static_assert(!is_split_k_rasterization<Scheduler> || Scheduler::Group == Policy::Group,
                "gemm_kernel_t: the rasterization band is the mainloop policy's (MainloopSm80CpAsync<Stages, MinBlocks, Group>)");
  static constexpr bool value = true;
};
}  // namespace kernel_detail

template <class ProblemShape, int Stages, int MinBlocks, int PolicyGroup, class... Parts, class Epilogue, class Scheduler>
struct GemmKernelOf<ProblemShape, CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, PolicyGroup>, Parts...>, Epilogue,
                    Scheduler> {
  using Mainloop = CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, PolicyGroup>, Parts...>;
  static_assert(kernel_detail::Sm80TensorOpKernelRules<ProblemShape, Mainloop, Epilogue, Scheduler>::value);
  using type = GemmTensorOpKernel<ProblemShape, Mainloop, Epilogue, Scheduler>;
};

template <class ProblemShape, class Policy, class TileShape, class Element, GMMA::Major MA, GMMA::Major MB, int Sw,
          class ElementB, class Epilogue, class Scheduler>
struct GemmKernelOf<ProblemShape, sm90::CollectiveMainloopSm90TmaWgmma<Policy, TileShape, Element, MA, MB, Sw, ElementB>, Epilogue,
                    Scheduler> {
  static_assert(kernel_detail::is_gemm_problem_shape<ProblemShape>, "gemm_kernel_t: the problem shape is (M, N, K, L): GemmProblemShape");
  static_assert(std::is_same_v<Scheduler, sm90::WholeTileScheduler> || std::is_same_v<Scheduler, sm90::StreamKTileScheduler> ||
                    std::is_same_v<Scheduler, sm90::SplitKTileScheduler>,
                "gemm_kernel_t: the SM90 warp-specialized kernel is persistent: sm90::WholeTileScheduler (whole tiles), "
                "sm90::StreamKTileScheduler (Stream-K: the last waves' k-iterations shared) or sm90::SplitKTileScheduler (the "
                "last wave split along K)");
  using Mainloop = sm90::CollectiveMainloopSm90TmaWgmma<Policy, TileShape, Element, MA, MB, Sw, ElementB>;
  static constexpr bool pingpong = requires { Policy::MathWarpgroups; };  // (MainloopTmaWarpSpecializedPingpong)
  static_assert(!pingpong || std::is_same_v<Scheduler, sm90::WholeTileScheduler>,
                "gemm_kernel_t: the SM90 ping-pong kernel runs whole tiles (sm90::WholeTileScheduler)");
  using type = std::conditional_t<pingpong, sm90::GemmTmaWarpSpecializedPingpong<Mainloop, Epilogue, Scheduler>,
                                  sm90::GemmTmaWarpSpecialized<Mainloop, Epilogue, Scheduler>>;
};

// The same collective under another trace policy (kernel/trace_policy.cuh): gemm_trace builds
// the library's configurations with trace::Recorder this way.  The SM80 epilogue records
// nothing itself (it has no policy); the SIMT epilogue follows its mainloop's.
template <class Collective, class Trace>
struct TracedOf {
  static_assert(builder_detail::dependent_false<Collective>,
                "traced_t: this collective takes no trace policy (the SIMT and SM80 collectives do; the SM90 kernel "
                "traces through its epilogue, CollectiveEpilogueSm90TraceC)");
};
template <class Policy, class TileShape, class EA, class MA, class EB, class MB, class TiledMma, class G2SA, class SmemA,
          class S2RA, class G2SB, class SmemB, class S2RB, class T0, class Trace>
struct TracedOf<CollectiveMma<Policy, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB, SmemB, S2RB, T0>, Trace> {
  using type = CollectiveMma<Policy, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB, SmemB, S2RB, Trace>;
};
template <class Mainloop, class Trace>
struct TracedOf<EpilogueSimt<Mainloop>, Trace> {
  using type = EpilogueSimt<typename TracedOf<Mainloop, Trace>::type>;
};
template <int BM, int BN, int Threads, class Tag, class Trace>
struct TracedOf<EpilogueSmem16<BM, BN, Threads, Tag>, Trace> {
  using type = EpilogueSmem16<BM, BN, Threads, Tag>;
};
template <class Collective, class Trace>
using traced_t = typename TracedOf<Collective, Trace>::type;

// The contract a SIMT or SM80 collective keeps (collective/sm80_contract.hpp), named without
// its device code: a mainloop's parts, an epilogue's EpilogueSm80Contract. The collective
// derives from it (checked where the kernel is defined).
template <class Collective>
struct ContractOf {
  static_assert(builder_detail::dependent_false<Collective>,
                "contract_of_t: a SIMT or SM80 collective (CollectiveMma of MainloopSm80CpAsync or MainloopSm80CpAsyncSimt, "
                "EpilogueSmem16, EpilogueSimt); the SM90 collectives keep theirs in their own types (sm90_contract.hpp)");
};
template <int Stages, int MinBlocks, int Group, class... Ps>
struct ContractOf<CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, Ps...>> {
  using type = typename kernel_detail::Sm80CollectiveOf<CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>, Ps...>>::Parts;
};
template <int Stages, class... Ps>
struct ContractOf<CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, Ps...>> {
  using type = typename SimtCollectiveOf<CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, Ps...>>::Parts;
};
template <int BM, int BN, int Threads, class Tag>
struct ContractOf<EpilogueSmem16<BM, BN, Threads, Tag>> {
  using type = EpilogueSm80Contract<element_of_tag_t<Tag>, 8>;
};
template <class Mainloop>
struct ContractOf<EpilogueSimt<Mainloop>> {
  using type = EpilogueSm80Contract<float, 4>;
};
template <class Collective>
using contract_of_t = typename ContractOf<Collective>::type;

// The contract of the SIMT or SM80 kernel gemm_kernel_t composes of these collectives and
// scheduler: its collectives' contracts composed (kernel/sm80_kernel_contract.hpp); the
// kernel derives from it.
template <class ProblemShape, class CollectiveMainloop, class CollectiveEpilogue, class TileScheduler>
using gemm_kernel_contract_t =
    GemmKernelSm80Contract<contract_of_t<CollectiveMainloop>, contract_of_t<CollectiveEpilogue>, TileScheduler>;

template <class ProblemShape, class CollectiveMainloop, class CollectiveEpilogue, class TileScheduler>
using gemm_kernel_t = typename GemmKernelOf<ProblemShape, CollectiveMainloop, CollectiveEpilogue, TileScheduler>::type;

}  // namespace tessera::kernels
