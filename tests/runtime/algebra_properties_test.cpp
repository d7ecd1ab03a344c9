// Defining post-conditions of each runtime operation, on generated layouts
// (RC_PARAMS from ctest: 2000 cases per property).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "generators.hpp"
#include "tessera/rt/algebra.hpp"
#include "tessera/rt/eval.hpp"

using namespace tessera::rt;
using namespace tessera::rt::testing;

namespace {
// A with its last (flat) mode continued without bound: how CuTe reads A past size(A).
// skip_unit_tail: continue A's last mode of size > 1 instead (trailing size-1 modes removed).
std::int64_t eval_extended(const Layout& a, std::int64_t x, bool skip_unit_tail = false) {
  auto s = leaves(a.shape), d = leaves(a.stride);
  if (skip_unit_tail)
    while (s.size() > 1 && s.back() == 1) s.pop_back(), d.pop_back();
  std::int64_t off = 0;
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    off += (x % s[k]) * d[k];
    x /= s[k];
  }
  return off + x * d.back();
}
Layout flat_layout(const std::vector<std::int64_t>& s, const std::vector<std::int64_t>& d) {
  std::vector<IntTuple> ts, td;
  for (std::size_t k = 0; k < s.size(); ++k) {
    ts.emplace_back(s[k]);
    td.emplace_back(d[k]);
  }
  return Layout(IntTuple::tuple(std::move(ts)), IntTuple::tuple(std::move(td)));
}
bool is_overlap_error(const Error& e) { return std::string(e.what()).find("overlap") != std::string::npos; }
}  // namespace

TEST_CASE("coalesce keeps size and function, flattens, and is idempotent", "[runtime][property]") {
  rc::prop("coalesce", [] {
    const Layout a = gen_layout();
    const Layout c = coalesce(a);
    RC_ASSERT(c.size() == a.size());
    RC_ASSERT(c.depth() <= 1);
    for (std::int64_t i = 0; i < a.size(); ++i) RC_ASSERT(c(i) == a(i));
    RC_ASSERT(coalesce(c) == c);
  });
  rc::prop("coalesce by profile keeps each mode's function", [] {
    const Layout a = gen_layout();
    const Layout c = coalesce(a, repeat_like(a.shape.is_leaf() ? a.shape : IntTuple::tuple(std::vector<IntTuple>(a.rank(), IntTuple(1))), 1));
    RC_ASSERT(c.rank() == a.rank());
    for (std::size_t m = 0; m < a.rank(); ++m)
      for (std::int64_t i = 0; i < a.mode(m).size(); ++i) RC_ASSERT(c.mode(m)(i) == a.mode(m)(i));
  });
}

TEST_CASE("filter keeps the image set and drops stride-0 modes", "[runtime][property]") {
  rc::prop("filter", [] {
    const Layout a = gen_layout();
    const Layout f = filter(a);
    const auto ia = image(a), ifl = image(f);
    RC_ASSERT(std::set<std::int64_t>(ia.begin(), ia.end()) == std::set<std::int64_t>(ifl.begin(), ifl.end()));
    if (f.size() > 1)
      for (auto d : leaves(f.stride)) RC_ASSERT(d != 0);
  });
}

TEST_CASE("composition: R(i) == A(B(i)); rejections are real", "[runtime][property]") {
  rc::prop("composition of arbitrary pairs", [] {
    const Layout a = gen_layout();
    const Layout b = gen_layout(2, 24);
    Layout r;
    try {
      r = composition(a, b);
    } catch (const OverflowError&) {
      RC_DISCARD("overflow");
    } catch (const Error& e) {
      RC_CLASSIFY(true, "rejected");
      if (!is_overlap_error(e)) return;
      // The carry rule fired: composing mode by mode (where each mode is admissible) is not A o B.
      std::vector<Layout> modes;
      try {
        for (std::size_t m = 0; m < b.rank(); ++m) modes.push_back(composition(a, b.mode(m)));
      } catch (const Error&) {
        return;
      }
      const Layout bym = b.shape.is_leaf() ? modes[0] : make_layout(modes);
      bool differs = false;
      for (std::int64_t i = 0; i < b.size() && !differs; ++i) differs = bym(i) != a(b(i));
      RC_ASSERT(differs);
      return;
    }
    RC_CLASSIFY(true, "admissible");
    RC_ASSERT(r.size() == b.size());
    for (std::int64_t i = 0; i < b.size(); ++i) RC_ASSERT(r(i) == a(b(i)));
  });
  rc::prop("composition with a compact right operand (mostly admissible)", [] {
    const Layout a = gen_layout();
    const Layout b = gen_injective(2, 1);  // a permuted column-major layout
    Layout r;
    try {
      r = composition(a, b);
    } catch (const Error&) {
      RC_DISCARD("inadmissible");
    }
    for (std::int64_t i = 0; i < b.size(); ++i) RC_ASSERT(r(i) == a(b(i)));
  });
  rc::prop("a tiler with fewer modes than A keeps only the modes it reaches (CuTe)", [] {
    const std::size_t r = *rc::gen::inRange<std::size_t>(2, 5);
    std::vector<Layout> modes;
    for (std::size_t i = 0; i < r; ++i) modes.push_back(gen_injective(1, 2));
    const Layout a = make_layout(modes);
    const std::size_t k = *rc::gen::inRange<std::size_t>(1, r);
    std::vector<Tiler> t;
    for (std::size_t i = 0; i < k; ++i)
      t.push_back(Tiler::of_shape(IntTuple(*rc::gen::inRange<std::int64_t>(1, modes[i].size() + 1))));
    Layout c;
    try {
      c = composition(a, Tiler::of_tuple(t));
    } catch (const Error&) {
      RC_DISCARD("inadmissible");
    }
    RC_ASSERT(c.rank() == k);
    for (std::size_t i = 0; i < k; ++i)
      for (std::int64_t j = 0; j < t[i].layout.size(); ++j) RC_ASSERT(c.mode(i)(j) == modes[i](j));
  });
}

TEST_CASE("complement is disjoint, ordered, and completes the layout", "[runtime][property]") {
  rc::prop("complement of an admissible injective layout", [] {
    const Layout a = gen_injective();
    const Layout f = filter(a);
    const std::int64_t k = *rc::gen::inRange<std::int64_t>(1, 4);
    // A cotarget that is a multiple of the layout's full span (largest stride * its shape).
    std::int64_t full = 1;
    {
      auto s = leaves(f.shape), d = leaves(f.stride);
      for (std::size_t i = 0; i < s.size(); ++i) full = std::max(full, s[i] * d[i]);
    }
    const std::int64_t cot = full * k;
    const Layout c = complement(a, cot);
    // ordered
    for (std::int64_t i = 1; i < c.size(); ++i) RC_ASSERT(c(i) > c(i - 1));
    // disjoint from the layout (except offset 0)
    const auto ia = image(a);
    const std::set<std::int64_t> sa(ia.begin(), ia.end());
    for (std::int64_t i = 1; i < c.size(); ++i) RC_ASSERT(sa.count(c(i)) == 0);
    // (A, complement) is a bijection onto [0, cot)
    const Layout both = make_layout({a, c});
    auto ib = image(both);
    std::sort(ib.begin(), ib.end());
    RC_ASSERT(static_cast<std::int64_t>(ib.size()) == f.size() * c.size());
    RC_ASSERT(std::adjacent_find(ib.begin(), ib.end()) == ib.end());
    RC_ASSERT(static_cast<std::int64_t>(ib.size()) == cot);
    RC_ASSERT(ib.front() == 0 && ib.back() == cot - 1);
  });
  rc::prop("complement rejects overlapping modes", [] {
    const Layout a = gen_injective(1, 1);
    RC_PRE(a.size() > 1);
    const Layout dup = make_layout({a, a});  // every offset twice
    RC_ASSERT_THROWS_AS(complement(dup), Error);
  });
}

TEST_CASE("inverses", "[runtime][property]") {
  rc::prop("L(right_inverse(L)(i)) == i", [] {
    const Layout a = gen_layout(2, 16);
    const Layout r = right_inverse(a);
    for (std::int64_t i = 0; i < r.size(); ++i) RC_ASSERT(a(r(i)) == i);
  });
  rc::prop("right_inverse of layouts whose modes share strides: L(R(i)) == i", [] {
    // Strides drawn from {1, 2, 4}: modes sharing a stride are common, and which one the
    // inverse follows is CuTe's exchange-sort choice (pinned by cute_edges.jsonl).
    const IntTuple s = gen_small_shape(1, 256);
    std::vector<std::int64_t> d(leaves(s).size());
    for (auto& x : d) x = std::int64_t{1} << *rc::gen::inRange(0, 3);
    const Layout a(s, unflatten(s, d));
    const Layout r = right_inverse(a);
    for (std::int64_t i = 0; i < r.size(); ++i) RC_ASSERT(a(r(i)) == i);
  });
  rc::prop("left_inverse(L)(L(i)) == i for injective L", [] {
    const Layout a = gen_injective();
    const Layout l = left_inverse(a);
    for (std::int64_t i = 0; i < a.size(); ++i) RC_ASSERT(l(a(i)) == i);
  });
}

TEST_CASE("divide family", "[runtime][property]") {
  rc::prop("logical_divide: mode 0 is A o B, the 1-D function is A o (B, B*)", [] {
    const Layout a = gen_layout();
    const Layout b = gen_injective(1, 2);
    RC_PRE(b.size() <= a.size());
    Layout d;
    try {
      d = logical_divide(a, Tiler::of_layout(b));
    } catch (const OverflowError&) {
      RC_DISCARD("overflow");
    } catch (const Error&) {
      RC_DISCARD("inadmissible");
    }
    RC_ASSERT(d.rank() == 2u);
    // A o B where B lands in A's domain; past A's size, what composition gives where it is
    // admissible (A's own reading there depends on how A is written: composed_properties_test)
    std::optional<Layout> ab;
    try {
      ab = composition(a, b);
    } catch (const Error&) {
    }
    for (std::int64_t i = 0; i < b.size(); ++i) {
      if (b(i) < a.size()) RC_ASSERT(d.mode(0)(i) == a(b(i)));
      if (ab) RC_ASSERT(d.mode(0)(i) == (*ab)(i));
    }
    const Layout z = zipped_divide(a, Tiler::of_layout(b));
    RC_ASSERT(z == d);
    // tiled/flat only regroup the leaves
    RC_ASSERT(leaves(tiled_divide(a, Tiler::of_layout(b)).shape) == leaves(z.shape));
    RC_ASSERT(leaves(flat_divide(a, Tiler::of_layout(b)).stride) == leaves(z.stride));
  });
  rc::prop("by-mode divide of a rank-2 layout by a shape covers the layout", [] {
    const std::int64_t m = *rc::gen::inRange<std::int64_t>(1, 5), n = *rc::gen::inRange<std::int64_t>(1, 5);
    const std::int64_t tm = *rc::gen::inRange<std::int64_t>(1, 4), tn = *rc::gen::inRange<std::int64_t>(1, 4);
    const Layout a = Layout::column_major(IntTuple::tuple({IntTuple(m * tm), IntTuple(n * tn)}));
    const Layout z = zipped_divide(a, Tiler::of_shape(IntTuple::tuple({IntTuple(tm), IntTuple(tn)})));
    RC_ASSERT(z.size() == a.size());
    auto iz = image(z);
    std::sort(iz.begin(), iz.end());
    for (std::int64_t i = 0; i < a.size(); ++i) RC_ASSERT(iz[static_cast<std::size_t>(i)] == i);
    RC_ASSERT(product(z.mode(0).shape) == tm * tn);
  });
}

namespace {
// A divide whose (tile, rest) runs past A's domain, with CuTe's answer (each part composed on
// its own) and whether that answer is A_ext o (tile, rest): A continued along its last mode
// (`own`), or, when that mode has size 1, along its last mode of size > 1 (`skipped`).
struct PastDivide {
  Layout a, b, tile_rest, cute;
  bool natural = false, unit_tail = false, own = true, skipped = false;
  bool admissible() const { return own || skipped; }
};
std::optional<PastDivide> gen_past_divide() {
  PastDivide c;
  const int ra = *rc::gen::inRange(1, 4);
  std::vector<std::int64_t> as, ad;
  for (int k = 0; k < ra; ++k) {
    as.push_back(*rc::gen::inRange<std::int64_t>(1, 7));
    ad.push_back(*rc::gen::inRange<std::int64_t>(0, 21));
  }
  const int last = *rc::gen::inRange(0, 4);  // 0: natural, 1: size 1, 2 and 3: arbitrary
  c.natural = last == 0 && ra > 1;
  if (c.natural) ad.back() = as[ra - 2] * ad[ra - 2];  // A's last mode continues the one before it
  if (last == 1) as.back() = 1;                         // nothing to continue
  c.a = flat_layout(as, ad);
  const int rb = *rc::gen::inRange(1, 3);
  std::vector<std::int64_t> bs, bd;
  for (int k = 0; k < rb; ++k) {
    bs.push_back(*rc::gen::inRange<std::int64_t>(1, 7));
    bd.push_back(*rc::gen::inRange<std::int64_t>(1, 13));
  }
  c.b = flat_layout(bs, bd);
  Layout rest;
  try {
    rest = complement(c.b, c.a.size());
    c.tile_rest = make_layout({c.b, rest});
    if (c.tile_rest.cosize() <= c.a.size()) return std::nullopt;  // must run past A's domain
    c.cute = make_layout({composition(c.a, c.b), composition(c.a, rest)});
  } catch (const Error&) {
    return std::nullopt;  // a tiler that is not injective, or a part that is an inadmissible composition
  }
  const auto sa = leaves(c.a.shape);
  c.unit_tail = sa.back() == 1 && std::any_of(sa.begin(), sa.end(), [](std::int64_t x) { return x > 1; });
  c.skipped = c.unit_tail;
  for (std::int64_t i = 0; i < c.tile_rest.size(); ++i) {
    if (c.cute(i) != eval_extended(c.a, c.tile_rest(i))) c.own = false;
    if (c.unit_tail && c.cute(i) != eval_extended(c.a, c.tile_rest(i), true)) c.skipped = false;
  }
  return c;
}
}  // namespace

TEST_CASE("logical_divide refuses the divides that leave A's domain inconsistently", "[runtime][property]") {
  // The divide's admissibility rule (docs/notation.md): the result must be A_ext o (B, B*)
  // at every coordinate. Generated: tilers whose (tile, rest) runs past size(A) (by size or
  // by cosize), over A whose last mode is the natural continuation of the others (stride =
  // their span), has size 1, or is arbitrary; half of the cases are searched for among
  // inadmissible ones (about 1 in 100 random ones is), so both sides are well covered.
  int refused = 0, accepted = 0;
  rc::prop("logical_divide refuses exactly the divides that leave A's domain inconsistently", [&] {
    const bool want_inadmissible = *rc::gen::arbitrary<bool>();
    std::optional<PastDivide> c;
    for (int attempt = 0; attempt < (want_inadmissible ? 400 : 20); ++attempt) {
      c = gen_past_divide();
      if (c && (!want_inadmissible || !c->admissible())) break;
    }
    RC_PRE(c.has_value());
    RC_TAG(c->natural ? "A's last mode natural" : c->unit_tail ? "A's last mode of size 1" : "A's last mode arbitrary",
           c->admissible() ? "admissible" : "inadmissible");
    bool ok = true;
    Layout d;
    try {
      d = logical_divide(c->a, Tiler::of_layout(c->b));
    } catch (const Error& e) {
      ok = false;
      RC_ASSERT(std::string(e.what()).rfind("inadmissible logical_divide:", 0) == 0);
    }
    RC_ASSERT(ok == c->admissible());
    // Every divide of the family refuses the same inputs; a swizzle on top changes nothing.
    const std::string args = to_string(c->a) + ", " + to_string(c->b) + ")";
    for (const char* op : {"zipped_divide(", "tiled_divide(", "flat_divide(", "logical_divide(Sw<2,1,3> o 4 o "}) {
      bool family_ok = true;
      try {
        evaluate(std::string(op) + args);
      } catch (const Error&) {
        family_ok = false;
      }
      RC_ASSERT(family_ok == ok);
    }
    if (!ok) {
      ++refused;
      return;
    }
    ++accepted;
    RC_ASSERT(d == c->cute);  // CuTe's answer, to the letter
    for (std::int64_t i = 0; i < d.size(); ++i) RC_ASSERT(d(i) == eval_extended(c->a, c->tile_rest(i), !c->own));
  });
  // Both sides of the rule were generated (a property that never meets a refusal proves nothing).
  CHECK(refused > 0);
  CHECK(accepted > 0);
}

TEST_CASE("product family", "[runtime][property]") {
  rc::prop("logical_product(A,B) = (A, complement(A) o B), injective for injective inputs", [] {
    const Layout a = gen_injective(1, 2);
    const Layout b = gen_injective(1, 1);
    Layout p;
    try {
      p = logical_product(a, Tiler::of_layout(b));
    } catch (const Error&) {
      // With gaps in A, B must divide into complement(A)'s modes (CuTe's shape_div rule).
      RC_DISCARD("inadmissible");
    }
    RC_ASSERT(p.mode(0) == a);
    RC_ASSERT(p.size() == a.size() * b.size());
    auto ip = image(p);
    std::sort(ip.begin(), ip.end());
    RC_ASSERT(std::adjacent_find(ip.begin(), ip.end()) == ip.end());
  });
  rc::prop("blocked and raked products hold the same offsets as the logical product", [] {
    const Layout a = gen_injective(1, 1);
    const Layout b = gen_injective(1, 1);
    const std::size_t R = std::max(a.rank(), b.rank());
    (void)R;
    auto il = image(logical_product(a, Tiler::of_layout(b)));
    auto ib = image(blocked_product(a, b));
    auto ir = image(raked_product(a, b));
    std::sort(il.begin(), il.end());
    std::sort(ib.begin(), ib.end());
    std::sort(ir.begin(), ir.end());
    RC_ASSERT(il == ib);
    RC_ASSERT(il == ir);
  });
}

TEST_CASE("max_common_vector agrees on its prefix", "[runtime][property]") {
  rc::prop("a(inv_b(i)) == i for i < max_common_vector", [] {
    const Layout a = gen_injective(1, 1);
    const Layout b = gen_injective(1, 1);
    const std::int64_t n = max_common_vector(a, b);
    const Layout inv = right_inverse(b);
    RC_ASSERT(n >= 1);
    for (std::int64_t i = 0; i < n && n > 1; ++i) RC_ASSERT(a(inv(i)) == i);
    const Layout l = max_common_layout(a, b);
    if (n > 1) {
      RC_ASSERT(l.size() == n);
      for (std::int64_t i = 0; i < n; ++i) {
        RC_ASSERT(a(l(i)) == i);
        RC_ASSERT(b(l(i)) == i);
      }
    }
  });
}

// Regression (seed 14605294671704548277 of the property above): A o right_inverse(B) is
// inadmissible, and the walked prefix (8) ends inside right_inverse(B)'s second mode, which
// 8:1 does not divide; the answer is the longest prefix that is a layout, (3,2):(1,9).
TEST_CASE("max_common_vector: a walked prefix cut to a layout", "[runtime]") {
  const Layout a(IntTuple::tuple({1, 4, 1}), IntTuple::tuple({4, 1, 1}));
  const Layout b(IntTuple::tuple({3, 3, 3}), IntTuple::tuple({1, 9, 3}));
  CHECK(max_common_vector(a, b) == 6);
  const Layout l = max_common_layout(a, b);
  CHECK(to_string(l) == "(3,2):(1,9)");
  for (std::int64_t i = 0; i < l.size(); ++i) {
    CHECK(a(l(i)) == i);
    CHECK(b(l(i)) == i);
  }
}

TEST_CASE("upcast and downcast undo each other on stride-1 layouts", "[runtime][property]") {
  rc::prop("upcast(downcast(L, n), n) == L", [] {
    const Layout a = gen_injective(1, 1);
    const auto strides = leaves(a.stride);
    RC_PRE(std::count(strides.begin(), strides.end(), std::int64_t{1}) > 0);
    const std::int64_t n = *rc::gen::element<std::int64_t>(1, 2, 4, 8);
    RC_ASSERT(upcast(downcast(a, n), n) == a);
  });
}
