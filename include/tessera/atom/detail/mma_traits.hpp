// The members every MMA_Traits<Op> has (see tessera/atom/mma_atom.hpp), from one template,
// so that the traits of an atom are one line: its instruction, value types and layouts.
#pragma once

namespace tessera::detail {

template <class D, class A, class B, class C, class MNK, class Thr, class ALayout_, class BLayout_, class CLayout_>
struct mma_traits {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;
  using Shape_MNK = MNK;
  using ThrID = Thr;
  using ALayout = ALayout_;
  using BLayout = BLayout_;
  using CLayout = CLayout_;
};

}  // namespace tessera::detail

// Inside namespace tessera: MMA_Traits<OP> = the given detail::mma_traits<...>, with OP's CuTe name as its `name`.
#define TESSERA_MMA_TRAITS(OP, ...)                  \
  template <>                                        \
  struct MMA_Traits<OP> : __VA_ARGS__ {              \
    static constexpr const char* name = #OP;         \
  };
