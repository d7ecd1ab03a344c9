// Predicates for copy_if at the edge of a matrix: which of a thread's copies are inside it.
//   make_copy_predicate(atom, coords, inside)  one bool per instruction of the atom (or tiled
//       copy), in copy_if's instruction order: inside(c) for the coordinate c of the
//       instruction's first value.  coords is the thread's partition of an identity tensor
//       of the tile's shape, partitioned as the copy's source (or destination) is, so its
//       values line up with the copy's; inside adds the tile's origin (see
//       make_identity_tensor: a whole matrix's identity tensor wraps past its edge).  An instruction moves its values together: the bound must keep them on one
//       side (for example K a multiple of a 16-byte copy's elements); a zero-filling atom
//       writes zeros where the predicate is false, a plain one skips.
//   make_copy_predicate(coords, inside)        one bool per element, for copy_if(pred, src, dst).
// The result is a register tensor of bool, so the compares happen once per tile, not per copy.
#pragma once

#include "tessera/algorithm/copy.hpp"
#include "tessera/tensor_fragment.hpp"

namespace tessera {

template <class Atom, class CTn, class Inside>
  requires detail::is_copy_atom_like_v<Atom>
TESSERA_HOST_DEVICE TESSERA_INLINE auto make_copy_predicate(Atom const&, CTn const& coords, Inside const& inside) {
  using A = detail::atom_of_t<Atom>;
  auto by_instr = detail::by_instruction(coords, decltype(A::num_val_src()){});  // (values, instructions)
  auto pred = make_tensor<bool>(make_shape(size<1>(by_instr.layout())));
  detail::for_each_index(size<1>(by_instr.layout()), [&](auto j) { pred(j) = bool(inside(by_instr(_0{}, j))); });
  return pred;
}

template <class CTn, class Inside>
  requires is_tensor_v<CTn>
TESSERA_HOST_DEVICE TESSERA_INLINE auto make_copy_predicate(CTn const& coords, Inside const& inside) {
  auto pred = make_tensor<bool>(make_shape(size(coords.layout())));
  detail::for_each_index(size(coords.layout()), [&](auto i) { pred(i) = bool(inside(coords[i])); });
  return pred;
}

}  // namespace tessera
