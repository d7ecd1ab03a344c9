// The SIMT (FFMA) collective mainloop as a type composed of its parts:
//
//   CollectiveMma<MainloopSm80CpAsyncSimt<Stages>,                 // dispatch policy
//                 TileShape,                                        // tuple<C<BM>, C<BN>, C<BK>>
//                 float, MajorA, float, MajorB,                     // KMajor | MNMajor in gmem
//                 TiledMma,                                         // UniversalFMA over the CTA's threads
//                 GmemTiledCopyA, SmemLayoutA, SmemCopyAtomA,       // gmem -> smem -> registers of A
//                 GmemTiledCopyB, SmemLayoutB, SmemCopyAtomB,       // ... of B
//                 Trace>                                            // trace_policy.cuh
//
// Unlike the SM80 tensor-op collective (sm80_collective_mma.hpp), whose smem layouts are
// tile_to_shape of swizzled atoms, the SIMT smem layouts are given whole, (MN, BK, Stages) ->
// float offset: MN-major rows padded to a pitch (a K-major operand's transposing 4-byte
// writes then hit distinct banks), and the two operands' stages interleaved -- stage s holds
// A's BK rows, then B's -- so each layout's stage stride is both operands' rows.  The
// zero-filling gmem -> smem copies (tiles across the matrix's edge) are the given tiled
// copies with the zero-filling cp.async of the same width; the smem -> register copies are
// make_tiled_copy_A/B(atom, TiledMma).  CollectiveBuilder (collective_builder.hpp) picks the
// parts from SimtPartition; a user may compose the collective from their own.
//
// Plain C++ like the builders: CollectiveMmaSimtParts derives every type and checks the rules
// the mainloop relies on (static_asserts that name them), so the host tests and the misuse
// snippets see them, and keeps the collective's contract (sm80_contract.hpp); the mainloop
// (mainloop_simt.cuh) is those parts plus its code.
#pragma once

#include <type_traits>

#include "tessera/atom/copy.hpp"
#include "tessera/atom/copy_sm80_zfill.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/tiled_mma.hpp"
#include "sm80_collective_mma.hpp"  // CollectiveMma

namespace tessera::kernels {

// Dispatch policy of the SIMT cp.async multistage mainloop: Stages k-tiles in flight.
template <int Stages_>
struct MainloopSm80CpAsyncSimt {
  static_assert(Stages_ >= 2, "MainloopSm80CpAsyncSimt: a pipeline needs at least 2 stages to overlap copies with math");
  static constexpr int Stages = Stages_;
};

namespace simt_detail {
// The zero-filling cp.async of a cp.async (the same width and cache level): what copy_if
// issues where a predicate is false.
template <class Op>
struct zfill_of {
  static constexpr bool exists = false;
  using type = void;
};
template <int Bytes>
struct zfill_of<SM80_CP_ASYNC_CACHEALWAYS<Bytes>> {
  static constexpr bool exists = true;
  using type = SM80_CP_ASYNC_CACHEALWAYS_ZFILL<Bytes>;
};
template <int Bytes>
struct zfill_of<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<Bytes>> {
  static constexpr bool exists = true;
  using type = SM80_CP_ASYNC_CACHEALWAYS_ZFILL<Bytes>;
};
// The same tiled copy (threads, values, tile) with the zero-filling atom (itself where the
// atom has none: the rule that asks for one names the error).
template <class Tiled, bool = zfill_of<typename Tiled::AtomType::Operation>::exists>
struct ZfillTiledCopy {
  using type = Tiled;
};
template <class Tiled>
struct ZfillTiledCopy<Tiled, true> {
  using type =
      TiledCopy<Copy_Atom<typename zfill_of<typename Tiled::AtomType::Operation>::type, typename Tiled::AtomType::ValueType>,
                typename Tiled::TiledLayout_TV, typename Tiled::Tiler_MN>;
};
template <class Tiled>
using zfill_tiled_copy_t = typename ZfillTiledCopy<Tiled>::type;

template <class L>
inline constexpr bool is_rank3 = rank_v<decltype(shape(L{}))> == 3;
template <class L, int I>
inline constexpr int stride_of = int(std::remove_cvref_t<decltype(get<I>(stride(L{})))>::value);
template <class L, int I>
inline constexpr int extent_of = int(std::remove_cvref_t<decltype(get<I>(shape(L{})))>::value);
}  // namespace simt_detail

// The parts of CollectiveMma<MainloopSm80CpAsyncSimt<...>, ...>: every type it derives, and the rules.
template <class Policy, class TileShape, class ElementA, class MajorA, class ElementB, class MajorB, class TiledMma_,
          class GmemTiledCopyA, class SmemLayoutA_, class SmemCopyAtomA, class GmemTiledCopyB, class SmemLayoutB_,
          class SmemCopyAtomB>
struct CollectiveMmaSimtParts {
  static constexpr int BM = sm80_detail::extent<TileShape, 0>, BN = sm80_detail::extent<TileShape, 1>,
                       BK = sm80_detail::extent<TileShape, 2>;
  static constexpr int Stages = Policy::Stages;
  static_assert(std::is_same_v<ElementA, float> && std::is_same_v<ElementB, float>,
                "CollectiveMma (SIMT): A and B are f32 (UniversalFMA<float>, f32 accumulators; 16-bit types run on the "
                "tensor-op collective)");
  static_assert(sm80_detail::is_major<MajorA> && sm80_detail::is_major<MajorB>,
                "CollectiveMma (SIMT): MajorA and MajorB are KMajor or MNMajor");
  using Elem = float;
  static constexpr bool AKMajor = std::is_same_v<MajorA, KMajor>, BKMajor = std::is_same_v<MajorB, KMajor>;

  // The tiled MMA: its tile divides the CTA tile.
  using TiledMma = TiledMma_;
  static constexpr int Threads = sm80_detail::mma_threads<TiledMma>;
  static constexpr int MmaM = sm80_detail::mma_tile<TiledMma, 0>, MmaN = sm80_detail::mma_tile<TiledMma, 1>,
                       MmaK = sm80_detail::mma_tile<TiledMma, 2>;
  static_assert(BM % MmaM == 0 && BN % MmaN == 0 && BK % MmaK == 0,
                "CollectiveMma (SIMT): the CTA tile (BM, BN, BK) is a whole number of the tiled MMA's tiles");

  // gmem -> smem: cp.async of f32 (a zero-filling variant exists for the matrix's edge), by
  // the tiled MMA's threads, each copying a whole number of its tiles per k-tile.
  using G2SA = GmemTiledCopyA;
  using G2SB = GmemTiledCopyB;
  using G2SOpA = typename G2SA::AtomType::Operation;
  using G2SOpB = typename G2SB::AtomType::Operation;
  static_assert(simt_detail::zfill_of<G2SOpA>::exists && simt_detail::zfill_of<G2SOpB>::exists &&
                    std::is_same_v<typename G2SA::AtomType::ValueType, float> &&
                    std::is_same_v<typename G2SB::AtomType::ValueType, float>,
                "CollectiveMma (SIMT): the gmem -> smem copies are cp.async of f32 with a zero-filling variant "
                "(SM80_CP_ASYNC_CACHEALWAYS<Bytes>)");
  using G2SAZfill = simt_detail::zfill_tiled_copy_t<G2SA>;
  using G2SBZfill = simt_detail::zfill_tiled_copy_t<G2SB>;
  static_assert(int(decltype(G2SA::num_threads())::value) == Threads && int(decltype(G2SB::num_threads())::value) == Threads,
                "CollectiveMma (SIMT): the gmem -> smem tiled copies run on the tiled MMA's threads");
  static_assert(BM % sm80_detail::extent<typename G2SA::Tiler_MN, 0> == 0 && BK % sm80_detail::extent<typename G2SA::Tiler_MN, 1> == 0 &&
                    BN % sm80_detail::extent<typename G2SB::Tiler_MN, 0> == 0 && BK % sm80_detail::extent<typename G2SB::Tiler_MN, 1> == 0,
                "CollectiveMma (SIMT): a gmem -> smem tiled copy covers its operand tile (BM|BN, BK) in whole copy tiles");

  // smem: the layouts as given, (MN, BK, Stages) -> float offset.
  using SmemLayoutA = SmemLayoutA_;
  using SmemLayoutB = SmemLayoutB_;
  static_assert(simt_detail::is_rank3<SmemLayoutA> && simt_detail::is_rank3<SmemLayoutB>,
                "CollectiveMma (SIMT): a smem layout is (BM|BN, BK, Stages)");
  static_assert(simt_detail::extent_of<SmemLayoutA, 0> == BM && simt_detail::extent_of<SmemLayoutA, 1> == BK &&
                    simt_detail::extent_of<SmemLayoutA, 2> == Stages && simt_detail::extent_of<SmemLayoutB, 0> == BN &&
                    simt_detail::extent_of<SmemLayoutB, 1> == BK && simt_detail::extent_of<SmemLayoutB, 2> == Stages,
                "CollectiveMma (SIMT): a smem layout is (BM|BN, BK, Stages)");
  // MN-major rows (the smem -> register atoms read consecutive MN values as one vector),
  // each k-row within its pitch, and the stages interleaved: a stage is A's BK rows then B's.
  static constexpr int PitchA = simt_detail::stride_of<SmemLayoutA, 1>, PitchB = simt_detail::stride_of<SmemLayoutB, 1>;
  static_assert(simt_detail::stride_of<SmemLayoutA, 0> == 1 && simt_detail::stride_of<SmemLayoutB, 0> == 1 && PitchA >= BM &&
                    PitchB >= BN,
                "CollectiveMma (SIMT): the smem layouts are MN-major rows (mn stride 1, a k-row pitch of at least BM|BN)");
  static constexpr int StageStride = BK * (PitchA + PitchB);
  static_assert(simt_detail::stride_of<SmemLayoutA, 2> == StageStride && simt_detail::stride_of<SmemLayoutB, 2> == StageStride,
                "CollectiveMma (SIMT): the smem stages interleave (stage s: A's BK rows, then B's): each layout's stage "
                "stride is BK * (pitch of A + pitch of B)");
  static constexpr int smem_offset_b = BK * PitchA;  // B's rows follow A's in each stage
  static constexpr int smem_floats = smem_offset_b + int(decltype(cosize(SmemLayoutB{}))::value);
  static constexpr int smem_bytes = smem_floats * int(sizeof(Elem));

  // smem -> registers: the atoms tiled to the MMA's A and B fragments.
  static_assert(std::is_same_v<typename SmemCopyAtomA::ValueType, Elem> && std::is_same_v<typename SmemCopyAtomB::ValueType, Elem>,
                "CollectiveMma (SIMT): the smem -> register copy atoms move f32");
  using S2RA = decltype(make_tiled_copy_A(SmemCopyAtomA{}, TiledMma{}));
  using S2RB = decltype(make_tiled_copy_B(SmemCopyAtomB{}, TiledMma{}));

  using TileC = decltype(make_shape(C<BM>{}, C<BN>{}));
  // One thread's accumulators: the tiled MMA's C fragment of the CTA tile.
  using Accum = decltype(TiledMma{}.get_slice(0).partition_fragment_C(make_identity_tensor(TileC{})));

  // ---- contract (host; sm80_contract.hpp): f32 A and B in the majors the copies were built
  // for; 4-byte cp.async takes any f32 address (check_arguments holds them to their elements).
  using Arguments = Sm80MainloopArguments;
  using Params = Sm80MainloopParams;
  static Arguments arguments_of(GemmArguments const& g) { return sm80_mainloop_arguments(g); }
  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& a) {
    return sm80_contract_detail::check_operands(problem, a, Element::F32, AKMajor, BKMajor, 1);
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(GemmProblemShape const&, Arguments const& a, void* /*workspace*/, GemmResult& /*status*/) {
    return sm80_contract_detail::mainloop_params(a);
  }
};

// Whether a mainloop is the SIMT collective, and then its parts (for code that reads a
// mainloop's operands, e.g. a device adapter's contract).
template <class Mainloop>
struct SimtCollectiveOf {
  static constexpr bool value = false;
};
template <int Stages, class TileShape, class EA, class MA, class EB, class MB, class TiledMma, class G2SA, class SmemA, class S2RA,
          class G2SB, class SmemB, class S2RB, class Trace>
struct SimtCollectiveOf<CollectiveMma<MainloopSm80CpAsyncSimt<Stages>, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB,
                                      SmemB, S2RB, Trace>> {
  static constexpr bool value = true;
  using Policy = MainloopSm80CpAsyncSimt<Stages>;
  using Parts = CollectiveMmaSimtParts<Policy, TileShape, EA, MA, EB, MB, TiledMma, G2SA, SmemA, S2RA, G2SB, SmemB, S2RB>;
};

}  // namespace tessera::kernels
