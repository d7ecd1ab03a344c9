// Collective epilogue, SM90, through shared memory and TMA stores: each consumer warpgroup
// writes its 64-row half of the tile (f32 -> element, alpha applied)
// into a 128B-swizzled column-major staging tile (the MN-major GMMA atom tiled: a column is
// one 128-byte swizzle row, so a warp's writes land in distinct banks), then one thread stores
// it with TMA; TMA clips what lies past M and N. DMajor: the kernel's D major, a kernel per
// major. A row-major D stages into the K-major atom tiled rows first (a row of the atom is one
// 128-byte swizzle row: stmatrix without .trans, whose 16-byte matrix rows are the
// accumulators' own column pairs) and stores boxes of 64 rows x 128 bytes
// (EpilogueStaging); the dispatch runs a column-major D's problem transposed on it where the
// wave model prefers the kernel's tile along the other extent (sm90_schedule.hpp). The staging tile holds 16 KiB: 64 x BN/2 of a
// 16-bit D, 64 x BN/4 of an f32 D (whose 128-byte swizzle rows are 32 elements: two TMA boxes
// per store), written and stored BN/cols times in turn. Where this does not apply (D or C
// not 16-byte aligned, D of the other major) the direct epilogue runs.
// beta != 0 (the plain instance, a run-time choice: load_c): C (D's major and type, possibly
// D itself) comes by TMA into the same staging buffer, completing on the buffer's mbarrier;
// each thread reads C at the position it then writes D to (D = alpha acc + beta C), so C
// costs no registers across the mainloop and no second buffer. Part 0's load is issued before
// the tile's mainloop (prefetch_c: it lands under the wgmmas), the other parts' as soon as
// the previous part's store has read the buffer. C aliasing D is safe: a part's C is read
// into smem before that part's D is stored, and parts and tiles do not overlap.
// Fusion is a template parameter, one kernel instance per activation (FusedAct): the plain
// instance (Identity) stages plain values and sends fused problems to the direct epilogue;
// the instance for an activation stages act(alpha acc + bias), the bias optional at run time,
// and takes only problems with that activation (the device layer's dispatch). One store loop
// per kernel: with every activation's loop in each kernel, ptxas took 119 s per kernel.
// Where each accumulator goes is the TiledMma's C partition of a CTA-tile view of the two
// staging buffers: (staging rows, W) x (staging columns, parts) with strides (staging's,
// buffer) x (staging's, 0) under the swizzle, the parts sharing one buffer (one after the
// other) -- EpilogueStaging (sm90_epilogue_staging.hpp, checked on the host). A 16-bit D is
// staged by stmatrix (the tiled copy C of that view: 8 values per instruction, converted in
// pairs), an f32 D value by value. Whether C is read (beta != 0) is chosen once per part,
// not per value.
// Slots: staging sets for consumers that store different tiles at once (the ping-pong kernel:
// one per consumer warpgroup, each with its own buffers and named barrier); `slot` picks one.
// Maps: the stores (and C's loads) go through the tensor maps they are given, the Params' for a
// problem the host encoded, or a group's that the device rewrote (the grouped kernel: one
// template per call, GroupedTemplate, rebound per group by bind_group_map (tensormap.replace),
// acquired by the storing thread before its first store through it).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include <tessera/algorithm/copy.hpp>
#include <tessera/algorithm/copy_tma.hpp>
#include <tessera/atom/tma_encode.hpp>
#include <tessera/pipeline/mbarrier.hpp>
#include <tessera/atom/gmma_layout.hpp>
#include <tessera/tensor.hpp>
#include <tessera/tiled_mma.hpp>

#include "../arch/named_barrier.cuh"
#include "../arch/sm90_convert.cuh"
#include "../arch/sm90_tensormap.cuh"
#include "sm90_epilogue.cuh"
#include "sm90_epilogue_staging.hpp"
#include "sm90_tensor_map_type.hpp"

namespace tessera::kernels::sm90 {

template <class ElementD_, int BM, int BN, int ConsumerWarpgroups, Activation FusedAct_ = Activation::Identity, int Slots = 1,
          Major DMajor_ = Major::Col>
struct CollectiveEpilogueSm90TmaStore {
  using ElementD = ElementD_;
  // The major of the D (and C) this kernel stages and TMA stores (the other runs direct stores).
  static constexpr Major DMajor = DMajor_;
  // The activation this instance applies (Identity: the plain instance).
  static constexpr Activation FusedAct = FusedAct_;
  using Direct = CollectiveEpilogueSm90Direct<ElementD>;
  static constexpr int Bits = sizeof_bits_v<ElementD>;
  static_assert(BM % (64 * ConsumerWarpgroups) == 0, "each consumer warpgroup holds whole 64-row wgmma atoms of the tile");
  // The TiledMma's M repeat (the mainloop's AtomsM): a warpgroup's rows of repeat i are
  // 64 wg + 64 ConsumerWarpgroups i, each repeat staged and stored as parts of its own.
  static constexpr int AtomsM = BM / (64 * ConsumerWarpgroups);
  // One warpgroup's staging tile: (64, Cols) of D, column-major, 128B swizzle, the atoms
  // walking the columns first (hopper_sm90_partition_test checks the view, the TMA boxes and
  // the stmatrix staging).
  using Staging = EpilogueStaging<Bits, BN, ConsumerWarpgroups, AtomsM, DMajor>;
  static constexpr int Cols = Staging::Cols;    // staging columns: 16 KiB of 64-row columns, at most BN
  static constexpr int Parts = Staging::Parts;  // stores per M repeat (AtomsM Parts per tile and warpgroup)
  static constexpr auto staging = Staging::staging;
  static constexpr int staging_elements = Staging::elements;
  static constexpr int staging_bytes = Staging::bytes;
  // TMA boxes per store: one 128-byte swizzle row is the box's inner extent (column-major: 64
  // rows of 16 bits, 32 of f32; row-major: 64 or 32 columns, 64 rows).
  static constexpr int MaxBoxes = Staging::boxes;

  static constexpr int Buffers = Slots * ConsumerWarpgroups;
  static_assert(Buffers <= int(arch::epilogue_staging_barriers), "a named barrier per staging buffer (arch/named_barrier.cuh)");
  // The warpgroup that writes buffer b, together.
  __device__ __forceinline__ static void staging_barrier(int b) {
    arch::named_barrier_sync<arch::NamedBarrier::EpilogueStaging, GMMA::warpgroup_threads>(b);
  }
  using SharedStorage = EpilogueTmaStoreSharedStorage<Buffers>;
  static_assert(staging_bytes <= epilogue_staging_bytes, "the staging tile fits one staging buffer");
  struct Params {
    typename Direct::Params direct;
    CUtensorMap map_d;
    TmaStore<MaxBoxes> tma_d;  // (its boxes are C's too: C has D's major and staging tile)
    CUtensorMap map_c;
    bool use_tma = false;
    bool load_c = false;  // beta != 0 through TMA loads of C (use_tma, the plain instance only)
  };

  // ---- contract (host). The direct epilogue's Arguments; TMA stores D where
  // sm90_epilogue_operands admits it and the direct stores run elsewhere (the plain instance),
  // while a fused instance takes only problems whose D TMA stores.
  using Arguments = Sm90EpilogueArguments;
  static Arguments arguments_of(GemmArguments const& g) { return Direct::arguments_of(g); }
  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& a) {
    if (auto r = Direct::can_implement(problem, a); !r) return r;
    if constexpr (FusedAct != Activation::Identity) {
      // (its stores apply FusedAct whatever the problem says: another activation is refused, not
      // silently replaced)
      if (a.activation != FusedAct)
        return {GemmStatus::Unsupported, std::string("the fused TMA-store sm90 kernel of ") + to_string(FusedAct) + " applies only " +
                                             to_string(FusedAct) + ", not " + to_string(a.activation)};
      const Sm90EpilogueOperands ops = operands(problem, a);
      if (!ops.status)
        return {GemmStatus::Unsupported, "the fused TMA-store sm90 kernel needs a D that TMA can store: " + ops.status.message};
    }
    return {};
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* workspace, GemmResult& status) {
    Params e{};
    e.direct = Direct::to_underlying_arguments(problem, a, workspace, status);
    bind_tma(problem, a, e);
    if constexpr (FusedAct != Activation::Identity) {
      if (!e.use_tma) status = {GemmStatus::LaunchFailed, "the fused TMA-store sm90 kernel: cuTensorMapEncodeTiled refused D's tensor map"};
    }
    return e;
  }
  static GemmResult initialize(Params const&, cudaStream_t) { return {}; }
  static Sm90EpilogueOperands operands(GemmProblemShape const& problem, Arguments const& a) {
    return sm90_epilogue_operands(problem_m(problem), problem_n(problem), problem_l(problem), a, int(sizeof(ElementD)),
                                  FusedAct != Activation::Identity, DMajor);
  }
  // The staging tile's TMA plan over a representative tensor of D's major (rows, columns[,
  // batches]): derived once per epilogue type, rebound to each problem's D and C.
  struct Proto {
    tma::Arguments a;
    TmaStore<MaxBoxes> t;
  };
  static Proto make_proto(bool batched) {
    Proto p;
    const int64_t rows = 1024, cols = 1024;
    // (element strides of the rows and columns: column-major (1, rows), row-major (cols, 1))
    const int64_t row_stride = DMajor == Major::Row ? cols : 1, col_stride = DMajor == Major::Row ? 1 : rows;
    if (batched)
      (void)make_tma_copy<SM90_TMA_STORE, MaxBoxes, Bits>(
          p.a, make_layout(make_shape(rows, cols, int64_t(2)), make_stride(row_stride, col_stride, rows * cols)), staging);
    else
      (void)make_tma_copy<SM90_TMA_STORE, MaxBoxes, Bits>(
          p.a, make_layout(make_shape(rows, cols), make_stride(row_stride, col_stride)), staging);
    p.t.boxes = tma::make_tile_boxes<MaxBoxes>(p.a, staging);
    return p;
  }
  static Proto const& prototype(bool batched) {
    static const Proto proto2 = make_proto(false), proto3 = make_proto(true);
    return batched ? proto3 : proto2;
  }
  // D's (and C's) tensor maps where TMA applies (the prototype rebound to the problem's).
  static void bind_tma(GemmProblemShape const& problem, Arguments const& a, Params& e) {
    e.use_tma = false;
    e.load_c = false;
    const Sm90EpilogueOperands ops = operands(problem, a);
    if (!ops.status) return;
    const Proto& proto = prototype(problem_l(problem) > 1);
    if (!proto.t.boxes.ok()) return;
    const tma::Arguments d = tma::rebind_gmem(proto.a, ops.modes, ops.extent, ops.d_stride);
    if (d.rule != tma::Rule::ok) return;
    const CUtensorMapDataType type = tensor_map_type_of<ElementD>();
    if (tma::encode_tensor_map(&e.map_d, d, a.d, type) != CUDA_SUCCESS) return;
    if (ops.load_c) {
      // C: D's box geometry over C's strides (TMA loads fill what lies past M and N with 0).
      const tma::Arguments c = tma::rebind_gmem(proto.a, ops.modes, ops.extent, ops.c_stride);
      if (c.rule != tma::Rule::ok || tma::encode_tensor_map(&e.map_c, c, a.c.ptr, type) != CUDA_SUCCESS) return;
    }
    e.tma_d = proto.t;
    e.use_tma = true;
    e.load_c = ops.load_c;
  }

  // ---- grouped problems: D's and C's maps per group, written on the device.
  // The tensor maps a store goes through (generic addresses: a kernel parameter's, or a map in
  // global memory).
  struct Maps {
    const void* d;
    const void* c;  // read where load_c
  };
  __device__ __forceinline__ static Maps maps_of(Params const& p) { return {&p.map_d, &p.map_c}; }
  // The template the device rebinds: the prototype's map (2 modes, column-major (m, n): D_g^T of
  // the grouped kernel) encoded once on the host over any 16-byte aligned address, and its plan.
  struct GroupedTemplate {
    CUtensorMap map;
    tma::Arguments args;
  };
  // Bytes a group's maps take in a caller's workspace (D's and C's, 64-byte aligned each).
  static constexpr std::size_t group_map_bytes = 2 * sizeof(CUtensorMap);
  // Host: the epilogue's parameters for every group of a call (TMA stores, C loaded where beta
  // != 0; no bias, no activation) and the template; `address`: any 16-byte aligned device
  // address (the encoded map's, replaced per group).
  static GemmResult grouped_params(float alpha, float beta, const void* address, Params& e, GroupedTemplate& t) {
    e = Params{};
    e.direct.alpha = alpha;
    e.direct.beta = beta;
    const Proto& p = prototype(false);
    if (!p.t.boxes.ok() || p.a.rule != tma::Rule::ok)
      return {GemmStatus::Unsupported, "the grouped sm90 epilogue: no TMA plan for its staging tile"};
    t.args = p.a;
    if (tma::encode_tensor_map(&t.map, p.a, address, tensor_map_type_of<ElementD>()) != CUDA_SUCCESS)
      return {GemmStatus::LaunchFailed, "the grouped sm90 epilogue: cuTensorMapEncodeTiled refused D's template map"};
    e.map_d = t.map;
    e.map_c = t.map;
    e.tma_d = p.t;
    e.use_tma = true;
    e.load_c = beta != 0.0f;
    return {};
  }
  // Device (one thread per group): the template written to `map` (global memory) with a
  // group's address and its plan rebound to the group's tensor (tma::rebind_gmem of
  // t.args: the grouped kernel's grouped_output_arguments, refused groups never come here).
  // The caller publishes with arch::tensormap_release(); a storing thread acquires (acquire()).
  __device__ static void bind_group_map(GroupedTemplate const& t, void* map, const void* address, tma::Arguments const& rebound) {
    arch::tensormap_copy(map, &t.map);
    arch::tensormap_replace_global_address(map, address);
    arch::tensormap_replace_dims_strides(map, rebound.rank, rebound.global_dim, rebound.global_stride_bytes);
  }
  // The storing threads' (each warpgroup's leader) acquire of maps rewritten on the device, and
  // their prefetch into the TMA unit's descriptor cache, before the first copy through them.
  __device__ __forceinline__ static void acquire(Params const& p, Maps const& m, int thread) {
    if (thread % GMMA::warpgroup_threads != 0) return;
    arch::tensormap_acquire(m.d);
    arch::tensormap_prefetch(m.d);
    if (p.load_c) {
      arch::tensormap_acquire(m.c);
      arch::tensormap_prefetch(m.c);
    }
  }

  // One thread, before the kernel's fence.mbarrier_init and cluster barrier.
  __device__ __forceinline__ static void init(SharedStorage& s) {
    for (int b = 0; b < Buffers; ++b) {
      s.c_full[b].init(1);
      s.c_phase[b] = 0;
    }
  }

  // The TMA load of part H of the tile's C into buffer b (its leader thread; the buffer is
  // free: the previous store has read it).
  __device__ __forceinline__ static void load_c_part(Params const& p, Maps const& maps, SharedStorage& s, int b, int wg, int h,
                                                     int64_t tile_m, int64_t tile_n, int64_t l) {
    s.c_full[b].arrive_expect_tx(p.tma_d.tx_bytes());
    copy(TmaBound<SM90_TMA_LOAD, MaxBoxes>{&p.tma_d.boxes, maps.c, s.c_full[b].address()},
         tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, h)), uint32_t(__cvta_generic_to_shared(&s.d[b][0])));
  }

  // Before a tile's mainloop (every consumer thread; `prefetched` passed to store()): part 0
  // of its C, so that the load lands while the wgmmas run.
  __device__ __forceinline__ static void prefetch_c(Params const& p, SharedStorage& s, int thread, int64_t tile_m, int64_t tile_n,
                                                    int64_t l, int slot = 0) {
    if constexpr (FusedAct == Activation::Identity) {
      if (p.load_c && thread % GMMA::warpgroup_threads == 0) {
        const int wg = thread / GMMA::warpgroup_threads;
        tma_store_wait<0>();  // the previous tile's last store has read the buffer
        load_c_part(p, maps_of(p), s, Staging::buffer(slot, wg), wg, 0, tile_m, tile_n, l);
      }
    }
  }

  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, SharedStorage& s, TiledMma const& tiled, TileShape const& tile_mn,
                                               int thread, int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc,
                                               int slot = 0, bool prefetched = false) {
    if constexpr (FusedAct == Activation::Identity) {
      // The plain instance: fused problems take the direct stores, whose loops (one per
      // activation) exist once per kernel, not once per epilogue.
      if (!p.use_tma || p.direct.fused()) {
        Direct::store(p.direct, tiled, tile_mn, thread, tile_m, tile_n, l, acc);
        return;
      }
      store_as<Activation::Identity, false>(p, maps_of(p), s, tiled, tile_mn, thread, tile_m, tile_n, l, acc, slot, prefetched);
    } else {
      // A fused instance runs only problems whose activation is FusedAct and whose D TMA
      // can store (can_implement; the dispatch runs the others on the plain instance);
      // the bias is read where its pointer is set. No direct loop here: with the direct
      // loop for FusedAct beside this one, the kernel had a 176-byte stack and 108 bytes of
      // spill stores; without it, 64 bytes and none (ptxas, bf16 GELU tanh).
      if (p.use_tma) store_as<FusedAct, true>(p, maps_of(p), s, tiled, tile_mn, thread, tile_m, tile_n, l, acc, slot);
    }
  }
  // TMA stores only, through `maps` (the grouped kernel: a group's maps; no direct loop in the
  // kernel). The plain instance's values: alpha acc (+ beta C where load_c).
  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store_through(Params const& p, Maps const& maps, SharedStorage& s, TiledMma const& tiled,
                                                       TileShape const& tile_mn, int thread, int64_t tile_m, int64_t tile_n, int64_t l,
                                                       Acc const& acc, int slot = 0, bool prefetched = false) {
    static_assert(FusedAct == Activation::Identity, "store_through: the plain instance (alpha acc + beta C)");
    store_as<Activation::Identity, false>(p, maps, s, tiled, tile_mn, thread, tile_m, tile_n, l, acc, slot, prefetched);
  }

  // TMA stores only, through `maps`, of act(alpha acc + bias) (the grouped kernel's fused
  // epilogue, Act its instance's; no C). The bias runs along the tile's M (the grouped kernel's
  // D_g^T: its rows are D_g's columns): `bias` is the group's vector of `extent` elements (null:
  // none), read into registers once per tile before the staging (PackedBias<true>: two rows per
  // M repeat of this thread, f32), not a pointer held across the mainloop.
  template <Activation Act, class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store_through_biased(Params const& p, Maps const& maps, SharedStorage& s, TiledMma const& tiled,
                                                              TileShape const& tile_mn, int thread, int64_t tile_m, int64_t tile_n,
                                                              Acc const& acc, const ElementD* bias, int64_t extent) {
    static_assert(Bits == 16, "store_through_biased: a 16-bit D (stmatrix staging)");
    const int wg = thread / GMMA::warpgroup_threads;
    const bool leader = thread % GMMA::warpgroup_threads == 0;
    const auto sD = Staging::tensor(reinterpret_cast<ElementD*>(&s.d[Staging::first(0)][0]));
    auto tCsD = tiled.get_slice(thread).partition_C(sD);
    const auto stsm = stsm_slice(tiled, thread);
    auto tDsD = stsm_partition(stsm, sD);
    constexpr int groups = int(size<0, 2>(tCsD));
    static_assert(int(size<1>(tCsD)) == AtomsM && groups * 4 * AtomsM == int(sizeof(Acc) / sizeof(float)),
                  "one accumulator per C fragment value");
    const uint32_t buffer = uint32_t(__cvta_generic_to_shared(&s.d[Staging::buffer(0, wg)][0]));
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    typename Direct::BiasView view;  // (this thread's row 0 of the tile and the elements left from there)
    if (bias != nullptr) {
      const int64_t row0 = tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(tiled.get_slice(thread).partition_C(make_identity_tensor(tile_mn))(0)));
      view.ptr = bias + row0;
      view.left = extent - row0;
    }
    const PackedBias<true> packed = PackedBias<true>::load(view, tCcD0);
    const Ctx<decltype(tCsD), decltype(tCcD0), Acc, decltype(stsm), decltype(tDsD), PackedBias<true>> ctx{
        tCsD, tCcD0, acc, packed, p.direct.alpha, 0.0f, true, false, stsm, tDsD};
    store_parts<Act, true, groups / Parts>(std::make_integer_sequence<int, AtomsM * Parts>{}, p, maps, s, ctx, Staging::buffer(0, wg), wg,
                                           leader, buffer, tile_m, tile_n, 0, false);
  }

  template <Activation Act, bool HasBias, class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store_as(Params const& p, Maps const& maps, SharedStorage& s, TiledMma const& tiled,
                                                  TileShape const& tile_mn,
                                                  int thread, int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc,
                                                  int slot = 0, bool prefetched = false) {
    const int wg = thread / GMMA::warpgroup_threads;
    const int first = Staging::first(slot);  // the slot's first buffer (and named barrier)
    const bool leader = thread % GMMA::warpgroup_threads == 0;
    const auto sD = Staging::tensor(reinterpret_cast<ElementD*>(&s.d[first][0]));
    auto tCsD = tiled.get_slice(thread).partition_C(sD);  // each value's place (an f32 D's stores, C's reads)
    const auto stsm = stsm_slice(tiled, thread);
    auto tDsD = stsm_partition(stsm, sD);  // each stmatrix's row (16-bit D)
    constexpr int groups = int(size<0, 2>(tCsD));  // the C fragment's values are (2, 2, BN/8)
    static_assert(int(size<1>(tCsD)) == AtomsM && groups * 4 * AtomsM == int(sizeof(Acc) / sizeof(float)),
                  "one accumulator per C fragment value");
    const uint32_t buffer = uint32_t(__cvta_generic_to_shared(&s.d[Staging::buffer(slot, wg)][0]));
    const float alpha = p.direct.alpha;
    // The bias: this thread's element at its value 0, the others at compile-time distances
    // (what they are to thread 0), loads predicated on the vector's length (TMA clips D's
    // residue, but the bias must not be read past its end).
    typename Direct::BiasView bias;
    if constexpr (HasBias) {
      const auto mine0 = tiled.get_slice(thread).partition_C(make_identity_tensor(tile_mn))(0);
      bias = Direct::bias_view(p.direct, tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(mine0)),
                               tile_n * int64_t(get<1>(tile_mn)) + int64_t(get<1>(mine0)));
    }
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    // Compile-time indices throughout: a register array indexed at run time is placed in
    // local memory, and these are the accumulators. Parts, groups and values are unrolled by
    // folds over __forceinline__ functions, not static_for's lambdas: with a GELU in the body
    // nvcc leaves those lambdas as calls that take the accumulators' address (a stack frame,
    // spills, and the wgmmas serialized: ptxas C7520).
    // (C: a run-time choice of the plain instance only; fused instances take beta == 0)
    const bool load_c = Act == Activation::Identity && !HasBias && p.load_c;
    const Ctx<decltype(tCsD), decltype(tCcD0), Acc, decltype(stsm), decltype(tDsD)> ctx{
        tCsD, tCcD0, acc, bias, alpha, p.direct.beta, p.direct.bias_along_m, load_c, stsm, tDsD};
    store_parts<Act, HasBias, groups / Parts>(std::make_integer_sequence<int, AtomsM * Parts>{}, p, maps, s, ctx, Staging::buffer(slot, wg), wg,
                                              leader, buffer, tile_m, tile_n, l, prefetched);
  }

  // The stmatrix copy's thread slice and its rows in the staging view (16-bit D; an f32 D
  // has none: 0).
  template <class TiledMma>
  __device__ __forceinline__ static auto stsm_slice(TiledMma const& tiled, int thread) {
    if constexpr (Bits == 16) return Staging::template stsm<ElementD>(tiled).get_slice(thread);
    else return 0;
  }
  template <class Stsm, class SD>
  __device__ __forceinline__ static auto stsm_partition(Stsm const& stsm, SD const& sD) {
    if constexpr (Bits == 16) return stsm.partition_D(sD);
    else return 0;
  }

  // What every value's store needs, by reference.
  // Bias: where each value's bias comes from (store_as: the vector itself, Direct::BiasView;
  // pack: the tile's bias in registers, PackedBias).
  template <class TCs, class TCc, class Acc, class Stsm, class TDs, class Bias = typename Direct::BiasView>
  struct Ctx {
    TCs& tCsD;
    TCc const& tCcD0;
    Acc const& acc;
    Bias const& bias;
    float alpha, beta;
    bool bias_along_m;
    bool load_c;  // x += beta C, C read from the staging buffer where D goes
    Stsm const& stsm;
    TDs& tDsD;
  };

  // One wgmma atom's accumulators per thread: 64 x BN over a warpgroup.
  static constexpr int AtomValues = 64 * BN / GMMA::warpgroup_threads;

  // Value (I, J, V)'s bias: from the vector at its distance (dm, dn) from the thread's value 0,
  // or from the tile's bias in registers (PackedBias), the same element either way.
  template <int I, int J, int V>
  __device__ __forceinline__ static float bias_of(typename Direct::BiasView const& b, bool along_m, int64_t dm, int64_t dn) {
    return b.at(along_m, dm, dn);
  }
  template <int I, int J, int V, class B>
  __device__ __forceinline__ static float bias_of(B const& b, bool, int64_t, int64_t) {
    return b.template at<I, J, V>();
  }

  // Value V of group J of M repeat I: accumulator 4 J + V + AtomValues I (the fragment
  // (V, AtomsM)), scaled, C and bias added, activated.
  template <Activation Act, bool HasBias, bool LoadC, int I, int J, int V, class Dj, class Cj, class X>
  __device__ __forceinline__ static float value(Dj const& dj, Cj const& cj, X const& ctx) {
    float x = ctx.alpha * ctx.acc[4 * J + V + AtomValues * I];
    if constexpr (LoadC) x += ctx.beta * arch::to_f32(ElementD(dj(C<V>{})));
    if constexpr (HasBias) {
      const auto mn = cj(C<V>{});
      x += bias_of<I, J, V>(ctx.bias, ctx.bias_along_m, int64_t(get<0>(mn)), int64_t(get<1>(mn)));
    }
    return epilogue::activate<Act>(x);
  }
  // Group J of M repeat I of the C fragment: values (2, 2) of columns 8J .. 8J+7. An f32 D:
  // stored value by value.
  template <Activation Act, bool HasBias, bool LoadC, int I, int J, class X>
  __device__ __forceinline__ static void store_group(X const& ctx) {
    const auto group = make_coord(make_coord(_, _, C<J>{}), C<I>{}, _0{});
    auto dj = ctx.tCsD(group);
    const auto cj = ctx.tCcD0(group);
    dj(_0{}) = arch::from_f32<ElementD>(value<Act, HasBias, LoadC, I, J, 0>(dj, cj, ctx));
    dj(_1{}) = arch::from_f32<ElementD>(value<Act, HasBias, LoadC, I, J, 1>(dj, cj, ctx));
    dj(_2{}) = arch::from_f32<ElementD>(value<Act, HasBias, LoadC, I, J, 2>(dj, cj, ctx));
    dj(_3{}) = arch::from_f32<ElementD>(value<Act, HasBias, LoadC, I, J, 3>(dj, cj, ctx));
  }
  template <Activation Act, bool HasBias, bool LoadC, int I, int J0, int... Js, class X>
  __device__ __forceinline__ static void store_groups(std::integer_sequence<int, Js...>, X const& ctx) {
    (store_group<Act, HasBias, LoadC, I, J0 + Js>(ctx), ...);
  }
  // A 16-bit D: group J's values into the fragment, the pairs (V, V+1) -- one 32-bit
  // register of the stmatrix -- converted by one instruction.
  template <Activation Act, bool HasBias, bool LoadC, int I, int J, class X, class Frag>
  __device__ __forceinline__ static void convert_group(X const& ctx, Frag& frag) {
    const auto group = make_coord(make_coord(_, _, C<J>{}), C<I>{}, _0{});
    const auto dj = ctx.tCsD(group);
    const auto cj = ctx.tCcD0(group);
    constexpr int at = 4 * J + AtomValues * I;
    arch::from_f32x2(value<Act, HasBias, LoadC, I, J, 0>(dj, cj, ctx), value<Act, HasBias, LoadC, I, J, 1>(dj, cj, ctx), frag(C<at>{}),
                     frag(C<at + 1>{}));
    arch::from_f32x2(value<Act, HasBias, LoadC, I, J, 2>(dj, cj, ctx), value<Act, HasBias, LoadC, I, J, 3>(dj, cj, ctx), frag(C<at + 2>{}),
                     frag(C<at + 3>{}));
  }
  template <Activation Act, bool HasBias, bool LoadC, int I, int J0, int... Js, class X, class Frag>
  __device__ __forceinline__ static void convert_groups(std::integer_sequence<int, Js...>, X const& ctx, Frag& frag) {
    (convert_group<Act, HasBias, LoadC, I, J0 + Js>(ctx, frag), ...);
  }
  template <int I, int K0, int... Ks, class Src, class Dst>
  __device__ __forceinline__ static void stsm_instructions(std::integer_sequence<int, Ks...>, Src const& src, Dst& dst) {
    (copy(Copy_Atom<typename Staging::StsmOp, ElementD>{}, src(make_coord(_, C<K0 + Ks>{}), C<I>{}, _0{}),
          dst(make_coord(_, C<K0 + Ks>{}), C<I>{}, _0{})),
     ...);
  }
  // Part H's values into its staging buffer: G groups of M repeat H / Parts from column
  // group (H % Parts) G. A 16-bit D through stmatrix (its instructions (H % Parts) K ..
  // (H % Parts) K + K - 1 of the repeat: EpilogueStaging), an f32 D value by value.
  template <Activation Act, bool HasBias, bool LoadC, int G, int H, class X>
  __device__ __forceinline__ static void stage_part(X const& ctx) {
    constexpr int I = H / Parts;
    if constexpr (Bits == 16) {
      ElementD staged[AtomsM * AtomValues];  // (only this part's values are written and read)
      auto frag = make_tensor(&staged[0], make_layout(shape(ctx.tCsD)));
      convert_groups<Act, HasBias, LoadC, I, (H % Parts) * G>(std::make_integer_sequence<int, G>{}, ctx, frag);
      const auto src = ctx.stsm.retile_S(frag);
      static_assert(Staging::instructions_in_value_order(decltype(src.layout()){}), "stmatrix instruction k holds values 8k .. 8k+7");
      constexpr int K = Staging::instructions_per_part;
      stsm_instructions<I, (H % Parts) * K>(std::make_integer_sequence<int, K>{}, src, ctx.tDsD);
    } else {
      store_groups<Act, HasBias, LoadC, I, (H % Parts) * G>(std::make_integer_sequence<int, G>{}, ctx);
    }
  }
  // Part H: columns Cols*(H % Parts) .. of the warpgroup's rows in M repeat H / Parts, staged,
  // then one TMA store. (bar: the buffer's index, its named barrier's too; wg: the warpgroup's
  // 64 rows in each repeat)
  template <Activation Act, bool HasBias, int G, int H, class X>
  __device__ __forceinline__ static void store_part(Params const& p, Maps const& maps, SharedStorage& s, X const& ctx, int bar, int wg,
                                                    bool leader, uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l, bool prefetched) {
    if (leader) {
      tma_store_wait<0>();  // the previous store has read the buffer
      if (ctx.load_c && (H > 0 || !prefetched)) load_c_part(p, maps, s, bar, wg, H, tile_m, tile_n, l);
    }
    staging_barrier(bar);
    if (ctx.load_c) {
      const uint32_t phase = s.c_phase[bar];
      while (!s.c_full[bar].try_wait(phase)) {}  // this part's C has landed
    }
    if constexpr (Act == Activation::Identity && !HasBias) {  // (C: the plain instance only)
      if (ctx.load_c) stage_part<Act, HasBias, true, G, H>(ctx);
      else stage_part<Act, HasBias, false, G, H>(ctx);
    } else {
      stage_part<Act, HasBias, false, G, H>(ctx);
    }
    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)
    staging_barrier(bar);
    if (leader) {
      if (ctx.load_c) s.c_phase[bar] ^= 1u;  // every thread has waited on this phase
      copy(p.tma_d.with(maps.d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));
      tma_store_commit();
    }
  }
  template <Activation Act, bool HasBias, int G, int... Hs, class X>
  __device__ __forceinline__ static void store_parts(std::integer_sequence<int, Hs...>, Params const& p, Maps const& maps, SharedStorage& s,
                                                     X const& ctx, int bar, int wg, bool leader, uint32_t buffer, int64_t tile_m,
                                                     int64_t tile_n, int64_t l, bool prefetched) {
    (store_part<Act, HasBias, G, Hs>(p, maps, s, ctx, bar, wg, leader, buffer, tile_m, tile_n, l, prefetched), ...);
  }

  // ---- the epilogue in two steps, around the next tile's first k-tiles (the cooperative
  // kernel's EpilogueUnderNextTile schedule): pack() turns the accumulators into D's 16-bit
  // values, converted in pairs into 32-bit registers (the stmatrix fragment of the whole
  // tile: 64 registers for a 64x256 warpgroup tile), after which the accumulators are free
  // for the next tile's wgmmas; store_packed() then stages those registers part by part and
  // TMA-stores them while the wgmmas run. The same values (store()'s: alpha acc on the plain
  // instance, act(alpha acc + bias) on a fused one, the same f32 arithmetic and conversions)
  // through the same stmatrix copy to the same staging offsets as store(): only the order
  // against the next tile's wgmmas differs. The f32 math, the bias's loads included, runs in
  // pack(): only the 16-bit values live across the head. Problems with C (beta != 0: C would
  // have to come into the staging buffer before pack, both parts at once), an f32 D, or a D
  // that TMA cannot store keep store() (packs(): the plain instance's kernel runs them after the
  // tile, a fused instance refuses them), and so do FP8's rowwise scales (a scale per row and
  // column loaded beside the accumulators before the pack: 520 bytes of spill stores in the
  // packing entry, nvcc 13.0; after the tile they fit).
  static constexpr bool Packable = Bits == 16;
  // A fused instance takes only what it packs (can_implement: its activation, beta == 0, D
  // through TMA); the plain one also takes what it does not (the kernel runs those after the
  // tile).
  static constexpr bool PacksAll = Packable && FusedAct != Activation::Identity;
  struct Packed {
    ElementD v[AtomsM * AtomValues];  // the C fragment's values in its order (value i: accumulator i)
  };
  // What pack/store_packed take: TMA stores D, no C; the plain instance no bias and no
  // activation (those are a fused instance's), a fused instance its own activation.
  static bool packs(GemmProblemShape const& problem, Arguments const& a) {
    const Sm90EpilogueOperands ops = operands(problem, a);
    const bool menu = FusedAct == Activation::Identity ? a.activation == Activation::Identity && a.bias == Bias::None
                                                       : a.activation == FusedAct;
    return Packable && ops.status && !ops.load_c && menu && !a.scale_vectors;
  }
  static const char* packs_refusal() {
    return FusedAct == Activation::Identity
               ? "the sm90 kernel with the epilogue under the next tile stores 16-bit D through TMA with beta == 0, no bias, "
                 "no activation (a fused instance takes bias and its activation)"
               : "the fused sm90 kernel with the epilogue under the next tile stores 16-bit D through TMA with beta == 0 and "
                 "its own activation";
  }
  // (the launch's: the plain instance's bias or activation goes to its direct stores, which
  // the kernel then runs after the tile)
  __host__ __device__ static bool packs(Params const& p) {
    if constexpr (FusedAct == Activation::Identity) return p.use_tma && !p.load_c && !p.direct.fused() && !p.direct.scale_vectors;
    else return p.use_tma && !p.load_c && !p.direct.scale_vectors;
  }
  // tile_m, tile_n, l: the tile as store() takes it (the bias's origin).
  template <class TiledMma, class Acc>
  __device__ __forceinline__ static void pack(Params const& p, TiledMma const& tiled, int thread, int64_t tile_m, int64_t tile_n,
                                              int64_t /*l*/, Acc const& acc, Packed& out) {
    static_assert(Packable, "pack: a 16-bit D");
    constexpr bool HasBias = FusedAct != Activation::Identity;  // (store(): store_as<FusedAct, true> on a fused instance)
    // (the conversions read no places: the C partition of the tile's coordinates stands for the
    // staging view's; frag(i) is offset i in any compact shape)
    constexpr auto tile = make_shape(C<AtomsM * 64 * ConsumerWarpgroups>{}, C<BN>{});
    auto tCsD = tiled.get_slice(thread).partition_C(make_identity_tensor(tile));
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile));
    constexpr int groups = int(size<0, 2>(tCsD));
    static_assert(int(size<1>(tCsD)) == AtomsM && groups * 4 * AtomsM == int(sizeof(Acc) / sizeof(float)) &&
                      sizeof(Packed) == sizeof(Acc) / 2, "one packed value per accumulator");
    auto frag = Staging::fragment(&out.v[0], tiled);
    static_assert(decltype(size(frag))::value == AtomsM * AtomValues, "the fragment holds every value");
    // The bias as store_as reads it (this thread's element at its value 0, the others at
    // compile-time distances), its direction a constant in each of two copies of the
    // conversions (along M, along N): a value's bias is then one predicated load at a constant
    // offset from one pointer. With the direction chosen per value at run time (store_as's,
    // whose parts barriers bound) ptxas reported 40 (SiLU) and 52 (GELU-tanh) bytes of spill
    // stores; with the two copies 24 each (nvcc 13.0, sm_90a).
    // The tile's bias is loaded into registers first (PackedBias: the elements this thread's
    // values share, once each, a column pair per 32-bit load where the vector allows), then
    // the conversions read it there: per value a register, not a predicated 16-bit load of its
    // own with a 64-bit bound compare (128 per thread and tile along either direction, all on
    // the critical path between the tile's last wgmma and the next tile's first: 256 LDG per
    // kernel -> 98, 472 fewer instructions; nvcc 13.0, sm_90a).
    if constexpr (HasBias) {
      const auto mine0 = tCsD(0);
      const auto bias = Direct::bias_view(p.direct, tile_m * int64_t(get<0>(tile)) + int64_t(get<0>(mine0)),
                                          tile_n * int64_t(get<1>(tile)) + int64_t(get<1>(mine0)));
      if (p.direct.bias_along_m) pack_as<HasBias, true, groups / Parts>(p, tCsD, tCcD0, acc, PackedBias<true>::load(bias, tCcD0), frag);
      else pack_as<HasBias, false, groups / Parts>(p, tCsD, tCcD0, acc, PackedBias<false>::load(bias, tCcD0), frag);
    } else {
      pack_as<HasBias, false, groups / Parts>(p, tCsD, tCcD0, acc, typename Direct::BiasView{}, frag);
    }
  }
  // The bias of a thread's values in registers. The wgmma C fragment's group J of repeat I
  // holds values (2, 2): V = 0, 1 two adjacent columns of one row, V = 2, 3 the same columns
  // 8 rows down; a group's columns do not depend on I, a repeat's rows not on J
  // (hopper_sm90_partition_test checks this of the fragment). Along N a thread's bias is
  // then one column pair per group (32 bits: low half the column of V = 0), along M two rows
  // per repeat (f32). Elements past the vector's end, or of an absent bias, read 0, as
  // BiasView::at.
  template <bool AlongM, class = void>  // (the unused parameter: partial, not explicit,
  struct PackedBias;                     // specializations in class scope, which g++ accepts)
  template <class V_>
  struct PackedBias<false, V_> {
    static constexpr int Groups = AtomValues / 4;
    uint32_t w[Groups];
    template <int I, int J, int V>
    __device__ __forceinline__ float at() const {
      const uint32_t word = w[J];
      return arch::to_f32(ElementD::from_bits(uint16_t((V & 1) != 0 ? word >> 16 : word & 0xffffu)));
    }
    template <class TCc>
    __device__ __forceinline__ static PackedBias load(typename Direct::BiasView const& b, TCc const& tCcD0) {
      PackedBias r;
      // One 32-bit load per pair where the pointer is 4-byte aligned (a column pair starts at an
      // even distance from the thread's even first column) and every pair lies inside the
      // vector; element by element, predicated, otherwise.
      const int64_t last = pair_column<Groups - 1, 1>(tCcD0);
      const bool whole = b.ptr != nullptr && (reinterpret_cast<uintptr_t>(b.ptr) & 3u) == 0 && last < b.left;
      if (whole) load_pairs(std::make_integer_sequence<int, Groups>{}, b, tCcD0, r);
      else load_elements(std::make_integer_sequence<int, Groups>{}, b, tCcD0, r);
      return r;
    }
    template <int J, int V, class TCc>
    __device__ __forceinline__ static int64_t pair_column(TCc const& tCcD0) {
      return int64_t(get<1>(tCcD0(make_coord(make_coord(_, _, C<J>{}), _0{}, _0{}))(C<V>{})));
    }
    __device__ __forceinline__ static uint32_t element_bits(typename Direct::BiasView const& b, int64_t i) {
      return b.ptr != nullptr && i < b.left ? uint32_t(b.ptr[i].bits) : 0u;
    }
    template <int... Js, class TCc>
    __device__ __forceinline__ static void load_pairs(std::integer_sequence<int, Js...>, typename Direct::BiasView const& b,
                                                      TCc const& tCcD0, PackedBias& r) {
      ((r.w[Js] = __ldg(reinterpret_cast<const unsigned int*>(b.ptr + pair_column<Js, 0>(tCcD0)))), ...);
    }
    template <int... Js, class TCc>
    __device__ __forceinline__ static void load_elements(std::integer_sequence<int, Js...>, typename Direct::BiasView const& b,
                                                         TCc const& tCcD0, PackedBias& r) {
      ((r.w[Js] = element_bits(b, pair_column<Js, 0>(tCcD0)) | element_bits(b, pair_column<Js, 1>(tCcD0)) << 16), ...);
    }
  };
  template <class V_>
  struct PackedBias<true, V_> {
    float r[AtomsM][2];
    template <int I, int J, int V>
    __device__ __forceinline__ float at() const {
      return r[I][V / 2];
    }
    template <class TCc>
    __device__ __forceinline__ static PackedBias load(typename Direct::BiasView const& b, TCc const& tCcD0) {
      PackedBias p;
      load_rows(std::make_integer_sequence<int, AtomsM>{}, b, tCcD0, p);
      return p;
    }
    template <int... Is, class TCc>
    __device__ __forceinline__ static void load_rows(std::integer_sequence<int, Is...>, typename Direct::BiasView const& b,
                                                     TCc const& tCcD0, PackedBias& p) {
      ((p.r[Is][0] = b.at(true, int64_t(get<0>(tCcD0(make_coord(make_coord(_, _, _0{}), C<Is>{}, _0{}))(_0{}))), 0)), ...);
      ((p.r[Is][1] = b.at(true, int64_t(get<0>(tCcD0(make_coord(make_coord(_, _, _0{}), C<Is>{}, _0{}))(C<2>{}))), 0)), ...);
    }
  };
  template <bool HasBias, bool AlongM, int G, class TCs, class TCc, class Acc, class B, class Frag>
  __device__ __forceinline__ static void pack_as(Params const& p, TCs& tCsD, TCc const& tCcD0, Acc const& acc, B const& bias, Frag& frag) {
    const int stsm = 0;  // (no stmatrix in the conversions)
    int tDsD = 0;
    const Ctx<TCs, TCc, Acc, int, int, B> ctx{tCsD, tCcD0, acc, bias, p.direct.alpha, 0.0f, AlongM, false, stsm, tDsD};
    pack_parts<FusedAct, HasBias, G>(std::make_integer_sequence<int, AtomsM * Parts>{}, ctx, frag);
  }
  // Part by part, in store()'s order of parts.
  template <Activation Act, bool HasBias, int G, int... Hs, class X, class Frag>
  __device__ __forceinline__ static void pack_parts(std::integer_sequence<int, Hs...>, X const& ctx, Frag& frag) {
    ((convert_groups<Act, HasBias, false, Hs / Parts, (Hs % Parts) * G>(std::make_integer_sequence<int, G>{}, ctx, frag)), ...);
  }
  // The packed tile staged and stored, part by part (store_part without C): the leader waits
  // for the buffer's previous store to have read it, the warpgroup stages, fences and meets,
  // the leader issues the store.
  template <class TiledMma>
  __device__ __forceinline__ static void store_packed(Params const& p, SharedStorage& s, TiledMma const& tiled, int thread, int64_t tile_m,
                                                      int64_t tile_n, int64_t l, Packed const& packed) {
    static_assert(Packable, "store_packed: a 16-bit D on the plain instance");
    const int wg = thread / GMMA::warpgroup_threads;
    const bool leader = thread % GMMA::warpgroup_threads == 0;
    const auto sD = Staging::tensor(reinterpret_cast<ElementD*>(&s.d[Staging::first(0)][0]));
    const auto stsm = stsm_slice(tiled, thread);
    auto tDsD = stsm_partition(stsm, sD);
    const auto frag = Staging::fragment(&packed.v[0], tiled);
    const auto src = stsm.retile_S(frag);
    static_assert(Staging::instructions_in_value_order(decltype(src.layout()){}), "stmatrix instruction k holds values 8k .. 8k+7");
    const uint32_t buffer = uint32_t(__cvta_generic_to_shared(&s.d[Staging::buffer(0, wg)][0]));
    store_packed_parts(std::make_integer_sequence<int, AtomsM * Parts>{}, p, src, tDsD, Staging::buffer(0, wg), wg, leader, buffer,
                       tile_m, tile_n, l);
  }
  template <int... Hs, class Src, class Dst>
  __device__ __forceinline__ static void store_packed_parts(std::integer_sequence<int, Hs...>, Params const& p, Src const& src, Dst& dst,
                                                            int bar, int wg, bool leader, uint32_t buffer, int64_t tile_m,
                                                            int64_t tile_n, int64_t l) {
    (store_packed_part<Hs>(p, src, dst, bar, wg, leader, buffer, tile_m, tile_n, l), ...);
  }
  template <int H, class Src, class Dst>
  __device__ __forceinline__ static void store_packed_part(Params const& p, Src const& src, Dst& dst, int bar, int wg, bool leader,
                                                           uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l) {
    constexpr int K = Staging::instructions_per_part;
    if (leader) tma_store_wait<0>();  // the previous store has read the buffer
    staging_barrier(bar);
    stsm_instructions<H / Parts, (H % Parts) * K>(std::make_integer_sequence<int, K>{}, src, dst);
    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)
    staging_barrier(bar);
    if (leader) {
      copy(p.tma_d.with(maps_of(p).d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));
      tma_store_commit();
    }
  }

  // Before the CTA leaves: the last stores have read shared memory.
  template <bool Vectors = true, class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void scale(Params const& p, TiledMma const& tiled, TileShape const& tile_mn, int thread,
                                               int64_t tile_m, int64_t tile_n, Acc& acc) {
    Direct::template scale<Vectors>(p.direct, tiled, tile_mn, thread, tile_m, tile_n, acc);
  }

  __device__ __forceinline__ static void finish(Params const& p, int thread) {
    if (p.use_tma && thread % GMMA::warpgroup_threads == 0) tma_store_wait<0>();
  }
};

}  // namespace tessera::kernels::sm90
