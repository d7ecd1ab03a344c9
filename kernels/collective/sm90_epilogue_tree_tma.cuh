// Collective epilogue, SM90, that evaluates an epilogue tree per accumulator and stores D
// through the TMA-store epilogue's machinery: register fragment -> tree (f32) -> D's type ->
// the 128B-swizzled staging tile (stmatrix for a 16-bit D, value by value for f32) -> one TMA
// store per part (sm90_epilogue_tma.cuh: the staging view, its boxes and tensor maps, its named
// barriers are that collective's, used here as they are; EpilogueStaging, checked on the host).
// TMA clips a residue tile's staged values past M or N (as the plain TMA-store epilogue's). A
// tree that reads or writes memory is visited only inside the problem (no leaf reads, no sink
// writes past M or N; 0 staged there); a register-only tree (tree::registers_only) is evaluated
// at every value, with no test, so that no branch separates one value's arithmetic from the
// next's.
// The contract is the register tree epilogue's (sm90_epilogue_tree.cuh: D and the tree's
// arguments, the menu's fields refused), plus the TMA-store rule: D column-major, 16-byte
// aligned, ld, batch stride and M whole 16 bytes (sm90_epilogue_operands), else refused with the
// reason: that D takes the register tree epilogue (EpilogueTree<Tree, EpilogueDirect>).
// Slots: the TMA-store epilogue's staging sets. Cooperative kernels take one; the ping-pong
// kernel two, one per consumer warpgroup (`slot`: its buffer and named barrier), so that one
// consumer stages its tile while the other's last stores still read theirs. The tree's state
// is per thread and its reductions meet by warp shuffles and global atomics (sinks.hpp), never
// through the CTA: two consumers on different tiles reduce into the same outputs safely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "sm90_epilogue_tma.cuh"
#include "sm90_epilogue_tree.cuh"  // (and tree/fragment.hpp)

namespace tessera::kernels::sm90 {

// (the defaults of Fields and Slots: sm90_epilogue_tree_fields.hpp)
template <class ElementD_, int BM, int BN, int ConsumerWarpgroups, class Tree_, class Fields, int Slots>
struct CollectiveEpilogueSm90TreeTmaStore {
  using ElementD = ElementD_;
  using Tree = Tree_;
  static constexpr Activation FusedAct = Activation::Identity;  // (not a fused-menu instance)
  // The TMA-store epilogue whose staging, boxes, maps and barriers this one uses, and the
  // register tree epilogue whose contract it keeps.
  using Staged = CollectiveEpilogueSm90TmaStore<ElementD, BM, BN, ConsumerWarpgroups, Activation::Identity, Slots>;
  using Registers = CollectiveEpilogueSm90Tree<ElementD, Tree, Fields>;
  using Staging = typename Staged::Staging;
  using SharedStorage = typename Staged::SharedStorage;
  static constexpr int Bits = Staged::Bits, AtomsM = Staged::AtomsM, Parts = Staged::Parts, AtomValues = Staged::AtomValues;

  using Arguments = typename Registers::Arguments;
  struct Params {
    typename Registers::Params tree;  // D's pointer and strides (unused here), the tree's Params
    typename Staged::Params tma;      // D's tensor map and boxes
  };

  // ---- contract (host)
  static Arguments arguments_of(GemmArguments const& g) { return Registers::arguments_of(g); }
  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& a) {
    if (auto r = Registers::can_implement(problem, a); !r) return r;
    const Sm90EpilogueOperands ops = Staged::operands(problem, a);
    if (!ops.status)
      return {GemmStatus::Unsupported, "the TMA-store tree epilogue needs a D that TMA can store (else EpilogueTree<Tree, "
                                       "EpilogueDirect>): " + ops.status.message};
    return {};
  }
  static std::size_t get_workspace_size(GemmProblemShape const& problem, Arguments const& a) {
    return Registers::get_workspace_size(problem, a);
  }
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* workspace, GemmResult& status) {
    Params p;
    p.tree = Registers::to_underlying_arguments(problem, a, workspace, status);
    Staged::bind_tma(problem, a, p.tma);
    if (!p.tma.use_tma) status = {GemmStatus::LaunchFailed, "the TMA-store tree epilogue: cuTensorMapEncodeTiled refused D's tensor map"};
    return p;
  }
  static GemmResult initialize(Params const& p, cudaStream_t stream) { return Registers::initialize(p.tree, stream); }

  // ---- the epilogue interface
  __device__ __forceinline__ static void init(SharedStorage& s) { Staged::init(s); }
  __device__ __forceinline__ static void prefetch_c(Params const&, SharedStorage&, int, int64_t, int64_t, int64_t, int = 0) {}
  template <bool Vectors = true, class... Tile>
  __device__ __forceinline__ static void scale(Params const&, Tile const&...) {}
  __device__ __forceinline__ static void finish(Params const& p, int thread) { Staged::finish(p.tma, thread); }

  // What every value needs, by reference: the staging partitions, thread 0's coordinates, this
  // thread's value 0 in D, the residue bounds from there (rows_in, cols_in: M - m0 and N - n0
  // as ints, extent_as_int).
  template <class TCs, class TCc, class Acc, class Stsm, class TDs, class State, class Fragment>
  struct Ctx {
    TCs& tCsD;
    TCc const& tCcD0;
    Acc const& acc;
    typename Tree::Params const& tree;
    State& state;  // this thread's, over the tile (broadcast values, reductions' partials)
    int64_t l, m0, n0;
    int rows_in, cols_in;
    Stsm const& stsm;
    TDs& tDsD;
    using FragmentType = Fragment;
  };

  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, SharedStorage& s, TiledMma const& tiled, TileShape const& tile_mn,
                                               int thread, int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc, int slot = 0,
                                               bool /*prefetched*/ = false) {
    const int wg = thread / GMMA::warpgroup_threads;
    const int first = Staging::first(slot);  // the slot's first buffer
    const bool leader = thread % GMMA::warpgroup_threads == 0;
    const auto sD = Staging::tensor(reinterpret_cast<ElementD*>(&s.d[first][0]));
    auto tCsD = tiled.get_slice(thread).partition_C(sD);  // each value's place in the staging tile
    const auto stsm = Staged::stsm_slice(tiled, thread);
    auto tDsD = Staged::stsm_partition(stsm, sD);  // each stmatrix's row (16-bit D)
    constexpr int groups = int(size<0, 2>(tCsD));  // the C fragment's values are (2, 2, BN/8)
    static_assert(int(size<1>(tCsD)) == AtomsM && groups * 4 * AtomsM == int(sizeof(Acc) / sizeof(float)),
                  "one accumulator per C fragment value");
    const int bar = Staging::buffer(slot, wg);  // this warpgroup's buffer, its named barrier too
    const uint32_t buffer = uint32_t(__cvta_generic_to_shared(&s.d[bar][0]));
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    const auto mine0 = tiled.get_slice(thread).partition_C(make_identity_tensor(tile_mn))(0);
    const int64_t m0 = tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(mine0));
    const int64_t n0 = tile_n * int64_t(get<1>(tile_mn)) + int64_t(get<1>(mine0));
    const int64_t m = p.tree.m, n = p.tree.n;
    // The thread's rows and columns of the tile: the tree loads what they share once (broadcasts,
    // scalars in memory) and keeps its reductions' partials per row or column (State).
    using Fragment = tree::WgmmaFragment<TiledMma, TileShape>;
    static_assert(Fragment::repeats == AtomsM && Fragment::groups == groups, "the tree's frame is this C fragment's");
    const auto frame = tree::wgmma_frame(tiled, tile_mn, thread, tile_m, tile_n, l, tree::TreeShape{m, n, 0});  // (L: unused)
    using State = typename Tree::template State<Fragment::rows, Fragment::cols>;
    State state{};
    Tree::begin_tile(p.tree.tree, state, frame);
    const Ctx<decltype(tCsD), decltype(tCcD0), Acc, decltype(stsm), decltype(tDsD), State, Fragment> ctx{
        tCsD, tCcD0, acc, p.tree.tree, state, l, m0, n0, extent_as_int(m - m0), extent_as_int(n - n0), stsm, tDsD};
    store_parts<groups / Parts>(std::make_integer_sequence<int, AtomsM * Parts>{}, p, ctx, bar, wg, leader, buffer, tile_m, tile_n, l);
    Tree::end_tile(p.tree.tree, state, frame);  // (every thread: a warp's partials meet by shuffles)
  }

  // ---- the epilogue under the next tile (the cooperative kernel's EpilogueUnderNextTile):
  // pack() evaluates the tree at every value of the tile (begin_tile, the visits in store()'s
  // order, end_tile) into the 16-bit fragment of the whole tile; store_packed() stages and
  // TMA-stores it part by part under the next tile's first k-tiles (the plain TMA epilogue's).
  // Everything the tree does besides D's value happens in pack(), before the accumulators are
  // overwritten: its leaves' loads, its reductions (partials per thread over the visits, the
  // warps' shuffles and atomics in end_tile, as store()'s) and its AuxStore writes (straight
  // from the registers, as store()'s). So no tree needs a second fragment across the head (a
  // second 64 registers beside the 128 accumulators and the 64 packed would not fit the
  // consumers' 232), and the tree's State lives only inside pack(), as inside store(). The
  // same f32 values, conversions and staging offsets as store(): D, the reductions' results
  // and the auxiliary outputs are bit-identical to store()'s (a sum's atomics aside, whose
  // order is not deterministic in either). An f32 D keeps store() (not packable).
  static constexpr bool Packable = Bits == 16;
  // (to_underlying_arguments refuses a D without its tensor map: every problem it runs, it packs)
  static constexpr bool PacksAll = Packable;
  using Packed = typename Staged::Packed;
  static bool packs(GemmProblemShape const& problem, Arguments const& a) {
    return Packable && Registers::can_implement(problem, a) && Staged::operands(problem, a).status;
  }
  static const char* packs_refusal() {
    return "the sm90 tree kernel with the epilogue under the next tile stores a 16-bit D through TMA";
  }
  __host__ __device__ static bool packs(Params const& p) { return p.tma.use_tma; }
  template <class TiledMma, class Acc>
  __device__ __forceinline__ static void pack(Params const& p, TiledMma const& tiled, int thread, int64_t tile_m, int64_t tile_n, int64_t l,
                                              Acc const& acc, Packed& out) {
    static_assert(Packable, "pack: a 16-bit D");
    constexpr auto tile_mn = make_shape(C<AtomsM * 64 * ConsumerWarpgroups>{}, C<BN>{});
    // (the visits read no places: the C partition of the tile's coordinates stands for the
    // staging view's)
    auto tCsD = tiled.get_slice(thread).partition_C(make_identity_tensor(tile_mn));
    constexpr int groups = int(size<0, 2>(tCsD));
    static_assert(int(size<1>(tCsD)) == AtomsM && groups * 4 * AtomsM == int(sizeof(Acc) / sizeof(float)) &&
                      sizeof(Packed) == sizeof(Acc) / 2, "one packed value per accumulator");
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    const auto mine0 = tCsD(0);
    const int64_t m0 = tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(mine0));
    const int64_t n0 = tile_n * int64_t(get<1>(tile_mn)) + int64_t(get<1>(mine0));
    const int64_t m = p.tree.m, n = p.tree.n;
    using Fragment = tree::WgmmaFragment<TiledMma, decltype(tile_mn)>;
    static_assert(Fragment::repeats == AtomsM && Fragment::groups == groups, "the tree's frame is this C fragment's");
    const auto frame = tree::wgmma_frame(tiled, tile_mn, thread, tile_m, tile_n, l, tree::TreeShape{m, n, 0});  // (L: unused)
    using State = typename Tree::template State<Fragment::rows, Fragment::cols>;
    State state{};
    Tree::begin_tile(p.tree.tree, state, frame);
    const int stsm = 0;  // (no stmatrix in the visits)
    int tDsD = 0;
    const Ctx<decltype(tCsD), decltype(tCcD0), Acc, int, int, State, Fragment> ctx{
        tCsD, tCcD0, acc, p.tree.tree, state, l, m0, n0, extent_as_int(m - m0), extent_as_int(n - n0), stsm, tDsD};
    auto frag = Staging::fragment(&out.v[0], tiled);
    static_assert(decltype(size(frag))::value == AtomsM * AtomValues, "the fragment holds every value");
    pack_repeats<groups>(std::make_integer_sequence<int, AtomsM>{}, ctx, frag);
    Tree::end_tile(p.tree.tree, state, frame);  // (every thread: a warp's partials meet by shuffles)
  }
  template <int Groups, int... Is, class X, class Frag>
  __device__ __forceinline__ static void pack_repeats(std::integer_sequence<int, Is...>, X const& ctx, Frag& frag) {
    (convert_groups<Is, 0>(std::make_integer_sequence<int, Groups>{}, ctx, frag), ...);
  }
  template <class TiledMma>
  __device__ __forceinline__ static void store_packed(Params const& p, SharedStorage& s, TiledMma const& tiled, int thread, int64_t tile_m,
                                                      int64_t tile_n, int64_t l, Packed const& packed) {
    Staged::store_packed(p.tma, s, tiled, thread, tile_m, tile_n, l, packed);
  }

  // Value V of group J of M repeat I (accumulator 4 J + V + AtomValues I): the tree at its
  // element. A register-only tree is evaluated at every value: past M or N its value is staged
  // and clipped by TMA, as the plain epilogue's (its broadcasts hold 0 there, begin_tile reads
  // nothing past the problem). With the visit inside an `if` instead, ptxas kept one branch
  // region (BSSY .. BSYNC) per value even for an arithmetic-only tree (128 per thread and tile at
  // 64 x 256 or 128 x 128) and ran each value's chain (bias, GELU's polynomial, ex2, rcp) to its
  // end before the next began; with a select, two compares and the select per value remain.
  // Any other tree is visited only inside the problem (0 staged past it): the same test on
  // whole and residue tiles (no second copy of the unrolled epilogue), two compares of
  // compile-time offsets with the tile's bounds.
  template <int I, int J, int V, class Cj, class X>
  __device__ __forceinline__ static float value(Cj const& cj, X const& ctx) {
    const auto mn = cj(C<V>{});  // relative to thread 0's value 0: constants
    const int dm = int(get<0>(mn)), dn = int(get<1>(mn));
    using Fragment = typename X::FragmentType;
    const tree::TreeCoord at{ctx.m0 + dm, ctx.n0 + dn, ctx.l, Fragment::row_slot(V / 2, I), Fragment::col_slot(V % 2, J), int(dm), int(dn)};
    if constexpr (!tree::registers_only_v<Tree>)
      if (!(dm < ctx.rows_in && dn < ctx.cols_in)) return 0.0f;
    return Tree::visit(ctx.tree, ctx.state, at, ctx.acc[4 * J + V + AtomValues * I]);
  }
  // An f32 D: group J of repeat I value by value into the staging tile.
  template <int I, int J, class X>
  __device__ __forceinline__ static void store_group(X const& ctx) {
    const auto group = make_coord(make_coord(_, _, C<J>{}), C<I>{}, _0{});
    auto dj = ctx.tCsD(group);
    const auto cj = ctx.tCcD0(group);
    dj(_0{}) = arch::from_f32<ElementD>(value<I, J, 0>(cj, ctx));
    dj(_1{}) = arch::from_f32<ElementD>(value<I, J, 1>(cj, ctx));
    dj(_2{}) = arch::from_f32<ElementD>(value<I, J, 2>(cj, ctx));
    dj(_3{}) = arch::from_f32<ElementD>(value<I, J, 3>(cj, ctx));
  }
  template <int I, int J0, int... Js, class X>
  __device__ __forceinline__ static void store_groups(std::integer_sequence<int, Js...>, X const& ctx) {
    (store_group<I, J0 + Js>(ctx), ...);
  }
  // A 16-bit D: group J's values into the stmatrix fragment, converted in pairs.
  template <int I, int J, class X, class Frag>
  __device__ __forceinline__ static void convert_group(X const& ctx, Frag& frag) {
    const auto group = make_coord(make_coord(_, _, C<J>{}), C<I>{}, _0{});
    const auto cj = ctx.tCcD0(group);
    constexpr int at = 4 * J + AtomValues * I;
    arch::from_f32x2(value<I, J, 0>(cj, ctx), value<I, J, 1>(cj, ctx), frag(C<at>{}), frag(C<at + 1>{}));
    arch::from_f32x2(value<I, J, 2>(cj, ctx), value<I, J, 3>(cj, ctx), frag(C<at + 2>{}), frag(C<at + 3>{}));
  }
  template <int I, int J0, int... Js, class X, class Frag>
  __device__ __forceinline__ static void convert_groups(std::integer_sequence<int, Js...>, X const& ctx, Frag& frag) {
    (convert_group<I, J0 + Js>(ctx, frag), ...);
  }
  // Part H's values into the staging buffer: G groups of M repeat H / Parts from column group
  // (H % Parts) G (a 16-bit D through stmatrix instructions (H % Parts) K .. + K - 1).
  template <int G, int H, class X>
  __device__ __forceinline__ static void stage_part(X const& ctx) {
    constexpr int I = H / Parts;
    if constexpr (Bits == 16) {
      ElementD staged[AtomsM * AtomValues];  // (only this part's values are written and read)
      auto frag = make_tensor(&staged[0], make_layout(shape(ctx.tCsD)));
      convert_groups<I, (H % Parts) * G>(std::make_integer_sequence<int, G>{}, ctx, frag);
      const auto src = ctx.stsm.retile_S(frag);
      static_assert(Staging::instructions_in_value_order(decltype(src.layout()){}), "stmatrix instruction k holds values 8k .. 8k+7");
      constexpr int K = Staging::instructions_per_part;
      Staged::template stsm_instructions<I, (H % Parts) * K>(std::make_integer_sequence<int, K>{}, src, ctx.tDsD);
    } else {
      store_groups<I, (H % Parts) * G>(std::make_integer_sequence<int, G>{}, ctx);
    }
  }
  // Part H: the previous store has read the buffer, the warpgroup stages, then one TMA store.
  // (bar: the buffer's index, its named barrier's too; wg: the warpgroup's rows in the tile)
  template <int G, int H, class X>
  __device__ __forceinline__ static void store_part(Params const& p, X const& ctx, int bar, int wg, bool leader, uint32_t buffer,
                                                    int64_t tile_m, int64_t tile_n, int64_t l) {
    if (leader) tma_store_wait<0>();
    Staged::staging_barrier(bar);
    stage_part<G, H>(ctx);
    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)
    Staged::staging_barrier(bar);
    if (leader) {
      copy(p.tma.tma_d.with(&p.tma.map_d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));
      tma_store_commit();
    }
  }
  template <int G, int... Hs, class X>
  __device__ __forceinline__ static void store_parts(std::integer_sequence<int, Hs...>, Params const& p, X const& ctx, int bar, int wg,
                                                     bool leader, uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l) {
    (store_part<G, Hs>(p, ctx, bar, wg, leader, buffer, tile_m, tile_n, l), ...);
  }
};

}  // namespace tessera::kernels::sm90
