// Collective epilogue: D = alpha * acc + beta * C through shared memory.
//
// The MMA fragments scatter a thread's values over rows g, g+8 and column pairs, so storing
// them directly writes 4-byte pieces all over the tile.  Instead each warp writes its
// fragments into an f32 staging tile laid out along D's contiguous mode, and then every
// thread moves whole 8-element vectors (16 bytes of f16/bf16) that are contiguous in D:
// a warp writes 512 contiguous bytes of a row (row-major D) or column (column-major D).
// The staging tile's rows are padded by 4 floats: rows stay 16-byte aligned for the vector
// reads, and the fragment writes of a warp spread over all 32 banks for column-major D.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../arch/sm90_convert.cuh"
#include "../kernel/problem.cuh"
#include "sm80_contract.hpp"
#include "tessera/algorithm.hpp"
#include "tessera/kernels/gmem_copy.hpp"
#include "../kernel/trace_policy.cuh"

namespace tessera::kernels {

template <class T>
__device__ __forceinline__ float to_float(std::uint16_t bits);
template <class T>
__device__ __forceinline__ std::uint16_t from_float(float v);

struct bf16_tag {};
struct f16_tag {};

template <>
__device__ __forceinline__ float to_float<bf16_tag>(std::uint16_t bits) {
  return __uint_as_float(std::uint32_t(bits) << 16);
}
template <>
__device__ __forceinline__ std::uint16_t from_float<bf16_tag>(float v) {
  std::uint16_t r;
  asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
  return r;
}
template <>
__device__ __forceinline__ float to_float<f16_tag>(std::uint16_t bits) {
  float f;
  asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(bits));
  return f;
}
template <>
__device__ __forceinline__ std::uint16_t from_float<f16_tag>(float v) {
  std::uint16_t r;
  asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(r) : "f"(v));
  return r;
}

// Its contract (sm80_contract.hpp): D in the inputs' 16-bit type, no fused epilogue; the
// 16-byte stores where D and C allow 8-element vectors (decided on the host:
// Problem::d_vector_ok).
template <int BM, int BN, int Threads, class Tag>
struct EpilogueSmem16 : EpilogueSm80Contract<element_of_tag_t<Tag>, 8> {
  static constexpr int pad = 4;
  // Staging tile (m, n) -> offset: rows along D's non-contiguous mode, padded.
  using StageRow = Layout<tuple<C<BM>, C<BN>>, tuple<C<BN + pad>, _1>>;  // D row-major
  using StageCol = Layout<tuple<C<BM>, C<BN>>, tuple<_1, C<BM + pad>>>;  // D column-major
  static constexpr int smem_bytes =
      4 * (int(cosize(StageRow{})) > int(cosize(StageCol{})) ? int(cosize(StageRow{})) : int(cosize(StageCol{})));

  template <class Mainloop>
  __device__ __forceinline__ static void run(const Problem& p, const typename Mainloop::Accum& acc, std::uint16_t* D,
                             const std::uint16_t* Cptr, std::int64_t tm, std::int64_t tn, float* stage) {
    if (p.d.row) run_major<Mainloop, true>(p, acc, D, Cptr, tm, tn, stage);
    else run_major<Mainloop, false>(p, acc, D, Cptr, tm, tn, stage);
  }

  // D or C over the whole matrix: (M,N):(ld,1) or (M,N):(1,ld).
  template <bool DRow, class T>
  __device__ static auto matrix(T* ptr, const Problem& p, std::int64_t ld) {
    if constexpr (DRow) return make_tensor(ptr, make_layout(make_shape(p.m, p.n), make_stride(ld, _1{})));
    else return make_tensor(ptr, make_layout(make_shape(p.m, p.n), make_stride(_1{}, ld)));
  }

  template <class Mainloop, bool DRow>
  __device__ __forceinline__ static void run_major(const Problem& p, const typename Mainloop::Accum& acc, std::uint16_t* D,
                                   const std::uint16_t* Cptr, std::int64_t tm, std::int64_t tn, float* stage) {
    using Elem = typename Mainloop::Elem;
    using Stage = std::conditional_t<DRow, StageRow, StageCol>;
    const int tid = threadIdx.x;
    auto tile = make_shape(C<BM>{}, C<BN>{});
    auto sS = make_tensor(stage, Stage{});
    auto cS = make_identity_tensor(tile);  // (m, n) in the tile
    // The accumulators into the staging tile: the tiled MMA's C partition (a register plus
    // immediates: the staging layout is static).
    auto thr_mma = typename Mainloop::TiledMma{}.get_slice(tid);
    copy(acc, thr_mma.partition_C(sS));
    if constexpr (Mainloop::Trace::enabled) {
      auto tCcS = thr_mma.partition_C(cS);
      tessera::detail::for_each_index(size(tCcS.layout()), [&](auto v) {
        Mainloop::Trace::record(p.trace, trace::Map::mma_c, tid, int(v), int(get<0>(tCcS[v])), int(get<1>(tCcS[v])));
      });
    }
    __syncthreads();

    auto gD = local_tile(matrix<DRow>(reinterpret_cast<Elem*>(D), p, p.d.ld), tile, make_coord(tm, tn));
    auto gC = local_tile(matrix<DRow>(reinterpret_cast<Elem const*>(Cptr), p, p.c.ld), tile, make_coord(tm, tn));
    const std::int64_t res_m = p.m - tm * BM, res_n = p.n - tn * BN;
    if (p.d_vector_ok) store<8, DRow>(p, sS, cS, gC, gD, res_m, res_n);
    else store<1, DRow>(p, sS, cS, gC, gD, res_m, res_n);
  }

  // Staging tile -> D = alpha * stage + beta * C: threads fastest along D's contiguous mode,
  // V elements per copy (16 bytes of D for V = 8: the contiguous extent is then a multiple
  // of 8, so a copy is all inside or all outside).
  template <int V, bool DRow, class SS, class CS, class GC, class GD>
  __device__ __forceinline__ static void store(const Problem& p, SS const& sS, CS const& cS, GC const& gC, GD const& gD,
                               std::int64_t res_m, std::int64_t res_n) {
    using Elem = std::remove_cvref_t<decltype(gD[0])>;
    using Out = EpilogueCopy<BM, BN, Threads, V, DRow>;
    using Wide = std::conditional_t<V == 8, uint128_t, std::uint16_t>;
    using LoadS = Copy_Atom<UniversalCopy<std::conditional_t<V == 8, uint128_t, float>>, float>;  // 4 floats or 1
    using MoveD = Copy_Atom<UniversalCopy<Wide>, Elem>;  // C -> registers
    // registers -> D: one 16-byte STG (UniversalCopy<uint128_t> came out as two 8-byte stores)
    using StoreD = std::conditional_t<V == 8, Copy_Atom<STG_U32x4, Elem>, MoveD>;
    auto thr = typename Out::Tiled{}.get_slice(int(threadIdx.x));
    // (V, copies): copy j moves the V values of column j.
    auto tSs = tessera::detail::by_instruction(thr.partition_S(sS), C<V>{});
    auto tSc = tessera::detail::by_instruction(thr.partition_S(cS), C<V>{});
    auto tDg = tessera::detail::by_instruction(thr.partition_D(gD), C<V>{});
    auto tCg = tessera::detail::by_instruction(thr.partition_D(gC), C<V>{});
    const bool use_c = p.beta != 0.0f;
    constexpr int copies = int(decltype(size<1>(tSs.layout()))::value);
    const float alpha = p.alpha, beta = p.beta;
    // Copy j: D = alpha * S (+ beta * C where with_c).  checked: only where its first value
    // lies inside D (a copy is all inside or all outside).
    auto copy_j = [&](auto j, auto checked, auto with_c) {
      if constexpr (decltype(checked)::value) {
        const auto c = tSc(_0{}, j);
        if (get<0>(c) >= res_m || get<1>(c) >= res_n) return;
      }
      auto acc = make_tensor<float>(make_shape(C<V>{}));
      auto out = make_tensor<Elem>(make_shape(C<V>{}));
      copy(LoadS{}, tSs(_, j), acc);
      // (The hardware's conversions, arch/sm90_convert.cuh: numeric.hpp's portable rounding
      // is about 8 integer instructions a value, 1000 per tile, which short-K problems feel.)
      if (with_c) {
        copy(MoveD{}, tCg(_, j), out);
        transform(acc, out, out, [&](float x, Elem cv) { return arch::from_f32<Elem>(alpha * x + beta * arch::to_f32(cv)); });
      } else {
        transform(acc, out, [&](float x) { return arch::from_f32<Elem>(alpha * x); });
      }
      copy(StoreD{}, out, tDg(_, j));
    };
    if constexpr (V == 8) {
      // 16-byte copies: few (16 a thread for 128x256), unrolled so that every offset in the
      // staging tile and in D's tile is a constant.  A tile inside D (all but the last row
      // and column of tiles) runs them without predicates and without a branch between
      // them, so their shared-memory loads and stores are in flight together; per copy, the
      // predicate's coordinates alone cost more than its conversions.
      const bool inside = res_m >= BM && res_n >= BN;
      if (inside && use_c) {
        tessera::detail::static_for_inlined<copies>([&](auto j) { copy_j(j, std::false_type{}, std::true_type{}); });
      } else if (inside) {
        tessera::detail::static_for_inlined<copies>([&](auto j) { copy_j(j, std::false_type{}, std::false_type{}); });
      } else {
        tessera::detail::static_for_inlined<copies>([&](auto j) { copy_j(j, std::true_type{}, use_c); });
      }
    } else {
#pragma unroll 4
      for (int j = 0; j < copies; ++j) copy_j(j, std::true_type{}, use_c);
    }
  }
};

}  // namespace tessera::kernels
