// What the algorithms share: unrolled loops over static counts, a tensor seen as the
// sequence of instructions an atom issues over it, whether an instruction's values lie
// contiguously in memory (so one address names them all), and packing values into the
// register arrays an instruction takes (and back).
#pragma once

#include <cstring>
#include <type_traits>
#include <utility>

#include "tessera/algorithm/detail/static_for.hpp"
#include "tessera/atom/numeric.hpp"
#include "tessera/tensor_fragment.hpp"

namespace tessera::detail {

template <class Tn> using tensor_value_t = std::remove_cvref_t<decltype(std::declval<Tn&>()[0])>;

// The tensor as (values of one instruction, instructions): its elements in the order of
// its 1-D index, n at a time.  A swizzled tensor stays swizzled (the composition acts on
// the inner layout); slicing an instruction keeps the offset where the layout wants it.
template <class Tn, class NA>
TESSERA_HOST_DEVICE constexpr auto by_instruction(Tn&& t, NA const& na) {
  auto n = size(t.layout());
  if constexpr (is_static_v<decltype(n)> && is_static_v<NA>) {
    static_assert(decltype(n)::value % NA::value == 0,
                  "copy/gemm: the tensor's size is not a whole number of the atom's values");
  }
  return make_tensor(t.data(), composition(t.layout(), make_layout(make_shape(na, n / na))));
}

// Do an instruction's values (a static 1-D layout of N values) occupy N consecutive
// elements from the first one?  For a swizzled layout: consecutive in its inner layout, in
// a block the swizzle does not split (N <= 2^M; the block's alignment is the data's).
template <class L>
TESSERA_HOST_DEVICE constexpr bool values_contiguous() {
  if constexpr (is_composed_layout_v<L>) {
    using Inner = std::remove_cvref_t<decltype(std::declval<L>().inner())>;
    using Sw = std::remove_cvref_t<decltype(std::declval<L>().outer())>;
    if constexpr (!is_swizzle_v<Sw>) return false;
    else return values_contiguous<Inner>() && decltype(size(Inner{}))::value <= (int64_t(1) << Sw::num_base);
  } else if constexpr (!is_static_v<decltype(std::declval<L>().shape())>) {
    return false;
  } else {
    constexpr int64_t n = decltype(size(std::declval<L>().shape()))::value;
    if constexpr (n == 1) return true;
    else {
      using Co = decltype(coalesce(std::declval<L>()));
      if constexpr (!is_static_v<decltype(std::declval<Co>().stride())>) return false;
      else return std::is_same_v<decltype(make_layout(C<n>{}, C<1>{})), Co>;
    }
  }
}

// Values of a tensor (its 1-D order) packed into the bytes of an instruction's register
// array, and back.  memcpy at constant offsets: the compiler turns these into register moves.
template <class Regs, class Tn>
TESSERA_HOST_DEVICE TESSERA_INLINE void pack_values(Regs& regs, Tn const& t) {
  using V = tensor_value_t<Tn const>;
  constexpr int64_t n = decltype(size(t.layout()))::value;
  static_assert(sizeof(Regs) == n * sizeof(V), "the values do not fill the instruction's registers exactly");
  static_for<n>([&](auto i) {
    V v = t[i];
    __builtin_memcpy(reinterpret_cast<char*>(&regs) + i * sizeof(V), &v, sizeof(V));
  });
}
template <class Regs, class Tn>
TESSERA_HOST_DEVICE TESSERA_INLINE void unpack_values(Regs const& regs, Tn&& t) {
  using V = tensor_value_t<Tn>;
  constexpr int64_t n = decltype(size(t.layout()))::value;
  static_assert(sizeof(Regs) == n * sizeof(V), "the instruction's registers do not fill the values exactly");
  static_for<n>([&](auto i) {
    V v;
    __builtin_memcpy(&v, reinterpret_cast<char const*>(&regs) + i * sizeof(V), sizeof(V));
    t[i] = v;
  });
}

// Numeric conversion between tessera's storage types (through float) and arithmetic types.
template <class To, class From>
TESSERA_HOST_DEVICE constexpr To convert_to(From const& x) {
  if constexpr (std::is_same_v<To, From>) return x;
  else if constexpr (requires { To::from_float(0.f); }) {
    if constexpr (requires { x.to_float(); }) return To::from_float(x.to_float());
    else return To::from_float(float(x));
  } else if constexpr (requires { x.to_float(); }) {
    return To(x.to_float());
  } else {
    return To(x);
  }
}

}  // namespace tessera::detail
