// An accumulator fragment read as another tiled MMA's register operand, and its rows.
//
// Attention's second product O += P V takes P (the softmax of S = Q K^T) from registers: each
// thread must hand wgmma RS exactly the values of S it already holds. Which S values form a
// thread's A registers follows from the two TV layouts alone:
//
//   accumulator_as_operand_A(MmaC, MmaA, tile):  for the (M, N) tile of MmaC's accumulator read as
//     an (M, K = N) tile of MmaA's A operand,
//       R = right_inverse(C_TV) o A_TV : (thread, a) -> thread' + T * c
//     (A_TV takes operand value a of a thread to its tile coordinate, right_inverse(C_TV) takes
//     that coordinate back to the accumulator (thread', value c) holding it). R's thread part
//     must be the identity (every thread already holds its operand: no exchange between
//     threads) and its value part must not depend on the thread; the value part, reshaped to
//     partition_fragment_A's shape, is the result: A-fragment index -> accumulator-fragment index.
//     A tensor over the accumulator's (converted) registers with this layout is the A fragment.
//
//   accumulator_rows(MmaC, tile):  (thread, c) -> row m of accumulator value c (C_TV with the
//     column stride zeroed). From it:
//       row_slots(...)     value c -> which of the thread's distinct rows it lies in
//                          (the value modes of zero row stride share a slot)
//       row_lane_mask(...) the lane bits across which threads share a row: a row's reduction is
//                          a butterfly over these bits (xor shuffles); 0 when no lane shares
//
// The conditions are checked where they can fail (thread_preserving, below; static_asserts
// on the shapes), and the defining property, for every thread and register, by the host tests.
#pragma once

#include <utility>

#include "tessera/tessera.hpp"
#include "tessera/tiled_mma.hpp"

namespace tessera {

namespace detail {
// (thread, value) -> value index, for TV layouts whose codomain is T * V indices thread-first.
template <class R, class T>
TESSERA_HOST_DEVICE constexpr auto retile_value_part(R const& r, T const& threads) {
  return composition(make_layout(make_shape(threads, size(r) / threads), make_stride(_0{}, _1{})), r);
}
template <class R, class T>
TESSERA_HOST_DEVICE constexpr auto retile_thread_part(R const& r, T const& threads) {
  return composition(make_layout(make_shape(threads, size(r) / threads), make_stride(_1{}, _0{})), r);
}
}  // namespace detail

// The composed map R = right_inverse(C_TV) o A_TV (see above): (thread, a) -> thread + T * c.
template <class MmaC, class MmaA, class Tile>
TESSERA_HOST_DEVICE constexpr auto accumulator_to_operand_map(MmaC const&, MmaA const&, Tile const& tile) {
  static_assert(decltype(MmaC::num_threads())::value == decltype(MmaA::num_threads())::value,
                "accumulator_as_operand_A: both tiled MMAs must run on the same threads");
  constexpr auto c_tv = MmaC::get_layoutC_TV(Tile{});
  constexpr auto a_tv = MmaA::get_layoutA_TV(Tile{});
  static_assert(decltype(size(c_tv))::value == decltype(size(a_tv))::value,
                "accumulator_as_operand_A: the accumulator tile and the operand tile must hold the same elements");
  (void)tile;
  return composition(right_inverse(c_tv), a_tv);
}

// True when R's thread part is the identity and its value part is the same for every thread:
// each thread's operand values are accumulator values it holds itself, at the same registers.
// (A host check over every thread and value, not constexpr: compilers fold constexpr calls with
// constant arguments eagerly, and this loop would cost gigabytes of constant evaluation.)
template <class MmaC, class MmaA, class Tile>
inline bool thread_preserving(MmaC const& c, MmaA const& a, Tile const& tile) {
  const auto r = accumulator_to_operand_map(c, a, tile);
  constexpr auto threads = MmaC::num_threads();
  const auto thr = detail::retile_thread_part(r, threads);
  const auto val = detail::retile_value_part(r, threads);
  const int T = int(threads), V = int(size(r)) / T;
  for (int t = 0; t < T; ++t)
    for (int v = 0; v < V; ++v)
      if (int(thr(t + T * v)) != t || int(val(t + T * v)) != int(val(T * v))) return false;
  return true;
}

// A-fragment index (partition_fragment_A's shape for the tile) -> accumulator-fragment index.
template <class MmaC, class MmaA, class Tile>
TESSERA_HOST_DEVICE constexpr auto accumulator_as_operand_A(MmaC const& c, MmaA const& a, Tile const& tile) {
  constexpr auto r = accumulator_to_operand_map(MmaC{}, MmaA{}, Tile{});
  constexpr auto threads = MmaC::num_threads();
  // Thread 0's values: layout<1> of the value part (the thread mode contributes nothing when
  // thread_preserving holds; the tests check it for every thread).
  constexpr auto val = layout<1>(detail::retile_value_part(r, threads));
  using FragA = decltype(partition_fragment_A(MmaA{}, Tile{}).layout());
  static_assert(decltype(size(val))::value == decltype(size(FragA{}))::value,
                "accumulator_as_operand_A: the operand fragment and the accumulator fragment differ in size");
  (void)c, (void)a, (void)tile;
  // (the A fragment's compact layout maps its (V, M, K) coordinates to a 1-D index; val takes
  // that index to the accumulator's)
  return composition(val, FragA{});
}

// (thread, value) -> row of the accumulator value, over the tile (M, N).
template <class MmaC, class Tile>
TESSERA_HOST_DEVICE constexpr auto accumulator_rows(MmaC const&, Tile const&) {
  constexpr auto c_tv = MmaC::get_layoutC_TV(Tile{});
  return composition(make_layout(Tile{}, make_stride(_1{}, _0{})), c_tv);
}

// Value c of a thread's accumulator fragment -> its row slot: 0 .. (rows per thread - 1).
template <class MmaC, class Tile>
TESSERA_HOST_DEVICE constexpr auto row_slots(MmaC const& c, Tile const& tile) {
  constexpr auto vals = layout<1>(accumulator_rows(MmaC{}, Tile{}));
  (void)c, (void)tile;
  return layout<0>(make_fragment_like(make_layout(vals, Layout<_1, _0>{})));
}
template <class MmaC, class Tile>
TESSERA_HOST_DEVICE constexpr int rows_per_thread(MmaC const& c, Tile const& tile) {
  return int(cosize(row_slots(c, tile)));
}

// The lane bits over which threads share their rows (thread-index leaves of zero row stride).
template <class MmaC, class Tile>
TESSERA_HOST_DEVICE constexpr int row_lane_mask(MmaC const&, Tile const&) {
  constexpr auto thr = layout<0>(accumulator_rows(MmaC{}, Tile{}));
  constexpr auto shapes = flatten_to_tuple(thr.shape());
  constexpr auto strides = flatten_to_tuple(thr.stride());
  int mask = 0, index_stride = 1;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((mask |= int(get<I>(strides)) == 0 ? (int(get<I>(shapes)) - 1) * index_stride : 0, index_stride *= int(get<I>(shapes))), ...);
  }(std::make_index_sequence<tuple_size<std::remove_cvref_t<decltype(shapes)>>::value>{});
  return mask;
}

}  // namespace tessera
