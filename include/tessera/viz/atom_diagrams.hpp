// Diagram inputs of tiled objects, shared by the CLI and the golden tests so both draw
// exactly the same thing. Header-only; needs tessera::viz.
#pragma once

#include <string>

#include "tessera/rt/tiled.hpp"
#include "tessera/rt/algebra.hpp"
#include "tessera/viz/build_copy.hpp"
#include "tessera/viz/build_mma.hpp"

namespace tessera::viz {

// The thread-index TV layouts (as --print-layouts prints them) when the thread layout
// covers 0..size-1; otherwise (one SM70 quad-pair) the atom-thread-id layouts with every
// cell labelled by its lane, so no lane is lost. Operands the atom reads from shared memory
// are drawn as the smem tile of `smem` (major and swizzle; the width is the operand's),
// by default K-major with the 128-byte swizzle.
inline viz::MmaTvLayouts mma_tv_layouts(const rt::TiledMma& t, std::string name,
                                        analysis::GmmaAtomSpec smem = analysis::GmmaAtomSpec{}) {
  viz::MmaTvLayouts l{std::move(name), t.layout_a_tv, t.layout_b_tv, t.layout_c_tv, t.tile[0], t.tile[1], t.tile[2], {},
                     rt::product(t.thr_layout_vmnk.shape[0])};
  if (t.atom) {
    l.warp_lanes = t.atom->wave_size;
    l.atom_m = t.atom->m;
    l.atom_n = t.atom->n;
    l.atom_k = t.atom->k;
    if (t.atom->a_smem) l.a_smem = analysis::GmmaAtomSpec{t.atom->a_bits, smem.major, smem.swizzle_bytes};
    if (t.atom->b_smem) l.b_smem = analysis::GmmaAtomSpec{t.atom->b_bits, smem.major, smem.swizzle_bytes};
  }
  if (rt::right_inverse(t.thr_layout_vmnk).size() != t.thr_layout_vmnk.size()) {
    l.a_tv = t.layout_a_athr;
    l.b_tv = t.layout_b_athr;
    l.c_tv = t.layout_c_athr;
    const rt::Layout vmnk = t.thr_layout_vmnk;
    l.thread_id = [vmnk](std::int64_t id) { return vmnk(id); };
    l.atom_threads = 0;  // lanes, not atom-major thread indices
  }
  return l;
}

inline viz::CopyTvLayouts copy_tv_layouts(const rt::TiledCopy& c, std::string name) {
  const std::int64_t M = rt::product(c.tiler[0]), N = c.tiler.rank() > 1 ? rt::product(c.tiler[1]) : 1;
  return viz::CopyTvLayouts{std::move(name), c.layout_s_tv, c.layout_d_tv, rt::IntTuple::tuple({M, N})};
}

}  // namespace tessera::viz
