// Helpers shared by the fragment and retile tests: index tiles, per-operand partition /
// fragment accessors, the inverse of a fragment's register map.
#pragma once

#include <catch2/catch.hpp>

#include <vector>

#include "tessera/tiled_copy.hpp"

namespace tessera_test {
using namespace tessera;

// A (rows x cols) tile whose element at (r, c) is its column-major index r + rows * c,
// stored in the given order.
template <int Rows, int Cols, bool RowMajor>
struct IndexTile {
  std::vector<int> data = std::vector<int>(Rows * Cols);
  IndexTile() {
    for (int r = 0; r < Rows; ++r)
      for (int c = 0; c < Cols; ++c) data[size_t(layout()(r, c))] = r + Rows * c;
  }
  static constexpr auto layout() {
    if constexpr (RowMajor) return make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{});
    else return make_layout(make_shape(C<Rows>{}, C<Cols>{}));
  }
  auto tensor() const { return make_tensor(data.data(), layout()); }
};

enum class Operand { A, B, C };

template <Operand X, class Thr, class Tn>
auto partition_of(Thr const& thr, Tn const& t) {
  if constexpr (X == Operand::A) return thr.partition_A(t);
  else if constexpr (X == Operand::B) return thr.partition_B(t);
  else return thr.partition_C(t);
}
template <Operand X, class Thr, class Tn>
auto fragment_of(Thr const& thr, Tn const& t) {
  if constexpr (X == Operand::A) return thr.partition_fragment_A(t);
  else if constexpr (X == Operand::B) return thr.partition_fragment_B(t);
  else return thr.partition_fragment_C(t);
}
template <Operand X, class TM>
auto atom_tv() {
  if constexpr (X == Operand::A) return typename TM::AtomLayoutA_TV{};
  else if constexpr (X == Operand::B) return typename TM::AtomLayoutB_TV{};
  else return typename TM::AtomLayoutC_TV{};
}

// Storage slot -> fragment index (the fragment's layout is a bijection: checked here).
template <class Frag>
std::vector<int> fragment_inverse(Frag const& f) {
  const int n = int(size(f.layout()));
  REQUIRE(int(decltype(cosize(f.layout()))::value) == n);
  std::vector<int> inv(size_t(n), -1);
  for (int i = 0; i < n; ++i) {
    int64_t slot = f.layout()(i);
    REQUIRE(slot >= 0);
    REQUIRE(slot < n);
    REQUIRE(inv[size_t(slot)] == -1);
    inv[size_t(slot)] = i;
  }
  return inv;
}

}  // namespace tessera_test
