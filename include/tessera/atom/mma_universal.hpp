// UniversalFMA: one thread, one multiply-add d = a * b + c (any arithmetic types).
#pragma once

#include "tessera/atom/mma_atom.hpp"

namespace tessera {

template <class D, class A = D, class B = A, class Cc = D>
struct UniversalFMA {
  using DRegisters = D[1];
  using ARegisters = A[1];
  using BRegisters = B[1];
  using CRegisters = Cc[1];
  TESSERA_HOST_DEVICE static constexpr void fma(DRegisters& d, ARegisters const& a,
                                                BRegisters const& b, CRegisters const& c) {
    d[0] = a[0] * b[0] + c[0];
  }
};

template <class D, class A, class B, class Cc>
struct MMA_Traits<UniversalFMA<D, A, B, Cc>> {
  static constexpr const char* name = "UniversalFMA";
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = Cc;
  using Shape_MNK = tuple<_1, _1, _1>;
  using ThrID = Layout<_1, _0>;
  using ALayout = Layout<tuple<_1, _1>, tuple<_0, _0>>;
  using BLayout = Layout<tuple<_1, _1>, tuple<_0, _0>>;
  using CLayout = Layout<tuple<_1, _1>, tuple<_0, _0>>;
};

}  // namespace tessera
