#pragma once
// to_runtime: one-way conversion from the static tier (include/tessera) to runtime
// values. Static integers C<N> and dynamic integers both become int64 leaves; tuples
// keep their nesting, so the printed form matches the static layout's print.
#include <cstdint>
#include <utility>
#include <vector>

#include "tessera/rt/layout.hpp"
#include "tessera/layout.hpp"

namespace tessera::rt {

template <class T>
IntTuple to_runtime(T const& t) {
  if constexpr (tessera::is_tuple_v<T>) {
    std::vector<IntTuple> elems;
    elems.reserve(std::size_t(tessera::rank_v<T>));
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (elems.push_back(to_runtime(tessera::get<I>(t))), ...);
    }(tessera::seq_of<T>{});
    return IntTuple::tuple(std::move(elems));
  } else {
    static_assert(tessera::is_integral_v<T>, "to_runtime: expected an integer or a tuple of integers");
    return IntTuple(static_cast<std::int64_t>(t));
  }
}

template <class Shape, class Stride>
Layout to_runtime(tessera::Layout<Shape, Stride> const& l) {
  return Layout(to_runtime(l.shape()), to_runtime(l.stride()));
}

}  // namespace tessera::rt
