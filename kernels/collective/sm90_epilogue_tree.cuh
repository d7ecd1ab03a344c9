// Collective epilogue, SM90, that evaluates an epilogue tree (tessera/kernels/epilogue_tree.hpp)
// per accumulator: D(m, n) = the tree at (m, n, l) over acc(m, n), rounded to ElementD, stored
// straight from the registers to global memory (the direct epilogue's stores, predicated on the
// problem's extent: a residue tile's elements past M or N are neither visited nor stored, so
// the tree's leaves read and its sinks write only inside the problem). Which (m, n) each
// accumulator holds is the TiledMma's C partition of the tile over the identity tensor, as in
// the direct epilogue: thread 0's coordinates are compile-time constants, this thread's value 0
// is added once, so an element's coordinate is one add per mode.
// The tree replaces the fixed menu. Fields (sm90_epilogue_tree_fields.hpp) says where the tree's
// arguments come from: TreeFromCaller (the default) refuses the Arguments' alpha, beta, bias,
// activation and FP8 scales (they are nodes of a tree: Scalar, SourceC, Row/ColumnBroadcast,
// Compute) and leaves the tree's arguments to the caller; a prebuilt tree's policy
// (QuantizedOutputFields) fills them from those fields, so tessera::gemm runs it. D is
// row- or column-major (C's major in the Arguments, as the direct epilogue); the problem is the
// kernel's (M, N): a tree's RowBroadcast runs along the kernel's N, so a caller that swaps a
// row-major D into a column-major one (as_column_major_d) swaps its tree's rows and columns too.
// One instance per tree (a kernel type per tree): kernel types with the fixed menu are unchanged.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include <tessera/kernels/epilogue_tree.hpp>
#include <tessera/kernels/epilogue_tree/fragment.hpp>
#include <tessera/tensor.hpp>
#include <tessera/tiled_mma.hpp>

#include "../arch/sm90_convert.cuh"
#include "../kernel/sm90_shared_storage.hpp"
#include "sm90_contract.hpp"
#include "sm90_epilogue_operands.hpp"
#include "sm90_epilogue_tree_fields.hpp"

namespace tessera::kernels::sm90 {

// An extent from an element of a tile (M - m0, N - n0) as an int, for the 32-bit residue test
// of the tile's other elements, at offsets below the tile's extent (less than INT_MAX): every
// extent past INT_MAX tests as INT_MAX does, every negative one as -1.
__device__ __forceinline__ int extent_as_int(int64_t e) { return e < 0 ? -1 : e > int64_t(INT_MAX) ? INT_MAX : int(e); }

template <class ElementD_, class Tree_, class Fields_>  // (Fields' default: sm90_epilogue_tree_fields.hpp)
struct CollectiveEpilogueSm90Tree {
  using ElementD = ElementD_;
  using Tree = Tree_;
  using Fields = Fields_;
  static constexpr Activation FusedAct = Activation::Identity;  // (not a fused-menu instance)
  using SharedStorage = EpilogueNoSharedStorage;

  // D (and its major: c.major) as every SM90 epilogue takes it, and the tree's arguments.
  struct Arguments : Sm90EpilogueArguments {
    typename Tree::Arguments tree;
  };
  struct Params {
    ElementD* d = nullptr;
    int64_t d_stride_m = 0, d_stride_n = 0, d_batch_stride = 0;
    int64_t m = 0, n = 0;
    typename Tree::Params tree;
    float* reset = nullptr;  // set to 0 before each launch (Fields::reset: a prebuilt tree's amax)
  };

  static tree::TreeShape tree_shape(GemmProblemShape const& problem) {
    return {problem_m(problem), problem_n(problem), problem_l(problem)};
  }

  // ---- contract (host)
  // From tessera's GemmArguments: D and its major, and the tree's arguments from the GEMM's
  // fields where Fields builds them (TreeFromCaller: the caller's to set).
  static Arguments arguments_of(GemmArguments const& g) {
    Arguments a;
    static_cast<Sm90EpilogueArguments&>(a) = sm90_epilogue_arguments(g);
    a.tree = Fields::template arguments<Tree>(a);
    return a;
  }
  static GemmResult can_implement(GemmProblemShape const& problem, Arguments const& a) {
    if (a.output != element_enum_of<ElementD>())
      return {GemmStatus::Unsupported, std::string("this sm90 tree epilogue writes D in ") + to_string(element_enum_of<ElementD>())};
    if (auto r = Fields::check(a); !r) return r;
    return tree::can_implement<Tree>(tree_shape(problem), a.tree);
  }
  static std::size_t get_workspace_size(GemmProblemShape const& problem, Arguments const& a) {
    return Tree::workspace_size(tree_shape(problem), a.tree);
  }
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* workspace, GemmResult& /*status*/) {
    Params p;
    const bool d_row = a.c.major == Major::Row;
    p.d = static_cast<ElementD*>(a.d);
    p.d_stride_m = d_row ? a.ldd : 1;
    p.d_stride_n = d_row ? 1 : a.ldd;
    p.d_batch_stride = a.batch_stride_d;
    p.m = problem_m(problem);
    p.n = problem_n(problem);
    p.tree = Tree::to_underlying_arguments(tree_shape(problem), a.tree, workspace);
    p.reset = Fields::reset(a);
    return p;
  }
  // Before each launch, in its stream: the float Fields names set to 0 (a prebuilt tree's
  // reduction that each call writes afresh, as cuBLASLt's AMAX_D_POINTER).
  static GemmResult initialize(Params const& p, cudaStream_t stream) {
    if (p.reset == nullptr) return {};
    if (cudaMemsetAsync(p.reset, 0, sizeof(float), stream) != cudaSuccess)
      return {GemmStatus::LaunchFailed, std::string("sm90 tree epilogue: resetting its reduction: ") + cudaGetErrorString(cudaGetLastError())};
    return {};
  }

  // ---- the epilogue interface's defaults (no shared memory, no C loads ahead, no FP8 pass)
  __device__ __forceinline__ static void init(SharedStorage&) {}
  __device__ __forceinline__ static void prefetch_c(Params const&, SharedStorage&, int, int64_t, int64_t, int64_t, int = 0) {}
  template <bool Vectors = true, class... Tile>
  __device__ __forceinline__ static void scale(Params const&, Tile const&...) {}
  __device__ __forceinline__ static void finish(Params const&, int) {}

  // thread: the consumer thread's index in the TiledMma; acc: its accumulators in the order of
  // the C fragment (value i is register i).
  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, SharedStorage&, TiledMma const& tiled, TileShape const& tile_mn,
                                               int thread, int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc, int /*slot*/ = 0,
                                               bool /*prefetched*/ = false) {
    const auto thr = tiled.get_slice(thread);
    const auto gD = make_tensor(p.d + l * p.d_batch_stride, make_layout(make_shape(p.m, p.n), make_stride(p.d_stride_m, p.d_stride_n)));
    auto tCgD = thr.partition_C(local_tile(gD, tile_mn, make_coord(tile_m, tile_n)));  // (V, MMA_M, MMA_N) -> D element
    static_assert(decltype(size(tCgD))::value == sizeof(Acc) / sizeof(float), "one accumulator per C fragment value");
    // The wgmma C fragment's values are (2, 2, N/8) per M repeat: value (a, b, j) of repeat r is
    // register a + 2b + 4j + values r.
    constexpr int repeats = int(size<1>(tCgD)), values = int(size<0>(tCgD));
    constexpr int groups = int(size<0, 2>(tCgD));
    static_assert(groups * 4 * repeats == int(size(tCgD)) && int(size<2>(tCgD)) == 1, "the C fragment's values are (2, 2, N/8)");
    // Coordinates: thread 0's (compile-time) plus this thread's value 0 (hopper_sm90_partition_test
    // checks that the wgmma C layout's thread and value parts never carry into each other).
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    const auto mine0 = thr.partition_C(make_identity_tensor(tile_mn))(0);
    const int64_t m0 = tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(mine0));
    const int64_t n0 = tile_n * int64_t(get<1>(tile_mn)) + int64_t(get<1>(mine0));
    // The extents from value 0 as ints: a value's residue test is two 32-bit compares of
    // compile-time offsets, the same on whole tiles (every offset below them).
    const int rows_in = extent_as_int(p.m - m0), cols_in = extent_as_int(p.n - n0);
    // The thread's rows and columns of the tile: the tree loads what they share once (broadcasts,
    // scalars in memory) and keeps its reductions' partials per row or column (State).
    using Fragment = tree::WgmmaFragment<TiledMma, TileShape>;
    static_assert(Fragment::repeats == repeats && Fragment::groups == groups, "the tree's frame is this C fragment's");
    const auto frame = tree::wgmma_frame(tiled, tile_mn, thread, tile_m, tile_n, l, tree::TreeShape{p.m, p.n, 0});  // (L: unused by a frame)
    typename Tree::template State<Fragment::rows, Fragment::cols> state{};
    Tree::begin_tile(p.tree, state, frame);
#pragma unroll
    for (int r = 0; r < repeats; ++r)
#pragma unroll
      for (int j = 0; j < groups; ++j) {
        const auto group = make_coord(make_coord(_, _, j), r, _0{});
        auto d = tCgD(group);
        // (the pointer laundered per group: computed where it is used, not hoisted for all
        // groups above the stores, which spilled in the direct epilogue)
        ElementD* dp = d.data();
        asm volatile("" : "+l"(dp));
        auto dj = make_tensor(dp, d.layout());
        const auto cj = tCcD0(group);
#pragma unroll
        for (int v = 0; v < 4; ++v) {
          const auto mn = cj(v);  // relative to thread 0's value 0: constants
          const int dm = int(get<0>(mn)), dn = int(get<1>(mn));
          if (dm < rows_in && dn < cols_in) {
            // value (a, b) = (v % 2, v / 2) of group j
            const tree::TreeCoord at{m0 + dm, n0 + dn, l, Fragment::row_slot(v / 2, r), Fragment::col_slot(v % 2, j), int(dm), int(dn)};
            dj(v) = arch::from_f32<ElementD>(Tree::visit(p.tree, state, at, acc[4 * j + v + values * r]));
          }
        }
      }
    Tree::end_tile(p.tree, state, frame);  // (every thread: a warp's partials meet by shuffles)
  }
};

}  // namespace tessera::kernels::sm90
