// copy: move a tensor's elements into another's, through a copy atom's instruction.
//
//   copy(atom_or_tiled_copy, src, dst)   src, dst: one thread's partitions (partition_S /
//                                        partition_D / retile_D), (CPY_V, rest...); instruction
//                                        j takes values [NS*j, NS*(j+1)) of src and
//                                        [ND*j, ND*(j+1)) of dst in their 1-D order, NS / ND =
//                                        the atom's source / destination values per thread
//   copy_if(pred, atom_or_tiled, src, dst)  instruction j only where pred(j) (a zero-filling
//                                        atom always issues: a false pred writes zeros)
//   copy(src, dst), copy_if(pred, src, dst)  element by element, dst(i) = src(i)
//
// One instruction (copy_atom_call), on the device:
//   UniversalCopy<S, D>  one load of S and one store of D where the values are contiguous
//                        (in memory or registers), else the values gathered / scattered
//   ldmatrix             the address of the thread's source row, the destination registers
//                        scattered into the thread's values
//   stmatrix             the thread's values gathered into the source registers, the address
//                        of the destination row
//   STG_U32x4            the same: the values gathered into four 32-bit registers, one
//                        16-byte global store at the address of the first destination value
//   cp.async (+ zfill)   the addresses of the source and the destination values
// An instruction that reads through an address needs its values contiguous (a static
// stride-1 layout, or a swizzle block they do not cross): checked at compile time.
// Static layouts make each instruction's address the thread's base plus an immediate (the first
// value is addressed at the static index _0, so a folded swizzled partition sees a static
// offset: tessera/algorithm/swizzle_fold.hpp).
//
// On the host (no __CUDA_ARCH__) each atom is emulated from its TV layouts: destination
// value a of thread t receives the element that source value a' of thread t' holds, where
// (t', a') is the first (thread, value) whose ValLayoutSrc equals ValLayoutDst(t, a) -- for
// ldmatrix the first lane that supplies that row's address.  Warp-wide atoms exchange their
// operands through tessera::host_warp (run the threads with host_warp::launch).
#pragma once

#include "tessera/algorithm/detail/atom_operands.hpp"
#include "tessera/algorithm/host_warp.hpp"
#include "tessera/atom/copy.hpp"

namespace tessera {

namespace detail {
template <class Op> struct is_universal_copy : std::false_type {};
template <class S, class D> struct is_universal_copy<UniversalCopy<S, D>> : std::true_type {};
template <class Op> inline constexpr bool is_ldmatrix_v = requires { Op::num_matrices; };
template <class Op> inline constexpr bool is_stmatrix_v = requires { Op::stored_matrices; };
template <class Op> inline constexpr bool is_global_store_v = requires { Op::stores_global; };
template <class Op> inline constexpr bool is_zero_filling_v = requires { Op::zero_fills; };

// Copy atoms and tiled copies (which derive from their atom) alike.
template <class A> inline constexpr bool is_copy_atom_like_v = requires {
  typename std::remove_cvref_t<A>::Operation;
  typename std::remove_cvref_t<A>::ValLayoutSrc;
  typename std::remove_cvref_t<A>::ValLayoutDst;
};

#if !defined(__CUDA_ARCH__)
// Host: which (thread, value) of the source supplies destination value a of thread t.
template <class Atom>
struct CopySourceOf {
  int thread = -1, value = -1;
};
template <class Atom>
CopySourceOf<Atom> copy_source_of(int t, int a) {
  typename Atom::ValLayoutSrc src{};
  typename Atom::ValLayoutDst dst{};
  const int64_t want = dst(t, a);
  for (int ts = 0; ts < int(size<0>(src)); ++ts)
    for (int as = 0; as < int(size<1>(src)); ++as)
      if (src(ts, as) == want) return {ts, as};
  return {};
}
#endif

// One instruction of Atom = Copy_Atom<Op, T>: s and d hold the thread's NA values.
template <class Atom, class STn, class DTn>
TESSERA_HOST_DEVICE TESSERA_INLINE void copy_atom_call(STn const& s, DTn&& d, [[maybe_unused]] bool pred) {
  using Op = typename Atom::Operation;
  using T = typename Atom::ValueType;
  using SL = std::remove_cvref_t<decltype(s.layout())>;
  using DL = std::remove_cvref_t<decltype(d.layout())>;
  [[maybe_unused]] constexpr int64_t na = decltype(Atom::num_val_dst())::value;  // (ldmatrix .x1/.x2: fewer than the source's)
  if constexpr (!is_universal_copy<Op>::value) {
    static_assert(sizeof(tensor_value_t<STn const>) == sizeof(T) && sizeof(tensor_value_t<DTn>) == sizeof(T),
                  "copy: the tensors' element width must be the atom's value type's");
  }
#if defined(__CUDA_ARCH__)
  if constexpr (is_universal_copy<Op>::value) {
    using SV = std::remove_extent_t<typename Op::SRegisters>;
    using DV = std::remove_extent_t<typename Op::DRegisters>;
    if (!pred) return;
    SV v;
    if constexpr (values_contiguous<SL>()) v = *reinterpret_cast<SV const*>(&s[_0{}]);
    else pack_values(v, s);
    DV out;
    Op::copy(v, out);
    if constexpr (values_contiguous<DL>()) *reinterpret_cast<DV*>(&d[_0{}]) = out;
    else unpack_values(out, d);
  } else if constexpr (is_ldmatrix_v<Op>) {
    static_assert(values_contiguous<SL>(),
                  "copy: ldmatrix reads a 16-byte row from one address; the thread's source values must be contiguous in shared memory");
    if (!pred) return;
    typename Op::DRegisters regs;
    Op::copy(*reinterpret_cast<uint128_t const*>(&s[_0{}]), regs);
    unpack_values(regs, d);
  } else if constexpr (is_stmatrix_v<Op>) {
    static_assert(values_contiguous<DL>(),
                  "copy: stmatrix writes a 16-byte row through one address; the thread's destination values must be contiguous in shared memory");
    if (!pred) return;
    typename Op::SRegisters regs;
    pack_values(regs, s);
    Op::copy(regs, *reinterpret_cast<uint128_t*>(&d[_0{}]));
  } else if constexpr (is_global_store_v<Op>) {
    static_assert(values_contiguous<DL>(),
                  "copy: a vector store writes 16 contiguous bytes through one address; the thread's destination values must be contiguous in global memory");
    if (!pred) return;
    typename Op::SRegisters regs;
    pack_values(regs, s);
    Op::copy(regs, *reinterpret_cast<uint128_t*>(&d[_0{}]));
  } else {
    static_assert(values_contiguous<SL>() && values_contiguous<DL>(),
                  "copy: cp.async moves contiguous bytes between two addresses; the thread's source and destination values must be contiguous");
    auto& src = *reinterpret_cast<typename Op::SRegisters const*>(&s[_0{}]);
    auto& dst = *reinterpret_cast<typename Op::DRegisters*>(&d[_0{}]);
    if constexpr (is_zero_filling_v<Op>) Op::copy(src, dst, pred);
    else if (pred) Op::copy(src, dst);
  }
#else
  using Dv = tensor_value_t<DTn>;
  if constexpr (decltype(Atom::num_threads())::value == 1) {
    if (!pred) {
      if constexpr (is_zero_filling_v<Op>) static_for<na>([&](auto a) { d[a] = Dv{}; });
      return;
    }
    // (The values are read before any is written: a copy in place stays a permutation.)
    tensor_value_t<STn const> vals[na];
    static_for<na>([&](auto a) {
      auto from = copy_source_of<Atom>(0, int(a));
      vals[a] = s[from.value];
    });
    static_for<na>([&](auto a) { d[a] = vals[a]; });
  } else {
    // Warp-wide (ldmatrix): every lane publishes its source view and reads the others'.
    host_warp::collective(Atom::name(), {&s, nullptr, nullptr, nullptr}, [&](int lane, auto const& published) {
      const int t = lane % int(Atom::num_threads());
      const int base = lane - t;
      if (!pred) return;
      static_for<na>([&](auto a) {
        auto from = copy_source_of<Atom>(t, int(a));
        auto const* peer = static_cast<STn const*>(published[std::size_t(base + from.thread)][0]);
        d[a] = (*peer)[from.value];
      });
    });
  }
#endif
}

template <class Atom, class STn, class DTn, class Pred>
TESSERA_HOST_DEVICE TESSERA_INLINE void copy_instructions(Pred const& pred, STn const& src, DTn&& dst) {
  static_assert(is_tensor_v<STn> && is_tensor_v<DTn>, "copy: expects tensors (partitions of a thread's source and destination)");
  // Source and destination values per instruction (they differ for ldmatrix .x1 / .x2,
  // whose lanes each address a whole row but receive part of one).
  auto s = by_instruction(src, decltype(Atom::num_val_src()){});
  auto d = by_instruction(dst, decltype(Atom::num_val_dst()){});
  if constexpr (is_static_v<decltype(size<1>(s.layout()))> && is_static_v<decltype(size<1>(d.layout()))>) {
    static_assert(decltype(size<1>(s.layout()))::value == decltype(size<1>(d.layout()))::value,
                  "copy: the source and destination do not hold the same number of the atom's instructions");
  }
  for_each_index(size<1>(s.layout()), [&](auto j) { copy_atom_call<Atom>(s(_, j), d(_, j), pred(j)); });
}
template <class Atom> using atom_of_t = Copy_Atom<typename Atom::Operation, typename Atom::ValueType>;
}  // namespace detail

template <class Atom, class STn, class DTn>
  requires detail::is_copy_atom_like_v<Atom>
TESSERA_HOST_DEVICE TESSERA_INLINE void copy(Atom const&, STn const& src, DTn&& dst) {
  detail::copy_instructions<detail::atom_of_t<Atom>>([](auto) { return true; }, src, dst);
}

// pred: a tensor (or anything indexable) of booleans, one per instruction.
template <class Pred, class Atom, class STn, class DTn>
  requires detail::is_copy_atom_like_v<Atom>
TESSERA_HOST_DEVICE TESSERA_INLINE void copy_if(Pred const& pred, Atom const&, STn const& src, DTn&& dst) {
  detail::copy_instructions<detail::atom_of_t<Atom>>([&](auto j) { return bool(pred[j]); }, src, dst);
}

// Element by element, in the 1-D order of both tensors.
template <class STn, class DTn>
  requires(is_tensor_v<STn> && is_tensor_v<DTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE void copy(STn const& src, DTn&& dst) {
  detail::for_each_index(size(src.layout()), [&](auto i) { dst[i] = src[i]; });
}
template <class Pred, class STn, class DTn>
  requires(is_tensor_v<STn> && is_tensor_v<DTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE void copy_if(Pred const& pred, STn const& src, DTn&& dst) {
  detail::for_each_index(size(src.layout()), [&](auto i) {
    if (pred[i]) dst[i] = src[i];
  });
}

}  // namespace tessera
