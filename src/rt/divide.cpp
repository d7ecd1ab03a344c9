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
// The rule, point by point: r(c) == A_ext((tile, rest)(c)) at every coordinate, A_ext reading
// A's last mode continued, or (when that mode has size 1) its last mode of size > 1. Returns
// the first index where A's own reading fails, or -1 when one of the readings holds.
std::int64_t inconsistent_index(const Layout& l, const Layout& tile_rest, const Layout& r) {
  const std::span<const std::int64_t> s = l.shape.leaf_values(), d = l.stride.leaf_values();
  const std::int64_t own = first_mismatch(r, tile_rest, [&](std::int64_t ro, std::int64_t bo) {
    return ro == evaluate_extended(s, d, bo);
  });
  if (own < 0 || s.back() != 1) return own;
  std::size_t n = s.size();
  while (n > 1 && s[n - 1] == 1) --n;
  if (s[n - 1] == 1) return own;  // every mode has size 1: A's own last mode continues
  const bool skipped = first_mismatch(r, tile_rest, [&](std::int64_t ro, std::int64_t bo) {
                         return ro == evaluate_extended(s.first(n), d.first(n), bo);
                       }) < 0;
  return skipped ? -1 : own;
}
}  // namespace

// CuTe's logical_divide by a layout: A o (B, complement(B, size(A))). Each of the two modes
// is composed with A on its own, which is make_layout(A o B, A o complement): the trace shows
// those two compositions. The rule is checked on the whole result: where the parts' digits
// are disjoint in coalesce_x(A) (the common case, O(rank)), A's own reading holds; otherwise
// point by point.
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
  Ints cs, cd;
  Usage usage(0);
  Layout r;
  if (scope) {
    r = make_layout({composition_part_traced(l, t, usage), composition_part_traced(l, rest, usage)});
  } else {
    coalesce_x_modes(l, cs, cd);
    usage.digits.assign(cs.size(), 0);
    r = composition_of_pair(Flat{cs, cd}, t, rest, usage);
  }
  {
    // The admissibility check: not a step of the derivation.
    const TraceMute mute;
    if (scope) coalesce_x_modes(l, cs, cd);
    std::size_t carry = npos;
    for (std::size_t i = 0; i + 1 < cs.size() && carry == npos && !usage.pointwise; ++i)
      if (usage.digits[i] > cs[i] - 1) carry = i;
    if (usage.pointwise || carry != npos) {
      const Layout tile_rest = make_layout({t, rest});
      const std::int64_t i = inconsistent_index(l, tile_rest, r);
      if (i >= 0)
        throw Error("inadmissible logical_divide: the tile " + to_string(t) + " and the rest " + to_string(rest) +
                    " (its complement up to size " + str(l.size()) + ") " +
                    (carry != npos ? "carry into each other in the mode " + str(cs[carry]) + ":" + str(cd[carry]) +
                                         " of " + to_string(l)
                                   : "do not compose with " + to_string(l) + " as A o (tile, rest) (at index " +
                                         str(i) + " of (tile, rest))") +
                    ", so the result would leave A's domain inconsistently: it must equal A o (tile, rest) "
                    "with A's last mode (or, if it has size 1, its last mode of size > 1) continued without bound "
                    "(docs/notation.md, logical_divide)");
    }
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
