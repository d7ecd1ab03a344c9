// The SM80 collective mainloop as a type composed of its parts, the way a GEMM is built from
// the math down:
//
//   CollectiveMma<MainloopSm80CpAsync<Stages, MinBlocks, Group>,   // dispatch policy
//                 TileShape,                                        // tuple<C<BM>, C<BN>, C<BK>>
//                 ElementA, MajorA, ElementB, MajorB,               // KMajor | MNMajor in gmem
//                 TiledMma,                                         // the CTA's MMAs
//                 GmemTiledCopyA, SmemLayoutAtomA, SmemCopyAtomA,   // gmem -> smem -> registers of A
//                 GmemTiledCopyB, SmemLayoutAtomB, SmemCopyAtomB,   // ... of B
//                 Trace>                                            // trace_policy.cuh
//
// The smem operand tiles are tile_to_shape_coalesced(atom, (BM|BN, BK, Stages)) (one flat mode
// per target mode: the layouts the tensor-op partition and the traced maps name, type for
// type; current CuTe's tile_to_shape leaves the product's nesting); the smem -> register
// copies are make_tiled_copy_A/B(atom, TiledMma) (the copy's destination is the MMA's
// fragment).  The gmem -> smem tiled copies are either 16-byte zero-filling cp.async
// (SM80_CP_ASYNC_CACHEGLOBAL_ZFILL: predicated whole k-tiles, Stages-unrolled) or element
// copies (UniversalCopy: any alignment).  CollectiveBuilder (collective_builder.hpp) picks all
// of them from what a user knows; a user may compose the collective from their own.
//
// Plain C++ like the builders: CollectiveMmaSm80Parts derives every type and checks the rules
// the mainloop relies on (static_asserts that name them), so the host test and the misuse
// snippets see them, and keeps the collective's contract with the kernel (sm80_contract.hpp:
// Arguments, can_implement, workspace, Params); the mainloop (mainloop_tensorop.cuh) is those
// parts plus its device code.
#pragma once

#include <type_traits>

#include "tessera/algebra/tile_to_shape.hpp"
#include "tessera/atom/copy.hpp"
#include "tessera/atom/copy_sm80_zfill.hpp"
#include "tessera/composed_layout.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"
#include "sm80_contract.hpp"

namespace tessera::kernels {

namespace trace {
struct NoTrace;
}
struct KMajor;
struct MNMajor;

// Dispatch policy of the cp.async multistage mainloop: Stages k-tiles in flight, registers cut
// for MinBlocks CTAs per SM (__launch_bounds__), rasterization band Group (tile_scheduler.cuh).
template <int Stages_, int MinBlocks_ = 1, int Group_ = 8>
struct MainloopSm80CpAsync {
  static_assert(Stages_ >= 2, "MainloopSm80CpAsync: a pipeline needs at least 2 stages to overlap copies with math");
  static_assert(MinBlocks_ >= 1 && Group_ >= 1, "MainloopSm80CpAsync: MinBlocks and Group are positive");
  static constexpr int Stages = Stages_, MinBlocks = MinBlocks_, Group = Group_;
};

// The collective mainloop, chosen by its dispatch policy (defined for MainloopSm80CpAsync in
// mainloop_tensorop.cuh).
template <class DispatchPolicy, class TileShape, class ElementA, class MajorA, class ElementB, class MajorB, class TiledMma,
          class GmemTiledCopyA, class SmemLayoutAtomA, class SmemCopyAtomA, class GmemTiledCopyB, class SmemLayoutAtomB,
          class SmemCopyAtomB, class Trace>
struct CollectiveMma;

namespace sm80_detail {
template <class Op>
inline constexpr bool is_zfill_cp_async = false;
template <int L2Prefetch>
inline constexpr bool is_zfill_cp_async<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, L2Prefetch>> = true;
template <class Op>
inline constexpr bool is_element_copy = false;
template <class T>
inline constexpr bool is_element_copy<UniversalCopy<T>> = sizeof(T) == 2;
template <class T>
inline constexpr bool is_16bit_float = std::is_same_v<T, half_t> || std::is_same_v<T, bfloat16_t>;
template <class Tile, int I>
inline constexpr int extent = int(std::remove_cvref_t<decltype(get<I>(Tile{}))>::value);
template <class L, int I>
inline constexpr int mode_size = int(decltype(size<I>(L{}))::value);
template <class M>
inline constexpr bool is_major = std::is_same_v<M, KMajor> || std::is_same_v<M, MNMajor>;
// A tiled MMA's threads and (M, N, K) tile, as ints.
template <class TiledMma>
inline constexpr int mma_threads = int(decltype(TiledMma::num_threads())::value);
template <class TiledMma, int I>
inline constexpr int mma_tile = int(decltype(TiledMma::template tile_size_mnk<I>())::value);
}  // namespace sm80_detail

// The parts of CollectiveMma<MainloopSm80CpAsync<...>, ...>: every type it derives, and the rules.
template <class Policy, class TileShape, class ElementA, class MajorA, class ElementB, class MajorB, class TiledMma_,
          class GmemTiledCopyA, class SmemLayoutAtomA, class SmemCopyAtomA, class GmemTiledCopyB, class SmemLayoutAtomB,
          class SmemCopyAtomB>
struct CollectiveMmaSm80Parts {
  static constexpr int BM = sm80_detail::extent<TileShape, 0>, BN = sm80_detail::extent<TileShape, 1>,
                       BK = sm80_detail::extent<TileShape, 2>;
  static constexpr int Stages = Policy::Stages, MinBlocks = Policy::MinBlocks, Group = Policy::Group;
  static_assert(std::is_same_v<ElementA, ElementB> && sm80_detail::is_16bit_float<ElementA>,
                "CollectiveMma (SM80): A and B are both f16 or both bf16 (mma.sync m16n8k16, f32 accumulators)");
  static_assert(sm80_detail::is_major<MajorA> && sm80_detail::is_major<MajorB>,
                "CollectiveMma (SM80): MajorA and MajorB are KMajor or MNMajor");
  using Elem = ElementA;
  static constexpr bool AKMajor = std::is_same_v<MajorA, KMajor>, BKMajor = std::is_same_v<MajorB, KMajor>;

  // The tiled MMA: its tile divides the CTA tile; k16 steps in pairs (fragments are
  // double-buffered by k-block parity).
  using TiledMma = TiledMma_;
  static constexpr int Threads = sm80_detail::mma_threads<TiledMma>;
  static constexpr int MmaM = sm80_detail::mma_tile<TiledMma, 0>, MmaN = sm80_detail::mma_tile<TiledMma, 1>,
                       MmaK = sm80_detail::mma_tile<TiledMma, 2>;
  static_assert(BM % MmaM == 0 && BN % MmaN == 0,
                "CollectiveMma (SM80): the CTA tile (BM, BN) is a whole number of the tiled MMA's tiles");
  static_assert(BK % (2 * MmaK) == 0,
                "CollectiveMma (SM80): BK is a whole number of pairs of the MMA's k-blocks (fragments alternate buffers by "
                "k-block parity)");
  static constexpr int KK = BK / MmaK;  // MMA k-blocks per k-tile

  // gmem -> smem: the same kind of copy for both operands, by the tiled MMA's threads, each
  // copying a whole number of its tiles per k-tile.
  using G2SA = GmemTiledCopyA;
  using G2SB = GmemTiledCopyB;
  using G2SOpA = typename G2SA::AtomType::Operation;
  using G2SOpB = typename G2SB::AtomType::Operation;
  static constexpr bool Vec = sm80_detail::is_zfill_cp_async<G2SOpA>;
  static_assert((sm80_detail::is_zfill_cp_async<G2SOpA> && sm80_detail::is_zfill_cp_async<G2SOpB>) ||
                    (sm80_detail::is_element_copy<G2SOpA> && sm80_detail::is_element_copy<G2SOpB>),
                "CollectiveMma (SM80): the gmem -> smem copies of A and B are both 16-byte zero-filling cp.async "
                "(SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, ..>) or both element copies (UniversalCopy of 16 bits)");
  static_assert(int(decltype(G2SA::num_threads())::value) == Threads && int(decltype(G2SB::num_threads())::value) == Threads,
                "CollectiveMma (SM80): the gmem -> smem tiled copies run on the tiled MMA's threads");
  static_assert(BM % sm80_detail::extent<typename G2SA::Tiler_MN, 0> == 0 && BK % sm80_detail::extent<typename G2SA::Tiler_MN, 1> == 0 &&
                    BN % sm80_detail::extent<typename G2SB::Tiler_MN, 0> == 0 && BK % sm80_detail::extent<typename G2SB::Tiler_MN, 1> == 0,
                "CollectiveMma (SM80): a gmem -> smem tiled copy covers its operand tile (BM|BN, BK) in whole copy tiles");

  // smem: the atoms repeated to (MN, BK, stage) -> element offset.
  static_assert(BM % sm80_detail::mode_size<SmemLayoutAtomA, 0> == 0 && BK % sm80_detail::mode_size<SmemLayoutAtomA, 1> == 0 &&
                    BN % sm80_detail::mode_size<SmemLayoutAtomB, 0> == 0 && BK % sm80_detail::mode_size<SmemLayoutAtomB, 1> == 0,
                "CollectiveMma (SM80): a smem layout atom tiles its operand tile (BM|BN, BK)");
  using SmemLayoutA = decltype(tile_to_shape_coalesced(SmemLayoutAtomA{}, make_shape(C<BM>{}, C<BK>{}, C<Stages>{})));
  using SmemLayoutB = decltype(tile_to_shape_coalesced(SmemLayoutAtomB{}, make_shape(C<BN>{}, C<BK>{}, C<Stages>{})));
  static constexpr int smem_elems_a = int(decltype(cosize(SmemLayoutA{}))::value);
  static constexpr int smem_elems_b = int(decltype(cosize(SmemLayoutB{}))::value);
  static constexpr int smem_bytes = (smem_elems_a + smem_elems_b) * int(sizeof(Elem));

  // smem -> registers: the atoms tiled to the MMA's A and B fragments.
  static_assert(std::is_same_v<typename SmemCopyAtomA::ValueType, Elem> && std::is_same_v<typename SmemCopyAtomB::ValueType, Elem>,
                "CollectiveMma (SM80): the smem -> register copy atoms move the operands' element type");
  using S2RA = decltype(make_tiled_copy_A(SmemCopyAtomA{}, TiledMma{}));
  using S2RB = decltype(make_tiled_copy_B(SmemCopyAtomB{}, TiledMma{}));

  using TileC = decltype(make_shape(C<BM>{}, C<BN>{}));
  // One thread's accumulators: (MMA, MMA_M, MMA_N) f32 of the tiled MMA's C partition.
  using Accum = decltype(TiledMma{}.get_slice(0).partition_fragment_C(make_identity_tensor(TileC{})));

  // ---- contract (host; sm80_contract.hpp): A and B in the element type and majors the
  // copies were built for; with 16-byte cp.async (Vec), whole 8-element vectors.
  static constexpr int Vector = Vec ? 16 / int(sizeof(Elem)) : 1;
  using Arguments = Sm80MainloopArguments;
  using Params = Sm80MainloopParams;
  static Arguments arguments_of(GemmArguments const& g) { return sm80_mainloop_arguments(g); }
  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& a) {
    return sm80_contract_detail::check_operands(problem, a, element_enum<Elem>, AKMajor, BKMajor, Vector);
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(GemmProblemShape const&, Arguments const& a, void* /*workspace*/, GemmResult& /*status*/) {
    return sm80_contract_detail::mainloop_params(a);
  }
};

}  // namespace tessera::kernels
