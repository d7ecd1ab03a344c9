// The divide family: logical_divide(A, B) = A o (B, complement(B, size(A))) with its
// admissibility rule, and the zipped, tiled and flat forms (shared with the product family).
#include "tessera/rt/algebra.hpp"

#include <optional>
#include <utility>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

namespace {

// logical_divide(A, B) = A o (B, complement(B, size(A))). The pair (tile, rest) may run
// past size(A) (a tiler that does not divide A, or strides that push its cosize beyond);
// CuTe then reads A beyond its domain: A_ext, A with its last mode continued without bound.
// CuTe composes the tile and the rest each on its own, so its result is A_ext o (tile, rest)
// only when a tile offset plus a rest offset never carries in A's other modes; otherwise it
// leaves A's domain inconsistently. That is the divide's admissibility rule (refused, as
// inadmissible compositions are). A last mode of size 1 has nothing to continue: there A's
// last mode of size > 1 may be the one continued instead (CuTe's walk keeps a part that fits
// inside that mode linear in it: a CuTe vector relies on it), and either reading admits.
namespace {
// Does composing (tile, rest) mode by mode with the flat A `fa` put digits that carry in a
// mode of fa other than the last? (A's last mode is unbounded: no carry out of it.)
std::size_t carrying_mode(const Flat& fa, const Layout& tile, const Layout& rest) {
  Ints usage(fa.rank(), 0);
  compose_usage(fa, tile.shape, tile.stride, usage);
  compose_usage(fa, rest.shape, rest.stride, usage);
  for (std::size_t i = 0; i + 1 < fa.rank(); ++i)
    if (usage[i] > fa.s[i] - 1) return i;
  return npos;
}
// The same divide read with A's trailing size-1 modes removed: its last mode of size > 1
// continues. True when that reading holds and gives CuTe's result r.
bool consistent_without_trailing_unit_modes(const Layout& l, const Layout& tile_rest, const Layout& r) {
  Ints s(l.shape.leaf_values()), d(l.stride.leaf_values());
  if (s.back() != 1) return false;  // the same reading as A's own last mode
  while (s.size() > 1 && s.back() == 1) s.pop_back(), d.pop_back();
  if (s.back() == 1) return false;  // every mode has size 1: A's own last mode continues
  try {
    const Layout c = coalesce(layout_of(s, d));
    const Flat fc = flat_of(c);
    if (carrying_mode(fc, tile_rest.mode(0), tile_rest.mode(1)) != npos) return false;
    Ints usage(fc.rank(), 0);
    return coalesce(compose_tree(fc, tile_rest.shape, tile_rest.stride, usage)) == coalesce(r);
  } catch (const Error&) {
    return false;
  }
}
}  // namespace

// CuTe's logical_divide by a layout: A o (B, complement(B, size(A))). Each of the two modes
// is composed with A on its own (composition_impl's per_top_mode rule), which is
// make_layout(A o B, A o complement): the trace shows those two compositions.
Layout divide_by_layout(const Layout& l, const Layout& t) {
  TraceScope scope("logical_divide");
  if (scope) {
    scope.expr(call_text("logical_divide", to_string(l), to_string(t)));
    scope.note("rule", "A o (B, complement(B, size(A))): the tile B and the rest that repeats it over A");
    scope.note("size(A)", str(l.size()));
  }
  const Layout rest = complement(t, l.size());
  // (B, complement) is a layout: its size must fit (as make_layout checks it, which the trace
  // shows; untraced, its two parts are used as they are).
  if (scope) {
    scope.note("concatenation (B, complement)", to_string(make_layout({t, rest})), true);
    scope.note("composition", "A o (B, complement), each mode composed with A on its own");
  } else {
    (void)checked_mul(t.size(), rest.size(), "size");
  }
  // Each part on its own: composition's own rules (traced, as the two compositions eval spells).
  // Untraced, A's coalesce_x is made once, for the composition and for the check below.
  Ints cs, cd;
  const bool coalesced = !scope;
  if (coalesced) coalesce_x_modes(l, cs, cd);
  Layout r = scope ? make_layout({composition(l, t), composition(l, rest)})
                   : composition_of_pair(Flat{cs, cd}, l, t, rest);
  {
    // The admissibility check composes again: not steps of the derivation.
    const TraceMute mute;
    if (!coalesced) coalesce_x_modes(l, cs, cd);
    const Flat fa{cs, cd};
    const std::size_t i = carrying_mode(fa, t, rest);
    if (i != npos && !consistent_without_trailing_unit_modes(l, make_layout({t, rest}), r))
      throw Error("inadmissible logical_divide: the tile " + to_string(t) + " and the rest " + to_string(rest) +
                  " (its complement up to size " + str(l.size()) + ") carry into each other in the mode " +
                  str(fa.s[i]) + ":" + str(fa.d[i]) + " of " + to_string(l) +
                  ", so the result would leave A's domain inconsistently: it must equal A o (tile, rest) "
                  "with A's last mode (or, if it has size 1, its last mode of size > 1) continued without bound "
                  "(docs/notation.md, logical_divide)");
  }
  return traced(scope, std::move(r));
}

// A layout written out part by part, as its nesting (shape and stride share it) and both sets
// of leaves: parts of another layout are copied in by their place in its nesting.
struct LayoutSpelling {
  SmallVector<char, 24> nesting;
  Ints shape, stride;
  void open() { nesting.push_back(IntTuple::kOpen); }
  void close() { nesting.push_back(IntTuple::kClose); }
  // x's part with the nesting [begin, end) and the leaves [leaf_begin, leaf_end).
  void append(const Layout& x, std::size_t begin, std::size_t end, std::size_t leaf_begin, std::size_t leaf_end) {
    nesting.append(x.shape.nesting().data() + begin, end - begin);
    shape.append(x.shape.leaf_values().data() + leaf_begin, leaf_end - leaf_begin);
    stride.append(x.stride.leaf_values().data() + leaf_begin, leaf_end - leaf_begin);
  }
  Layout layout() const {
    const std::string_view n(nesting.data(), nesting.size());
    return Layout(IntTuple::from_nesting(n, shape), IntTuple::from_nesting(n, stride));
  }
};

// The number of modes of the tuple that opens at nesting[pos].
std::size_t rank_at(std::string_view n, std::size_t pos) {
  std::size_t r = 0, leaf = 0;
  for (++pos; n[pos] != IntTuple::kClose; ++r) pos = IntTuple::mode_end(n, pos, leaf);
  return r;
}

// x's part at [begin, end) as a tuple, for messages.
IntTuple shape_part(const Layout& x, std::size_t begin, std::size_t end, std::size_t leaf_begin, std::size_t leaf_end) {
  return IntTuple::from_nesting(x.shape.nesting().substr(begin, end - begin),
                                x.shape.leaf_values().subspan(leaf_begin, leaf_end - leaf_begin));
}

// zip2_by: at each terminal of the tiler the layout has a (tile, rest) pair; gather
// the tiles into mode 0 and the rests (then the modes the tiler did not reach) into mode 1.
// This is the mode of x at nesting[pos] (its leaves from `leaf`), both moved past it; shape
// and stride are read together (they share their nesting).
void zip2_by(const Layout& x, std::size_t& pos, std::size_t& leaf, const Tiler& g, LayoutSpelling& first,
             LayoutSpelling& second) {
  const std::string_view n = x.shape.nesting();
  const std::size_t begin = pos, leaf_begin = leaf;
  const bool tuple = n[pos] == IntTuple::kOpen;
  const std::size_t rank = tuple ? rank_at(n, pos) : 1;
  if (!tuple || (g.is_layout ? rank != 2 : rank < g.rank())) {
    std::size_t end_leaf = leaf;
    const std::size_t end = IntTuple::mode_end(n, pos, end_leaf);
    const std::string part = to_string(shape_part(x, begin, end, leaf_begin, end_leaf));
    if (g.is_layout) throw Error("internal: expected a (tile,rest) pair, got " + part);
    throw Error("internal: tiler " + to_string(g) + " does not match " + part);
  }
  ++pos;  // '('
  if (!g.is_layout) {
    first.open();
    second.open();
  }
  for (std::size_t i = 0; n[pos] != IntTuple::kClose; ++i) {
    if (!g.is_layout && i < g.rank()) {
      zip2_by(x, pos, leaf, g.elems[i], first, second);
      continue;
    }
    const std::size_t b = pos, l = leaf;
    pos = IntTuple::mode_end(n, pos, leaf);
    (g.is_layout && i == 0 ? first : second).append(x, b, pos, l, leaf);
  }
  ++pos;  // ')'
  if (!g.is_layout) {
    first.close();
    second.close();
  }
}

// The modes of z = (tiles, rests): each kept whole or, where asked and it is a tuple of rank
// > 1, unpacked into top-level modes (CuTe slices with repeat<R>(_), and repeat<1>(_) is a
// plain _). Its parts keep their places: unpacking drops a pair of parentheses.
Layout unpack(const Layout& z, bool first, bool second) {
  const std::string_view n = z.shape.nesting();
  LayoutSpelling out;
  out.open();
  std::size_t pos = 1, leaf = 0;
  for (const bool unpacked : {first, second}) {
    const std::size_t b = pos, l = leaf;
    pos = IntTuple::mode_end(n, pos, leaf);
    if (unpacked && n[b] == IntTuple::kOpen && rank_at(n, b) > 1) out.append(z, b + 1, pos - 1, l, leaf);
    else out.append(z, b, pos, l, leaf);
  }
  out.close();
  return out.layout();
}

}  // namespace

namespace detail {

void check_tiler_rank(const Layout& l, const Tiler& t, const char* op) {
  if (!t.is_layout && t.rank() > l.rank())
    throw Error(std::string(op) + ": the tiler " + to_string(t) + " has more modes (" + str(t.rank()) +
                ") than the layout " + to_string(l) + " (" + str(l.rank()) + ")");
}

}  // namespace detail

Layout tile_unzip(const Layout& l, const Tiler& t) {
  LayoutSpelling tiles, rests;
  std::size_t pos = 0, leaf = 0;
  zip2_by(l, pos, leaf, t, tiles, rests);
  ModeList halves;  // make_layout(tiles, rests), each checked as a layout first
  halves.push_back(tiles.layout());
  halves.push_back(rests.layout());
  Layout r = std::move(halves).layout();
  if (tracing()) trace_note("zip: the tiles into mode 0, the rests into mode 1", to_string(r), true);
  return r;
}

Layout logical_divide(const Layout& l, const Tiler& t) {
  if (t.is_layout) return divide_by_layout(l, t.layout);
  TraceScope scope("logical_divide");
  if (scope) {
    scope.expr(call_text("logical_divide", to_string(l), tiler_text(t)));
    scope.note("by mode", "mode i of A divided by the tiler's i-th layout; modes past the tiler's rank kept");
  }
  check_tiler_rank(l, t, "logical_divide");
  ModeList modes;
  std::size_t i = 0;
  l.for_each_mode([&](const Layout& m) {
    modes.push_back(i < t.rank() ? logical_divide(m, t.elems[i]) : m);
    ++i;
  });
  return traced(scope, std::move(modes).layout());
}

namespace detail {
// The zipped/tiled/flat forms: the logical form (divide or product), zipped, then unpacked.
Layout zipped_form(const char* op, const char* logical, Layout (*f)(const Layout&, const Tiler&), const Layout& l,
                   const Tiler& t) {
  TraceScope scope(op);
  if (scope) {
    scope.expr(call_text(op, to_string(l), tiler_text(t)));
    scope.note("rule", std::string(logical) + ", then the (tile, rest) pairs of each mode zipped into ((tiles),(rests))");
  }
  return traced(scope, tile_unzip(f(l, t), t));
}
Layout unpacked_form(const char* op, const char* zipped, Layout (*f)(const Layout&, const Tiler&), bool first,
                     const Layout& l, const Tiler& t) {
  TraceScope scope(op);
  if (scope) {
    scope.expr(call_text(op, to_string(l), tiler_text(t)));
    scope.note("rule", std::string(zipped) + (first ? ", both modes unpacked into top-level modes"
                                                    : ", the rest mode unpacked into top-level modes"));
  }
  return traced(scope, unpack(f(l, t), first, true));
}
}  // namespace detail

Layout zipped_divide(const Layout& l, const Tiler& t) {
  return zipped_form("zipped_divide", "logical_divide", logical_divide, l, t);
}
Layout tiled_divide(const Layout& l, const Tiler& t) {
  return unpacked_form("tiled_divide", "zipped_divide", zipped_divide, false, l, t);
}
Layout flat_divide(const Layout& l, const Tiler& t) {
  return unpacked_form("flat_divide", "zipped_divide", zipped_divide, true, l, t);
}

}  // namespace tessera::rt
