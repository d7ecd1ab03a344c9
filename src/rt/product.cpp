// The product family: logical_product(A, B) = (A, complement(A, size(A)*cosize(B)) o B),
// its zipped, tiled and flat forms, and blocked_product and raked_product.
#include "tessera/rt/algebra.hpp"

#include <algorithm>

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

Layout logical_product(const Layout& block, const Tiler& t) {
  TraceScope scope("logical_product");
  if (scope) scope.expr(call_text("logical_product", to_string(block), tiler_text(t)));
  if (t.is_layout) {
    if (scope) scope.note("rule", "(A, complement(A, size(A)*cosize(B)) o B): A, then B's layout of copies of A");
    const std::int64_t target = checked_mul(block.size(), t.layout.cosize(), "logical_product");
    if (scope)
      scope.note("size(A)*cosize(B)", str(block.size()) + "*" + str(t.layout.cosize()) + " = " + str(target));
    ModeList modes;  // make_layout(A, ...), A not copied twice
    modes.push_back(block);
    modes.push_back(composition(complement(block, target), t.layout));
    return traced(scope, std::move(modes).layout());
  }
  if (scope) scope.note("by mode", "mode i of A times the tiler's i-th layout; modes past the tiler's rank kept");
  check_tiler_rank(block, t, "logical_product");
  ModeList modes;
  std::size_t i = 0;
  block.for_each_mode([&](const Layout& m) {
    modes.push_back(i < t.rank() ? logical_product(m, t.elems[i]) : m);
    ++i;
  });
  return traced(scope, std::move(modes).layout());
}

Layout zipped_product(const Layout& block, const Tiler& t) {
  return zipped_form("zipped_product", "logical_product", logical_product, block, t);
}
Layout tiled_product(const Layout& block, const Tiler& t) {
  return unpacked_form("tiled_product", "zipped_product", zipped_product, false, block, t);
}
Layout flat_product(const Layout& block, const Tiler& t) {
  return unpacked_form("flat_product", "zipped_product", zipped_product, true, block, t);
}

namespace detail {

// append<R>: pad with 1:0 modes up to rank R (an integer layout stays one when R == 1).
Layout pad_to_rank(const Layout& l, std::size_t R) {
  if (l.rank() == R) return l;
  ModeList modes;
  l.for_each_mode([&](const Layout& m) { modes.push_back(m); });
  while (modes.size() < R) modes.push_back(Layout(IntTuple(1), IntTuple(0)));
  return std::move(modes).layout();
}

}  // namespace detail

namespace {

IntTuple zip_tuples(const IntTuple& a, const IntTuple& b) {
  if (a.is_leaf()) return IntTuple::tuple({IntTuple::tuple({a, b})});  // CuTe: zip of two integers is ((a,b))
  IntTuple out = IntTuple::tuple({});
  std::size_t i = 0;
  for (const IntTuple& ai : a.elems()) out.push_back(IntTuple::tuple({ai, b[i++]}));
  return out;
}

Layout zip_layouts(const Layout& a, const Layout& b) {
  return Layout(zip_tuples(a.shape, b.shape), zip_tuples(a.stride, b.stride));
}

// blocked_product (block modes first) and raked_product (tiler modes first).
Layout zipped_by_rank(const char* op, const Layout& block, const Layout& tiler, bool block_first) {
  TraceScope scope(op);
  if (scope) {
    scope.expr(call_text(op, to_string(block), to_string(tiler)));
    scope.note("rule", std::string("logical_product(A, B) of A and B padded to the same rank with 1:0 modes, then ") +
                           (block_first ? "mode i zipped as (A_i, copies_i)" : "mode i zipped as (copies_i, A_i)"));
  }
  const std::size_t R = std::max(block.rank(), tiler.rank());
  const Layout pb = pad_to_rank(block, R);
  Layout pt = pad_to_rank(tiler, R);
  if (scope && (pb != block || pt != tiler))
    scope.note("padded to rank " + str(static_cast<std::int64_t>(R)), to_string(pb) + " and " + to_string(pt));
  const Layout r = logical_product(pb, Tiler::of_layout(std::move(pt)));
  // CuTe's zip takes its modes from its first argument (the block for blocked_product, the copies
  // for raked_product) and needs each of them in the second: with fewer modes there, CuTe does
  // not compile. That happens when the tiler is an integer the composition splits into modes.
  const Layout& first = block_first ? r.mode(0) : r.mode(1);
  const Layout& second = block_first ? r.mode(1) : r.mode(0);
  if (!first.shape.is_leaf() && first.rank() > second.rank())
    throw Error(std::string(op) + ": " + (block_first ? "the block " : "the copies complement(A, size(A)*cosize(B)) o B = ") +
                to_string(first) + " ha" + (block_first ? "s " : "ve ") + str(static_cast<std::int64_t>(first.rank())) +
                " modes, and " + (block_first ? "the copies " : "the block ") + to_string(second) + " only " +
                str(static_cast<std::int64_t>(second.rank())) + ": " + op + " zips them mode by mode, taking the modes of " +
                (block_first ? "the block" : "the copies") + ", so each needs a partner (CuTe's zip does not compile "
                "either)");
  return traced(scope, zip_layouts(first, second));
}
}  // namespace

Layout blocked_product(const Layout& block, const Layout& tiler) {
  return zipped_by_rank("blocked_product", block, tiler, true);
}

Layout raked_product(const Layout& block, const Layout& tiler) {
  return zipped_by_rank("raked_product", block, tiler, false);
}

}  // namespace tessera::rt
