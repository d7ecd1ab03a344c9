// Collective epilogue, SM90: D = act(alpha * acc + beta * C + bias) from the consumer
// warpgroups' wgmma accumulators straight to global memory, f32 -> the output element type
// (ElementD, also C's and the bias's), stores predicated on the problem's extent (residue
// tiles). The activation is chosen at run time once per tile: the store loop is instantiated
// per activation (epilogue_ops.hpp), so no value tests it, and the plain epilogue (no bias,
// no activation) is a loop of its own that carries none of the fused code. Which (m, n) each accumulator holds is
// the TiledMma's C partition of the tile (partition_C over the output and over the identity
// tensor): no index arithmetic here beyond what the algebra returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <tessera/kernels/epilogue_ops.hpp>
#include <tessera/tensor.hpp>

#include "../arch/sm90_convert.cuh"
#include "../kernel/sm90_shared_storage.hpp"
#include "sm90_contract.hpp"
#include "sm90_epilogue_operands.hpp"
#include <tessera/tiled_mma.hpp>

namespace tessera::kernels::sm90 {

// The interface every SM90 epilogue provides (the kernels call each member unconditionally;
// an epilogue without the feature keeps the default shown here):
//   ElementD, FusedAct (Identity: not a fused instance), SharedStorage, Arguments, Params
//   arguments_of / can_implement / get_workspace_size / to_underlying_arguments (sm90_contract.hpp)
//   initialize(p, stream)                      host, before each launch in its stream (no-op;
//                                              the quantized-output tree: its amax set to 0)
//   init(SharedStorage&)                       one thread, before the barriers' fence (no-op)
//   prefetch_c(p, s, thread, m, n, l, slot)    before a tile's mainloop: start C's loads (no-op)
//   store(p, s, tiled, tile_mn, thread, m, n, l, acc, slot, prefetched)   the tile's D
//   finish(p, thread)                          before the CTA leaves (no-op)
//   scale(p, tiled, tile_mn, thread, m, n, acc)  FP8 kernels, before store: acc *= the
//                                              per-tensor or rowwise scales (the direct
//                                              epilogue's, shared)
template <class ElementD_>
struct CollectiveEpilogueSm90Direct {
  using ElementD = ElementD_;
  static constexpr Activation FusedAct = Activation::Identity;  // (no fused instance: any activation at run time)
  using SharedStorage = EpilogueNoSharedStorage;
  struct Params {
    ElementD* d = nullptr;
    const ElementD* c = nullptr;  // null: beta is not applied (C is not read)
    int64_t d_stride_m = 0, d_stride_n = 0, d_batch_stride = 0;
    int64_t c_stride_m = 0, c_stride_n = 0, c_batch_stride = 0;
    int64_t m = 0, n = 0;
    float alpha = 1.0f, beta = 0.0f;
    // FP8's per-tensor scales (null: 1), read when a tile's epilogue starts (they are device
    // data, as cuBLASLt's A/B_SCALE_POINTER: a quantization step may write them just before).
    const float* scale_a = nullptr;
    const float* scale_b = nullptr;
    bool scale_vectors = false;  // rowwise: scale_a[m] (length m), scale_b[n] (length n) of this D
    const ElementD* bias = nullptr;  // null: no bias; one vector for every batch
    bool bias_along_m = false;       // bias[m] (length m) or bias[n] (length n) of this D
    Activation activation = Activation::Identity;
    __host__ __device__ __forceinline__ bool fused() const { return bias != nullptr || activation != Activation::Identity; }
  };

  // ---- contract (host)
  using Arguments = Sm90EpilogueArguments;
  static Arguments arguments_of(GemmArguments const& g) { return sm90_epilogue_arguments(g); }
  static GemmResult can_implement(GemmProblemShape const&, Arguments const& a) {
    if (a.output != element_enum_of<ElementD>())
      return {GemmStatus::Unsupported, std::string("this sm90 kernel writes D in ") + to_string(element_enum_of<ElementD>())};
    return {};
  }
  static std::size_t get_workspace_size(GemmProblemShape const&, Arguments const&) { return 0; }
  // D and C through their strides (C and D share a major), the scalars, the bias and activation.
  static Params to_underlying_arguments(GemmProblemShape const& problem, Arguments const& a, void* /*workspace*/, GemmResult& /*status*/) {
    Params ep;
    const bool d_row = a.c.major == Major::Row;
    ep.d = static_cast<ElementD*>(a.d);
    ep.d_stride_m = d_row ? a.ldd : 1;
    ep.d_stride_n = d_row ? 1 : a.ldd;
    ep.d_batch_stride = a.batch_stride_d;
    ep.c = a.beta != 0.0f ? static_cast<const ElementD*>(a.c.ptr) : nullptr;
    ep.c_stride_m = d_row ? a.c.ld : 1;
    ep.c_stride_n = d_row ? 1 : a.c.ld;
    ep.c_batch_stride = a.c.batch_stride;
    ep.m = problem_m(problem);
    ep.n = problem_n(problem);
    ep.alpha = a.alpha;
    ep.beta = a.beta;
    ep.scale_a = a.scale_a;
    ep.scale_b = a.scale_b;
    ep.scale_vectors = a.scale_vectors;
    ep.bias = a.bias != Bias::None ? static_cast<const ElementD*>(a.bias_ptr) : nullptr;
    ep.bias_along_m = a.bias == Bias::PerRow;
    ep.activation = a.activation;
    return ep;
  }
  static GemmResult initialize(Params const&, cudaStream_t) { return {}; }

  // acc *= the FP8 scales (the FP8 kernels call it between the mainloop and store: a pass over
  // the accumulators, where alpha stays a kernel parameter in the store loop; a factor loaded
  // into alpha there held a register through the stores and spilled). Per-tensor: two cached
  // loads per tile. Rowwise: scale_a[m] scale_b[n] per accumulator, (m, n) from the TiledMma's C
  // partition of the tile (as store's). Nothing without scales. Vectors = false: the per-tensor
  // pass alone (the Stream-K kernels, whose fix-up leaves no registers for the rowwise loads:
  // ptxas spilled 600 bytes there; they refuse rowwise scales).
  template <bool Vectors = true, class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void scale(Params const& p, TiledMma const& tiled, TileShape const& tile_mn, int thread,
                                               int64_t tile_m, int64_t tile_n, Acc& acc) {
    if (p.scale_a == nullptr && p.scale_b == nullptr) return;
    if constexpr (Vectors)
      if (p.scale_vectors) return scale_rowwise(p, tiled, tile_mn, thread, tile_m, tile_n, acc);
    const float s = (p.scale_a != nullptr ? __ldg(p.scale_a) : 1.0f) * (p.scale_b != nullptr ? __ldg(p.scale_b) : 1.0f);
    constexpr int n = int(sizeof(Acc) / sizeof(float));
#pragma unroll
    for (int i = 0; i < n; ++i) acc[i] *= s;
  }

  // Rowwise scales: accumulator i of this thread holds the tile element tCc(i) of the C
  // partition over the tile's identity tensor, which is this thread's value 0 plus what value i
  // is to thread 0 (store's decomposition: the wgmma C layout's thread and value parts never
  // carry into each other), so each scale's address is a per-thread base plus a constant.
  // Elements past M or N take 0 (they are not stored; their scales are not read).
  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void scale_rowwise(Params const& p, TiledMma const& tiled, TileShape const& tile_mn, int thread,
                                                       int64_t tile_m, int64_t tile_n, Acc& acc) {
    const auto tCc = tiled.get_slice(thread).partition_C(make_identity_tensor(tile_mn));
    const auto tCc0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    constexpr int n = int(sizeof(Acc) / sizeof(float));
    static_assert(decltype(size(tCc0))::value == n, "one accumulator per C fragment value");
    const auto mine0 = tCc(0);
    const int64_t row0 = tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(mine0));
    const int64_t col0 = tile_n * int64_t(get<1>(tile_mn)) + int64_t(get<1>(mine0));
    const int64_t left_m = p.m - row0, left_n = p.n - col0;
    const float* sa = p.scale_a + row0;
    const float* sb = p.scale_b + col0;
#pragma unroll
    for (int i = 0; i < n; ++i) {
      const auto mn = tCc0(i);  // relative to thread 0's value 0: constants
      const int64_t dm = int64_t(get<0>(mn)), dn = int64_t(get<1>(mn));
      const float a = dm < left_m ? __ldg(sa + dm) : 0.0f;
      const float b = dn < left_n ? __ldg(sb + dn) : 0.0f;
      acc[i] *= a * b;
    }
  }

  // ---- the epilogue interface's defaults (no shared memory, no C loads ahead)
  __device__ __forceinline__ static void init(SharedStorage&) {}
  __device__ __forceinline__ static void prefetch_c(Params const&, SharedStorage&, int, int64_t, int64_t, int64_t, int = 0) {}

  // Op::template run<A, HasBias>(args...) for p.activation: the plain epilogue (identity, no
  // bias) or one loop per activation. A switch calling __forceinline__ functions, not a generic
  // lambda: nvcc kept the lambdas' bodies as calls that took the accumulators' address (656
  // bytes of stack, the wgmmas serialized: ptxas C7520).
  template <class Op, class... Args>
  __device__ __forceinline__ static void dispatch(Params const& p, Args&... args) {
    using A = Activation;
    if (!p.fused()) return Op::template run<A::Identity, false>(args...);
    switch (p.activation) {
      case A::ReLU: return Op::template run<A::ReLU, true>(args...);
      case A::GELU: return Op::template run<A::GELU, true>(args...);
      case A::GELUTanh: return Op::template run<A::GELUTanh, true>(args...);
      case A::SiLU: return Op::template run<A::SiLU, true>(args...);
      default: return Op::template run<A::Identity, true>(args...);
    }
  }

  // This thread's bias at its value 0 (tile coordinates m0, n0), and how many bias elements
  // lie from there to the vector's end; null when there is no bias.
  struct BiasView {
    const ElementD* ptr = nullptr;
    int64_t left = 0;
    __device__ __forceinline__ float at(bool along_m, int64_t dm, int64_t dn) const {
      const int64_t i = along_m ? dm : dn;
      return ptr != nullptr && i < left ? arch::to_f32(ptr[i]) : 0.0f;
    }
    // Where the caller's store predicate already keeps (m, n) inside the problem.
    __device__ __forceinline__ float at_inside(bool along_m, int64_t dm, int64_t dn) const {
      return ptr != nullptr ? arch::to_f32(ptr[along_m ? dm : dn]) : 0.0f;
    }
  };
  __device__ __forceinline__ static BiasView bias_view(Params const& p, int64_t row0, int64_t col0) {
    BiasView b;
    if (p.bias != nullptr) {
      const int64_t origin = p.bias_along_m ? row0 : col0;
      b.ptr = p.bias + origin;
      b.left = (p.bias_along_m ? p.m : p.n) - origin;
    }
    return b;
  }

  // thread: the consumer thread's index in the TiledMma (0 .. size(TiledMma) - 1); acc: its
  // accumulators, in the order of the C fragment (value i is register i).
  //
  // Coordinates come from the identity tensor of the static tile shape, so they are
  // tile-local and cannot wrap (an identity tensor over the problem's (M, N) numbers its
  // elements m + M n, and a residue tile's rows past M read as the next column's).
  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, SharedStorage&, TiledMma const& tiled, TileShape const& tile_mn,
                                               int thread, int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc, int /*slot*/ = 0,
                                               bool /*prefetched*/ = false) {
    store(p, tiled, tile_mn, thread, tile_m, tile_n, l, acc);
  }
  __device__ __forceinline__ static void finish(Params const&, int) {}

  template <class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store(Params const& p, TiledMma const& tiled, TileShape const& tile_mn, int thread,
                                               int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc) {
    dispatch<StoreAs>(p, p, tiled, tile_mn, thread, tile_m, tile_n, l, acc);
  }
  struct StoreAs {
    template <Activation Act, bool HasBias, class... Args>
    __device__ __forceinline__ static void run(Args&... args) {
      store_as<Act, HasBias>(args...);
    }
  };

  template <Activation Act, bool HasBias, class TiledMma, class TileShape, class Acc>
  __device__ __forceinline__ static void store_as(Params const& p, TiledMma const& tiled, TileShape const& tile_mn, int thread,
                                                  int64_t tile_m, int64_t tile_n, int64_t l, Acc const& acc) {
    const auto shape_mn = make_shape(p.m, p.n);
    const auto crd = make_coord(tile_m, tile_n);
    const auto thr = tiled.get_slice(thread);
    const auto gD = make_tensor(p.d + l * p.d_batch_stride, make_layout(shape_mn, make_stride(p.d_stride_m, p.d_stride_n)));
    auto tCgD = thr.partition_C(local_tile(gD, tile_mn, crd));                // (V, MMA_M, MMA_N) -> D element
    const auto tCcD = thr.partition_C(make_identity_tensor(tile_mn));         // -> its (m, n) in the tile
    static_assert(decltype(size(tCgD))::value == sizeof(Acc) / sizeof(float), "one accumulator per C fragment value");
    // (the fragment is (V, MMA_M, 1): MMA_M > 1 where the tile is taller than the TiledMma,
    // value v of repeat i being accumulator v + V i)
    constexpr int repeats = int(size<1>(tCgD)), values = int(size<0>(tCgD));
    const int64_t resid_m = p.m - tile_m * int64_t(get<0>(tile_mn)), resid_n = p.n - tile_n * int64_t(get<1>(tile_mn));
    const bool whole = resid_m >= int64_t(get<0>(tile_mn)) && resid_n >= int64_t(get<1>(tile_mn));
    // The wgmma C fragment's values are (2, 2, N/8): value (a, b, j) is register a + 2b + 4j.
    // One group j at a time: its view (2x2 values) from the partition, its pointer laundered so
    // that the compiler computes it where it is used instead of hoisting all 128 addresses
    // (and C's loads) above the stores, which spilled.
    constexpr int groups = int(size<0, 2>(tCgD));
    static_assert(groups * 4 * repeats == int(size(tCgD)) && int(size<2>(tCgD)) == 1, "the C fragment's values are (2, 2, N/8)");
    const float alpha = p.alpha, beta = p.beta;
    // Residue predicates: value v of this thread sits at this thread's value 0 plus what
    // value v is to thread 0 (the wgmma C layout's thread and value parts never carry into
    // each other; hopper_sm90_partition_test checks every thread). Thread 0's coordinates are
    // compile-time constants, so each predicate is one compare against a per-thread bound,
    // where decoding every value from the identity tensor kept 128 coordinates live (spills).
    const auto tCcD0 = tiled.get_slice(0).partition_C(make_identity_tensor(tile_mn));
    const auto mine0 = tCcD(0);
    const int64_t resid_m0 = resid_m - int64_t(get<0>(mine0)), resid_n0 = resid_n - int64_t(get<1>(mine0));
    BiasView bias;
    if constexpr (HasBias)
      bias = bias_view(p, tile_m * int64_t(get<0>(tile_mn)) + int64_t(get<0>(mine0)), tile_n * int64_t(get<1>(tile_mn)) + int64_t(get<1>(mine0)));
    const auto gC = make_tensor(p.c + l * p.c_batch_stride, make_layout(shape_mn, make_stride(p.c_stride_m, p.c_stride_n)));
    const auto tCgC = thr.partition_C(local_tile(gC, tile_mn, crd));
#pragma unroll
    for (int r = 0; r < repeats; ++r)
#pragma unroll
    for (int j = 0; j < groups; ++j) {
      const auto group = make_coord(make_coord(_, _, j), r, _0{});
      auto d = tCgD(group);
      ElementD* dp = d.data();
      asm volatile("" : "+l"(dp));
      auto dj = make_tensor(dp, d.layout());
      const auto cj = tCcD0(group);
      const ElementD* cp = p.c != nullptr ? tCgC(group).data() : nullptr;
      asm volatile("" : "+l"(cp));
      const auto cij = make_tensor(cp, tCgC(group).layout());
      // (the bias pointer laundered per group too: its loads stay beside their use)
      BiasView bj = bias;
      if constexpr (HasBias) asm volatile("" : "+l"(bj.ptr));
#pragma unroll
      for (int v = 0; v < 4; ++v) {
        const auto mn = cj(v);  // relative to thread 0's value 0: constants
        if (whole || (int64_t(get<0>(mn)) < resid_m0 && int64_t(get<1>(mn)) < resid_n0)) {
          float x = alpha * acc[4 * j + v + values * r];
          if (cp != nullptr) x += beta * arch::to_f32(cij(v));
          if constexpr (HasBias) x += bj.at_inside(p.bias_along_m, int64_t(get<0>(mn)), int64_t(get<1>(mn)));
          dj(v) = arch::from_f32<ElementD>(epilogue::activate<Act>(x));
        }
      }
    }
  }
};

}  // namespace tessera::kernels::sm90
