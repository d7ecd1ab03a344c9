// Tiled MMA and tiled copy on runtime values: the same algebra as
// include/tessera/tiled_mma.hpp and tiled_copy.hpp, step for step, on rt::Layout, for
// the CLI's --atoms / --permute / --threads / --values.  tests/atoms checks that both
// tiers give the same layouts.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/layout.hpp"

namespace tessera::rt {

// One permutation entry per mode: nullopt is `_` (atom extent x number of atoms, unpermuted).
using Permutation = std::array<std::optional<rt::Layout>, 3>;

struct TiledMma {
  const MmaAtomInfo* atom = nullptr;
  rt::Layout atom_layout;      // (M,N,K) atoms -> atom index
  Permutation perm;
  rt::Layout thr_layout_vmnk;  // (V,M,N,K) -> thread index
  std::array<std::int64_t, 3> tile{};  // M, N, K of the whole tile
  rt::Layout layout_a_tv, layout_b_tv, layout_c_tv;  // (thread index, value) -> tile index
  // The same over atom-thread ids (the colexicographic index of (v,m,n,k) in thr_layout_vmnk),
  // whose thread index is thr_layout_vmnk(id). CuTe's thread-index maps above re-index by
  // right_inverse(thr_layout_vmnk), which covers only its contiguous prefix: for one SM70
  // quad-pair (lanes 0-3, 16-19) they show lanes 0-3. Diagrams use these to draw every lane.
  rt::Layout layout_a_athr, layout_b_athr, layout_c_athr;
  std::int64_t num_threads() const { return thr_layout_vmnk.size(); }
};

// Throws rt::Error with a message when the atom layout or permutation does not fit.
TiledMma make_tiled_mma(const MmaAtomInfo& atom, const rt::Layout& atom_layout_mnk, const Permutation& perm = {});

struct CopyAtomView {
  const CopyAtomInfo* atom = nullptr;
  int bits = 16;                    // element width
  rt::Layout src, dst, ref;         // (thread, value) -> element index
};
CopyAtomView copy_atom_view(const CopyAtomInfo& atom, int element_bits);

struct TiledCopy {
  CopyAtomView atom;
  rt::Layout layout_tv;      // (thread, value) -> tile index, reference side
  rt::IntTuple tiler;        // (M, N)
  rt::Layout layout_s_tv, layout_d_tv;
  std::int64_t num_threads() const { return layout_tv.shape.rank() ? layout_tv.mode(0).size() : 1; }
  // (thread, (values), (rest tiles)) of any layout over the tile's modes.
  rt::Layout tidfrg_s(const rt::Layout& l) const;
  rt::Layout tidfrg_d(const rt::Layout& l) const;
};

TiledCopy make_tiled_copy(const CopyAtomView& atom, const rt::Layout& thr_layout, const rt::Layout& val_layout);
TiledCopy make_tiled_copy_impl(const CopyAtomView& atom, const rt::Layout& layout_tv, const rt::IntTuple& tiler);
// operand: 'A', 'B' or 'C'.
TiledCopy make_tiled_copy_for(const CopyAtomView& atom, const TiledMma& mma, char operand);

// "2x2x1" or "2x2" (K = 1) -> column-major atom layout. Throws rt::Error(msg, pos).
rt::Layout parse_atom_layout(const std::string& text);
// "(_, (8,2,2):(1,16,8), _)" or "(32,16,_)": one entry per mode, `_` = none, N = N:1.
Permutation parse_permutation(const std::string& text);

}  // namespace tessera::rt
