#include "tessera/rt/tiled.hpp"

#include <utility>
#include <vector>

#include "tessera/rt/algebra.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"

namespace tessera::rt {

namespace {

using rt::Layout;
using rt::Tiler;

Layout col_major(std::vector<rt::IntTuple> shape) { return Layout::column_major(rt::IntTuple::tuple(std::move(shape))); }
Layout modes(std::vector<Layout> m) { return rt::make_layout(m); }
Tiler unit_tiler(std::int64_t a, std::int64_t b) {
  return Tiler::of_tuple({Tiler::of_layout(Layout(a, 1)), Tiler::of_layout(Layout(b, 1))});
}

// composition(l, (x, _)): mode 0 composed with x, mode 1 kept.
Layout compose_mode0(const Layout& l, const Layout& x) { return modes({rt::composition(l.mode(0), x), l.mode(1)}); }

// The operand whose tile modes are (i0, i1) of (M,N,K): steps 1-4 of tiled_mma.hpp.
Layout thrfrg(const TiledMma& t, int i0, int i1, const Layout& atom_tv, const Layout& l) {
  if (l.rank() < 2) throw rt::Error("a tiled MMA partitions layouts with (at least) two modes");
  const std::int64_t ext[3] = {t.atom->m, t.atom->n, t.atom->k};
  // 1. permute (logical_divide by mode; `_` keeps the mode)
  std::vector<Layout> m;
  for (std::size_t i = 0; i < l.rank(); ++i) {
    const int which = i == 0 ? i0 : i == 1 ? i1 : -1;
    if (which >= 0 && t.perm[which]) m.push_back(rt::logical_divide(l.mode(i), Tiler::of_layout(*t.perm[which])));
    else m.push_back(l.mode(i));
  }
  Layout permuted = modes(m);
  // 2. atom tiles ((Atom0,Atom1),(Rest0,Rest1))
  Layout atom_tiles = rt::zipped_divide(permuted, unit_tiler(ext[i0], ext[i1]));
  // 3. the atom's TV layout on the atom mode
  Layout tv = compose_mode0(atom_tiles, atom_tv);
  // 4. divide the rest by the atom layout's extents: ((ThrV,(T0,T1)),(FrgV,(R0,R1)))
  const std::int64_t thr[3] = {t.thr_layout_vmnk.mode(1).size(), t.thr_layout_vmnk.mode(2).size(),
                               t.thr_layout_vmnk.mode(3).size()};
  Layout rest = rt::zipped_divide(tv.mode(1), unit_tiler(thr[i0], thr[i1]));
  Layout m0 = tv.mode(0);
  return modes({modes({m0.mode(0), rest.mode(0)}), modes({m0.mode(1), rest.mode(1)})});
}

// (v,m,n,k) coordinate index -> index in (V, T0, T1), the third mode of (m,n,k) dropped.
Layout drop_mode(const TiledMma& t, int i0, int i1) {
  const Layout& vmnk = t.thr_layout_vmnk;
  const std::int64_t V = vmnk.mode(0).size();
  const std::int64_t T0 = vmnk.mode(std::size_t(i0) + 1).size();
  std::vector<rt::IntTuple> shape, stride;
  for (int j = 0; j < 4; ++j) {
    shape.push_back(vmnk.mode(std::size_t(j)).size());
    std::int64_t s = 0;
    if (j == 0) s = 1;
    else if (j == i0 + 1) s = V;
    else if (j == i1 + 1) s = V * T0;
    stride.push_back(s);
  }
  return Layout(rt::IntTuple::tuple(shape), rt::IntTuple::tuple(stride));
}

// thread index -> index in (V, T0, T1)
Layout thridx(const TiledMma& t, int i0, int i1) {
  return rt::composition(drop_mode(t, i0, i1), rt::right_inverse(t.thr_layout_vmnk));
}

Layout layout_tv(const TiledMma& t, int i0, int i1, const Layout& atom_tv) {
  Layout ref = col_major({t.tile[i0], t.tile[i1]});
  return compose_mode0(thrfrg(t, i0, i1, atom_tv, ref), thridx(t, i0, i1));
}
Layout layout_athr(const TiledMma& t, int i0, int i1, const Layout& atom_tv) {
  Layout ref = col_major({t.tile[i0], t.tile[i1]});
  return compose_mode0(thrfrg(t, i0, i1, atom_tv, ref), drop_mode(t, i0, i1));
}

}  // namespace

TiledMma make_tiled_mma(const MmaAtomInfo& atom, const rt::Layout& atom_layout_mnk, const Permutation& perm) {
  if (atom_layout_mnk.rank() != 3) throw rt::Error("the atom layout must have three modes (M,N,K)");
  TiledMma t;
  t.atom = &atom;
  t.atom_layout = atom_layout_mnk;
  t.perm = perm;
  t.thr_layout_vmnk = rt::tiled_product(atom.thr_id, Tiler::of_layout(atom_layout_mnk));
  const std::int64_t ext[3] = {atom.m, atom.n, atom.k};
  const char* name[3] = {"M", "N", "K"};
  for (int i = 0; i < 3; ++i) {
    const std::int64_t natural = ext[i] * atom_layout_mnk.mode(std::size_t(i)).size();
    if (perm[i]) {
      t.tile[i] = perm[i]->size();
      if (t.tile[i] % natural != 0)
        throw rt::Error(std::string("the ") + name[i] + " permutation covers " + std::to_string(t.tile[i]) +
                        " elements, not a multiple of atom extent x atoms = " + std::to_string(natural));
    } else {
      t.tile[i] = natural;
    }
  }
  t.layout_a_tv = layout_tv(t, 0, 2, atom.a_tv);
  t.layout_b_tv = layout_tv(t, 1, 2, atom.b_tv);
  t.layout_c_tv = layout_tv(t, 0, 1, atom.c_tv);
  t.layout_a_athr = layout_athr(t, 0, 2, atom.a_tv);
  t.layout_b_athr = layout_athr(t, 1, 2, atom.b_tv);
  t.layout_c_athr = layout_athr(t, 0, 1, atom.c_tv);
  return t;
}

CopyAtomView copy_atom_view(const CopyAtomInfo& atom, int element_bits) {
  if (element_bits <= 0 || (element_bits & (element_bits - 1)) != 0 || element_bits > 128)
    throw rt::Error("element width must be a power of two from 1 to 128 bits, not " + std::to_string(element_bits));
  const std::int64_t atom_bits = atom.src_bits.mode(1).size();
  if (atom_bits % element_bits != 0)
    throw rt::Error(atom.name + " moves " + std::to_string(atom_bits) + " bits per thread, not a multiple of " +
                    std::to_string(element_bits) + "-bit elements");
  CopyAtomView v;
  v.atom = &atom;
  v.bits = element_bits;
  v.src = rt::upcast(atom.src_bits, element_bits);
  v.dst = rt::upcast(atom.dst_bits, element_bits);
  v.ref = rt::upcast(atom.ref_bits, element_bits);
  return v;
}

namespace {
Layout tile2thrfrg(const TiledCopy& c, const Layout& zipped, const Layout& ref2trg) {
  const std::int64_t atom_thr = c.atom.ref.mode(0).size(), atom_val = c.atom.ref.mode(1).size();
  // ((atom thread, atom value), (repeat thread, repeat value)) -> tile index
  Layout atom_tv = rt::zipped_divide(c.layout_tv, unit_tiler(atom_thr, atom_val));
  Layout trg = compose_mode0(atom_tv, ref2trg);
  // zip: ((a,b),(c,d)) -> ((a,c),(b,d)), then coalesce to (threads, (values, repeats))
  Layout zipped_tv = modes({modes({trg.mode(0).mode(0), trg.mode(1).mode(0)}),
                            modes({trg.mode(0).mode(1), trg.mode(1).mode(1)})});
  Layout thrval = rt::coalesce(zipped_tv, rt::IntTuple::tuple({1, rt::IntTuple::tuple({1, 1})}));
  Layout tv = compose_mode0(zipped, thrval);
  return modes({tv.mode(0).mode(0), tv.mode(0).mode(1), tv.mode(1)});
}
}  // namespace

rt::Layout TiledCopy::tidfrg_s(const rt::Layout& l) const {
  return tile2thrfrg(*this, rt::zipped_divide(l, Tiler::of_shape(tiler)),
                     rt::composition(rt::right_inverse(atom.ref), atom.src));
}
rt::Layout TiledCopy::tidfrg_d(const rt::Layout& l) const {
  return tile2thrfrg(*this, rt::zipped_divide(l, Tiler::of_shape(tiler)),
                     rt::composition(rt::right_inverse(atom.ref), atom.dst));
}

TiledCopy make_tiled_copy_impl(const CopyAtomView& atom, const rt::Layout& layout_tv, const rt::IntTuple& tiler) {
  TiledCopy c;
  c.atom = atom;
  c.layout_tv = layout_tv;
  c.tiler = tiler;
  const std::int64_t atom_thr = atom.ref.mode(0).size(), atom_val = atom.ref.mode(1).size();
  const std::int64_t thr = layout_tv.mode(0).size(), val = layout_tv.mode(1).size();
  if (thr % atom_thr != 0)
    throw rt::Error("the tiled copy has " + std::to_string(thr) + " threads, not a multiple of the atom's " +
                    std::to_string(atom_thr));
  if (val % atom_val != 0)
    throw rt::Error("each thread holds " + std::to_string(val) + " values, not a multiple of the atom's " +
                    std::to_string(atom_val) + " (" + atom.atom->name + " with " + std::to_string(atom.bits) +
                    "-bit elements)");
  Layout ref = Layout::column_major(tiler);
  Layout s = c.tidfrg_s(ref), d = c.tidfrg_d(ref);
  c.layout_s_tv = modes({s.mode(0), s.mode(1)});
  c.layout_d_tv = modes({d.mode(0), d.mode(1)});
  return c;
}

TiledCopy make_tiled_copy(const CopyAtomView& atom, const rt::Layout& thr_layout, const rt::Layout& val_layout) {
  Layout layout_mn = rt::raked_product(thr_layout, val_layout);
  Layout layout_tv = rt::composition(rt::right_inverse(layout_mn), col_major({thr_layout.size(), val_layout.size()}));
  std::vector<rt::IntTuple> tiler;
  for (std::size_t i = 0; i < layout_mn.rank(); ++i) tiler.push_back(layout_mn.mode(i).size());
  return make_tiled_copy_impl(atom, layout_tv, rt::IntTuple::tuple(tiler));
}

TiledCopy make_tiled_copy_for(const CopyAtomView& atom, const TiledMma& mma, char operand) {
  switch (operand) {
    case 'A': return make_tiled_copy_impl(atom, mma.layout_a_tv, rt::IntTuple::tuple({mma.tile[0], mma.tile[2]}));
    case 'B': return make_tiled_copy_impl(atom, mma.layout_b_tv, rt::IntTuple::tuple({mma.tile[1], mma.tile[2]}));
    case 'C': return make_tiled_copy_impl(atom, mma.layout_c_tv, rt::IntTuple::tuple({mma.tile[0], mma.tile[1]}));
    default: throw rt::Error(std::string("operand must be A, B or C, not '") + operand + "'");
  }
}

rt::Layout parse_atom_layout(const std::string& text) {
  std::vector<rt::IntTuple> ext;
  std::size_t i = 0;
  while (true) {
    std::size_t start = i;
    std::int64_t v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + (text[i] - '0');
      if (v > (1 << 20)) throw rt::Error("atom count too large", start);
      ++i;
    }
    if (i == start) throw rt::Error("expected a number of atoms (MxNxK, e.g. 2x2x1)", i);
    if (v == 0) throw rt::Error("the number of atoms must be positive", start);
    ext.push_back(v);
    if (i == text.size()) break;
    if (text[i] != 'x' && text[i] != 'X') throw rt::Error("expected 'x' between atom counts (MxNxK, e.g. 2x2x1)", i);
    ++i;
  }
  if (ext.size() == 2) ext.push_back(1);
  if (ext.size() != 3) throw rt::Error("give two or three atom counts: MxN or MxNxK", 0);
  return Layout::column_major(rt::IntTuple::tuple(ext));
}

Permutation parse_permutation(const std::string& text) {
  // Split "( a , b , c )" at top-level commas.
  std::size_t open = text.find_first_not_of(" \t");
  if (open == std::string::npos || text[open] != '(')
    throw rt::Error("a permutation is (M,N,K) with one entry per mode: _, N, or a layout", open == std::string::npos ? 0 : open);
  std::size_t close = text.find_last_not_of(" \t");
  if (text[close] != ')') throw rt::Error("missing ')' at the end of the permutation", close);
  std::vector<std::pair<std::size_t, std::size_t>> parts;  // [begin, end)
  int depth = 0;
  std::size_t begin = open + 1;
  for (std::size_t i = open + 1; i < close; ++i) {
    if (text[i] == '(' || text[i] == '<') ++depth;
    else if (text[i] == ')' || text[i] == '>') --depth;
    else if (text[i] == ',' && depth == 0) {
      parts.emplace_back(begin, i);
      begin = i + 1;
    }
    if (depth < 0) throw rt::Error("unbalanced ')'", i);
  }
  parts.emplace_back(begin, close);
  if (parts.size() > 3) throw rt::Error("a permutation has at most three entries (M,N,K)", parts[3].first);
  Permutation p;
  for (std::size_t m = 0; m < parts.size(); ++m) {
    auto [b, e] = parts[m];
    std::string entry = text.substr(b, e - b);
    std::size_t f = entry.find_first_not_of(" \t"), l = entry.find_last_not_of(" \t");
    if (f == std::string::npos) throw rt::Error("empty permutation entry: write _ for none", b);
    entry = entry.substr(f, l - f + 1);
    if (entry == "_") continue;
    rt::Value v;
    try {
      v = rt::evaluate(entry);
    } catch (const rt::Error& err) {
      throw rt::Error(err.what(), b + f + (err.pos() == rt::npos ? 0 : err.pos()));
    }
    if (v.kind() == rt::Value::Kind::IntTuple && v.tuple().is_leaf()) p[m] = Layout(v.tuple().value(), 1);
    else if (v.kind() == rt::Value::Kind::Layout) p[m] = v.layout();
    else throw rt::Error("a permutation entry is _, an integer N (N:1) or a layout, not " + rt::describe(v), b + f);
    if (p[m]->size() <= 0) throw rt::Error("a permutation entry must cover at least one element", b + f);
  }
  return p;
}

}  // namespace tessera::rt
