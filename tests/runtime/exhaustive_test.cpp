// Small-scope exhaustive check of the algebra, both tiers: every layout of a bounded family
// and every pair of a smaller one, each operation's defining law checked pointwise, each refusal
// checked against the admissibility rule of docs/notation.md (refused exactly when the rule
// says so), and the static tier's cores (what constant evaluation computes for static operands)
// compared with the runtime tier case by case. The bounds (the Bounds below; docs/testing.md)
// keep it near 30 CPU-seconds in a release build. Every count is printed; each rule must meet
// both refusals and acceptances (a check that never sees a refusal proves nothing); any
// departure (a tier against the rule, the tiers' results differing, a result that is not CuTe's
// walk or breaks its law) is counted, its first cases printed, and fails the test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tessera/algebra/divide.hpp"
#include "tessera/rt/algebra.hpp"

using namespace tessera::rt;

namespace {

using I64 = std::int64_t;
using Offsets = std::vector<I64>;

Offsets offsets(const Layout& l) {
  Offsets v;
  v.reserve(static_cast<std::size_t>(l.size()));
  for_each_offset(l, [&](I64 o) { v.push_back(o); });
  return v;
}

// The profiles: each leaf a placeholder 0 (IntTuple::with_leaves fills them).
const IntTuple& leaf() { static const IntTuple x(0); return x; }
IntTuple tup(std::vector<IntTuple> e) { return IntTuple::tuple(std::move(e)); }
struct Profile { const char* name; IntTuple like; int leaves; };
std::vector<Profile> profiles(int max_leaves) {
  std::vector<Profile> p = {{"a", leaf(), 1},
                            {"(a)", tup({leaf()}), 1},
                            {"(a,b)", tup({leaf(), leaf()}), 2},
                            {"((a,b))", tup({tup({leaf(), leaf()})}), 2},
                            {"(a,b,c)", tup({leaf(), leaf(), leaf()}), 3},
                            {"((a,b),c)", tup({tup({leaf(), leaf()}), leaf()}), 3},
                            {"(a,(b,c))", tup({leaf(), tup({leaf(), leaf()})}), 3}};
  p.erase(std::remove_if(p.begin(), p.end(), [&](const Profile& x) { return x.leaves > max_leaves; }), p.end());
  return p;
}

// Calls f(layout) for every layout of the profiles with at most `max_leaves` leaves, size
// <= max_size, each stride from strides(leaves).
void for_each_layout(int max_leaves, I64 max_size, const std::function<std::vector<I64>(int)>& strides,
                     const std::function<void(const Layout&)>& f, const std::vector<std::string>& only = {}) {
  for (const Profile& p : profiles(max_leaves)) {
    if (!only.empty() && std::find(only.begin(), only.end(), p.name) == only.end()) continue;
    const int n = p.leaves;
    const std::vector<I64> ds = strides(n);
    if (ds.empty()) continue;  // no layouts of this many leaves in the family
    std::vector<I64> s(n, 1), d(n);
    // every shape with product <= max_size
    std::function<void(int, I64)> shapes = [&](int k, I64 size) {
      if (k == n) {
        std::vector<std::size_t> di(n, 0);
        while (true) {
          for (int j = 0; j < n; ++j) d[j] = ds[di[j]];
          f(Layout(IntTuple::with_leaves(p.like, s), IntTuple::with_leaves(p.like, d)));
          int j = 0;
          while (j < n && ++di[j] == ds.size()) di[j++] = 0;
          if (j == n) break;
        }
        return;
      }
      for (I64 e = 1; e * size <= max_size; ++e) {
        s[k] = e;
        shapes(k + 1, e * size);
      }
    };
    shapes(0, 1);
  }
}
std::vector<I64> range(I64 lo, I64 hi) {
  std::vector<I64> v;
  for (I64 x = lo; x <= hi; ++x) v.push_back(x);
  return v;
}

bool has_negative_stride(const Layout& l) {
  for (I64 d : leaves(l.stride)) if (d < 0) return true;
  return false;
}
bool is_injective(const Offsets& o) {
  Offsets v = o;
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

// The flat modes of l with size > 1 and stride != 0, sorted by (stride, shape): CuTe's
// complement walks them in that order.
struct Mode { I64 s, d; };
std::vector<Mode> sorted_modes(const Layout& l) {
  std::vector<Mode> m;
  const auto s = leaves(l.shape), d = leaves(l.stride);
  for (std::size_t k = 0; k < s.size(); ++k)
    if (s[k] > 1 && d[k] != 0) m.push_back({s[k], d[k]});
  std::stable_sort(m.begin(), m.end(), [](Mode a, Mode b) { return a.d < b.d || (a.d == b.d && a.s < b.s); });
  return m;
}
// docs/notation.md, complement: refused when a mode starts inside the span of the modes
// before it (in stride order), or a stride is negative.
// The walk alone (size-1 and stride-0 modes do not take part): what left_inverse needs.
bool complement_walk_ok(const Layout& l) {
  I64 span = 1;
  for (Mode m : sorted_modes(l)) {
    if (m.d < 0 || m.d < span) return false;
    span = m.d * m.s;
  }
  return true;
}
// (a negative stride of a size-1 mode does not count: filter drops that mode, as CuTe's does)
bool complement_admissible(const Layout& l) { return complement_walk_ok(l); }
// left_inverse: CuTe's divisibility condition on coalesce(L): its non-zero strides, in
// increasing order, each a positive multiple of the one before (the first of 1).
bool left_inverse_admissible(const Layout& coalesced) {
  std::vector<I64> d;
  for (I64 x : leaves(coalesced.stride))
    if (x != 0) d.push_back(x);
  std::sort(d.begin(), d.end());
  I64 prev = 1;
  for (I64 x : d) {
    if (x <= 0 || x % prev != 0) return false;
    prev = x;
  }
  return true;
}

// CuTe's coalesce_x, what composition walks: coalesce(A) with A's last flat mode kept as the
// unbounded one (a size-1 last mode keeps its stride: it stands in as size 2, which only the
// walk's last, unbounded mode sees).
Layout coalesce_x(const Layout& a) {
  auto s = leaves(a.shape), d = leaves(a.stride);
  if (s.back() == 1) s.back() = 2;
  std::vector<IntTuple> ts, td;
  for (std::size_t k = 0; k < s.size(); ++k) ts.emplace_back(s[k]), td.emplace_back(d[k]);
  return coalesce(Layout(IntTuple::tuple(std::move(ts)), IntTuple::tuple(std::move(td))));
}

// CuTe's composition of coalesce_x(A) with one leaf s:d of B (docs/notation.md, rules 2 and 3:
// walking A's modes but the last, d must be a multiple of the mode's size or smaller than it,
// and what remains of B's size a multiple of what it takes of the mode; CuTe's ceil_div steps,
// a negative d by its magnitude and sign): the leaf's modes, or nothing when a rule fails.
// Composing B leaf by leaf this way is CuTe's answer; rule 1 asks that it be A(B(i)).
std::optional<std::vector<Mode>> leaf_walk(const Layout& coalesced_a, I64 s, I64 d) {
  const auto as = leaves(coalesced_a.shape), ad = leaves(coalesced_a.stride);
  if (d == 0) return std::vector<Mode>{{s, 0}};
  if (as.size() == 1) return std::vector<Mode>{{s, d * ad[0]}};
  std::vector<Mode> out;
  I64 rest_shape = s, rest_stride = d;
  for (std::size_t k = 0; k + 1 < as.size(); ++k) {
    const I64 cs = as[k], abs_stride = rest_stride < 0 ? -rest_stride : rest_stride;
    if (!(rest_stride % cs == 0 || rest_stride < cs)) return std::nullopt;  // rule 2
    const I64 next_shape = (cs + abs_stride - 1) / abs_stride;
    const I64 next_stride = ((abs_stride + cs - 1) / cs) * (rest_stride > 0 ? 1 : -1);
    if (next_shape != 1 && rest_shape != 1) {
      const I64 take = std::min(next_shape, rest_shape);
      if (rest_shape % take != 0) return std::nullopt;  // rule 3
      out.push_back({take, rest_stride * ad[k]});
      rest_shape /= take;
    }
    rest_stride = next_stride;
  }
  if (out.empty() || rest_shape != 1) out.push_back({rest_shape, rest_stride * ad.back()});
  return out;
}
// CuTe's walk of every leaf of B over coalesce_x(A), B's leaves in order: the flat modes of
// the result, or nothing when rule 2 or 3 fails for a leaf.
std::optional<std::vector<Mode>> walk(const Layout& coalesced_a, const Layout& b) {
  std::vector<Mode> out;
  const auto bs = leaves(b.shape), bd = leaves(b.stride);
  for (std::size_t k = 0; k < bs.size(); ++k) {
    auto m = leaf_walk(coalesced_a, bs[k], bd[k]);
    if (!m) return std::nullopt;
    out.insert(out.end(), m->begin(), m->end());
  }
  return out;
}
I64 eval_modes(const std::vector<Mode>& m, I64 i) {
  I64 off = 0;
  for (std::size_t k = 0; k + 1 < m.size(); ++k) off += (i % m[k].s) * m[k].d, i /= m[k].s;
  return off + i * m.back().d;
}

// A's offset at index x, with A's last flat mode continued without bound (how CuTe reads A
// past size(A)); skip_unit_tail continues the last mode of size > 1 instead.
I64 eval_extended(const Layout& a, I64 x, bool skip_unit_tail = false) {
  auto s = leaves(a.shape), d = leaves(a.stride);
  if (skip_unit_tail)
    while (s.size() > 1 && s.back() == 1) s.pop_back(), d.pop_back();
  I64 off = 0;
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    off += (x % s[k]) * d[k];
    x /= s[k];
  }
  return off + x * d.back();
}

template <class F> bool refuses(F&& f) {
  try {
    f();
    return false;
  } catch (const Error&) {
    return true;
  }
}

}  // namespace

namespace {
// ---------------------------------------------------------------- the families
// Profiles: a, (a) [one leaf]; (a,b), ((a,b)) [two]; (a,b,c), ((a,b),c), (a,(b,c)) [three]:
// rank <= 3, depth <= 2. Every extent >= 1 (size-1 modes included), every stride of the set.
struct Bounds {
  I64 max_size;                 // size(L) <= max_size
  std::vector<I64> strides[4];  // the strides of a layout with 1, 2, 3 leaves (index 0 unused)
};
// Unary operations: every layout of size <= 64.
const Bounds kUnary{64, {{}, range(-16, 16), range(-4, 8), {-1, 0, 1, 2, 4, 8}}};
// The left operand A of the binary operations (profiles a, (a,b), ((a,b),c)) and the right
// operand B (a, (a,b)).
const Bounds kLhs{16, {{}, range(-2, 8), {-1, 0, 1, 2, 3, 4, 8}, {0, 1, 2, 4}}};
const I64 kLhsThreeLeavesMaxSize = 6;
const Bounds kRhs{6, {{}, range(-1, 4), range(-1, 4), {}}};

std::vector<Layout> lhs_family() {
  std::vector<Layout> v;
  const auto add = [&](const Layout& l) { v.push_back(l); };
  for_each_layout(2, kLhs.max_size, [](int n) { return kLhs.strides[n]; }, add, {"a", "(a,b)"});
  for_each_layout(3, kLhsThreeLeavesMaxSize, [](int n) { return kLhs.strides[n]; }, add, {"((a,b),c)"});
  return v;
}
std::vector<Layout> rhs_family() {
  std::vector<Layout> v;
  for_each_layout(2, kRhs.max_size, [](int n) { return kRhs.strides[n]; }, [&](const Layout& l) { v.push_back(l); },
                  {"a", "(a,b)"});
  return v;
}

// ---------------------------------------------------------------- static tier cores
// Static operands go through the static tier's value cores (include/tessera/algebra/*.hpp):
// coalesce_values, compose_values (each leaf of B against coalesce(A); error 1 / 2 = rules 2 / 3,
// the static_asserts of composition), the exactness check of static_composition_exact_v
// (rule 1), filter and complement_values, divide_is_consistent. They are the constexpr functions
// constant evaluation runs; here they run on every case of the families, next to the runtime tier.
namespace sd = tessera::detail;
constexpr std::size_t kFlat = 8;
using Flat = sd::flat_modes<kFlat>;
Flat flat_of(const Layout& l) {
  Flat m{};
  const auto s = leaves(l.shape), d = leaves(l.stride);
  for (std::size_t k = 0; k < s.size(); ++k) m.push(s[k], d[k]);
  return m;
}
template <std::size_t N> std::vector<I64> shapes_of(const sd::flat_modes<N>& m) { return {m.s, m.s + m.n}; }
template <std::size_t N> std::vector<I64> strides_of(const sd::flat_modes<N>& m) { return {m.d, m.d + m.n}; }

// The static tier's composition of static A and B, as values: its refusal (0: none; 1, 2: the
// divisibility rules; 3: inexact, rule 1 as composition_is_exact checks it: R(i) == A(B(i)) at
// every i, A read past its size as CuTe reads it) and its flat modes. Without rule1, CuTe's walk
// alone (what logical_divide composes before its own rule).
struct StaticComposition {
  int refusal = 0;
  sd::flat_modes<32> r{};
};
StaticComposition static_composition(const Flat& a, const Flat& b, bool rule1 = true) {
  StaticComposition out;
  const auto ca = sd::coalesce_values(a, true);
  for (int k = 0; k < b.n; ++k) {
    const auto leaf = sd::compose_values(ca, b.s[k], b.d[k]);
    if (leaf.error != 0) {
      out.refusal = leaf.error;
      return out;
    }
    for (int j = 0; j < leaf.n; ++j) out.r.push(leaf.s[j], leaf.d[j]);
  }
  if (!rule1) return out;
  const I64 n = b.size();
  if (out.r.size() != n) out.refusal = 3;
  for (I64 i = 0; i < n && out.refusal == 0; ++i)
    if (out.r(i) != a(b(i))) out.refusal = 3;
  return out;
}
// The static tier's complement(L, cotarget): filter as values, the walk by stride (error: a
// stride below the span), then the rest mode, coalesced. refused: the walk's error.
struct StaticComplement {
  bool refused = false;
  sd::flat_modes<kFlat + 2> c{};
};
StaticComplement static_complement(const Flat& f, I64 cotarget) {
  StaticComplement out;
  Flat filtered = f;
  for (int k = 0; k < filtered.n; ++k)
    if (filtered.d[k] == 0) filtered.s[k] = 1;
  const auto fc = sd::coalesce_values(filtered, false);
  sd::flat_modes<kFlat + 2> all{};
  I64 stride = 1;
  if (!(fc.n == 1 && fc.d[0] == 0)) {
    const auto walk = sd::complement_values(fc);
    if (walk.error != 0) {
      out.refused = true;
      return out;
    }
    for (int k = 0; k < walk.n; ++k) all.push(walk.s[k], walk.d[k]);
    stride = walk.d[walk.n];
  }
  all.push((cotarget + stride - 1) / stride, stride);
  out.c = sd::coalesce_values(all, false);
  return out;
}

// Cases where a tier departs from the rule, or two answers differ: counted, the first few
// printed with their expression, and the test fails on any.
struct Misses {
  const char* name;
  long count = 0;
  template <class F> void expect(bool ok, F&& expr) {
    if (ok) return;
    if (++count <= 5) std::printf("  MISMATCH (%s): %s\n", name, expr().c_str());
  }
  void print() const { std::printf("    %-64s %ld\n", name, count); }
};

struct Law {
  const char* name;
  long checked = 0, accepted = 0, refused = 0;
  void count(bool refusal) { ++checked, ++(refusal ? refused : accepted); }
  void print() const { std::printf("  %-52s %9ld: %9ld accepted, %8ld refused\n", name, checked, accepted, refused); }
};

}  // namespace

TEST_CASE("exhaustive: unary operations on every layout of size <= 64", "[runtime][exhaustive]") {
  Law co{"coalesce (static: coalesce_values)"}, fi{"filter"}, ri{"right_inverse"}, li{"left_inverse"},
      cm{"complement(L, M), M = cosize, 2 cosize, cosize + 1 (+ static)"};
  long layouts = 0;
  for_each_layout(3, kUnary.max_size, [](int n) { return kUnary.strides[n]; }, [&](const Layout& l) {
    ++layouts;
    INFO(to_string(l));
    const Offsets o = offsets(l);
    const I64 n = l.size();
    const Flat fl = flat_of(l);
    // coalesce: the same function on [0, size), flat, merged as far as it goes, idempotent;
    // the static tier's coalesce_values gives the same modes.
    {
      const Layout c = coalesce(l);
      co.count(false);
      REQUIRE(offsets(c) == o);
      REQUIRE(c.depth() <= 1);
      const auto cs = leaves(c.shape), cd = leaves(c.stride);
      for (std::size_t k = 0; k + 1 < cs.size(); ++k) {
        REQUIRE(cs[k] > 1);
        REQUIRE(cd[k + 1] != cs[k] * cd[k]);  // nothing left to merge
      }
      REQUIRE(coalesce(c) == c);
      const auto sc = sd::coalesce_values(fl, false);
      REQUIRE(shapes_of(sc) == cs);
      REQUIRE(strides_of(sc) == cd);
    }
    // filter: the same image set, no stride-0 mode left (unless one element is left).
    {
      const Layout f = filter(l);
      fi.count(false);
      const Offsets of = offsets(f);
      REQUIRE(std::set<I64>(of.begin(), of.end()) == std::set<I64>(o.begin(), o.end()));
      if (f.size() > 1)
        for (I64 d : leaves(f.stride)) REQUIRE(d != 0);
    }
    // right_inverse: L(R(i)) == i on R's domain; defined for every layout (negative strides
    // included: R covers the offsets 0, 1, ... that L reaches in order).
    {
      Layout r;
      const bool refused = refuses([&] { r = right_inverse(l); });
      ri.count(refused);
      REQUIRE(!refused);
      for (I64 i = 0; i < r.size(); ++i) REQUIRE(l(r(i)) == i);
    }
    // left_inverse: R(L(i)) == i for injective L; refused exactly when CuTe's divisibility
    // condition fails (docs/notation.md).
    {
      Layout r;
      const bool refused = refuses([&] { r = left_inverse(l); });
      li.count(refused);
      REQUIRE(refused == !left_inverse_admissible(coalesce(l)));
      if (!refused && is_injective(o))
        for (I64 i = 0; i < n; ++i) REQUIRE(r(o[static_cast<std::size_t>(i)]) == i);
    }
    // complement(L, M): CuTe's post-conditions (below); refused exactly
    // when a mode starts inside the span of the ones before it or a stride is negative; the
    // static tier refuses the same (its walk), with the same modes.
    const I64 cos = l.cosize();
    const std::set<I64> image(o.begin(), o.end());
    for (I64 m : {cos, 2 * cos, cos + 1}) {
      INFO("complement(L, " << m << ")");
      Layout c;
      const bool refused = refuses([&] { c = complement(l, m); });
      cm.count(refused);
      REQUIRE(refused == !complement_admissible(l));
      const StaticComplement st = static_complement(fl, m);
      REQUIRE(st.refused == refused);
      if (refused) continue;
      REQUIRE(shapes_of(st.c) == leaves(c.shape));
      REQUIRE(strides_of(st.c) == leaves(c.stride));
      // CuTe's post-conditions: C(0) == 0, increasing, C(i) is no offset of L for i >= 1; C
      // reaches M (its last offset plus the span of L's modes); size(C) >= M / size(filter(L))
      // where each stride (in order) is a multiple of the span below it (CuTe states it
      // unconditionally, but complement((2,2):(7,2), 20) has size 4, not 5).
      const Offsets oc = offsets(c);
      REQUIRE(oc.front() == 0);
      for (std::size_t i = 1; i < oc.size(); ++i) {
        REQUIRE(oc[i] > oc[i - 1]);
        REQUIRE(image.count(oc[i]) == 0);
      }
      I64 span = 1;
      bool dividing = true;
      for (Mode md : sorted_modes(l)) dividing = dividing && md.d % span == 0, span = md.d * md.s;
      REQUIRE(oc.back() + span >= m);
      if (dividing) REQUIRE(c.size() >= m / filter(l).size());
    }
  });
  std::printf("exhaustive, unary: %ld layouts (size <= %lld)\n", layouts, static_cast<long long>(kUnary.max_size));
  for (const Law* x : {&co, &fi, &ri, &li, &cm}) x->print();
  CHECK(cm.refused > 0);
  CHECK(cm.accepted > 0);
  CHECK(li.refused > 0);
  CHECK(li.accepted > 0);
}

TEST_CASE("exhaustive: composition of every pair, both tiers", "[runtime][exhaustive]") {
  const std::vector<Layout> as = lhs_family(), bs = rhs_family();
  Law c{"composition(A, B) (+ static)"};
  long rule23 = 0, rule1 = 0, negative_b = 0, negative_b_accepted = 0;
  Misses rt_rule{"the runtime tier refuses or accepts against the rule"},
      st_rule{"the static tier refuses or accepts against the rule"},
      law{"an accepted R(i) != A(B(i)) (A read past its size)"}, tiers{"the tiers' results differ"},
      cute{"the runtime tier's result is not CuTe's walk"};
  for (const Layout& a : as) {
    const I64 na = a.size();
    const Layout ca = coalesce_x(a);
    const Flat fa = flat_of(a);
    for (const Layout& b : bs) {
      const auto expr = [&] { return "composition(" + to_string(a) + ", " + to_string(b) + ")"; };
      // The rule, from its statement: rules 2 and 3 on each leaf of B (CuTe's walk); rule 1: the
      // leaf-by-leaf result is A(B(i)) at every index of B, A read past its size as CuTe reads
      // it (its last mode continued; C++'s division below 0, for B's negative strides).
      const std::optional<std::vector<Mode>> modes = walk(ca, b);
      bool exact = modes.has_value();
      for (I64 i = 0; i < b.size() && exact; ++i)
        if (eval_modes(*modes, i) != eval_extended(a, b(i))) exact = false;
      rule23 += !modes;
      rule1 += modes && !exact;
      const bool negative = has_negative_stride(b);
      negative_b += negative;
      negative_b_accepted += negative && exact;
      Layout r;
      const bool refused = refuses([&] { r = composition(a, b); });
      c.count(refused);
      rt_rule.expect(refused == !exact, expr);
      const StaticComposition st = static_composition(fa, flat_of(b));
      st_rule.expect((st.refusal != 0) == !exact, expr);
      if (refused) continue;
      bool holds = r.size() == b.size();
      for (I64 i = 0; i < b.size() && holds; ++i) holds = r(i) == eval_extended(a, b(i));
      law.expect(holds, expr);
      std::vector<I64> ms, md;
      for (Mode m : *modes) ms.push_back(m.s), md.push_back(m.d);
      cute.expect(leaves(r.shape) == ms && leaves(r.stride) == md, expr);
      if (st.refusal == 0) tiers.expect(shapes_of(st.r) == leaves(r.shape) && strides_of(st.r) == leaves(r.stride), expr);
      (void)na;
    }
  }
  std::printf("exhaustive, composition: %zu A x %zu B\n", as.size(), bs.size());
  c.print();
  std::printf("    refused by rule 2 or 3 (divisibility) %ld, by rule 1 (not A(B(i))) %ld; B with a negative stride %ld "
              "(%ld accepted)\n",
              rule23, rule1, negative_b, negative_b_accepted);
  for (const Misses* m : {&rt_rule, &st_rule, &law, &cute, &tiers}) m->print();
  for (const Misses* m : {&rt_rule, &st_rule, &law, &cute, &tiers}) CHECK(m->count == 0);
  CHECK(rule23 > 0);
  CHECK(rule1 > 0);
  CHECK(negative_b_accepted > 0);
  CHECK(negative_b > negative_b_accepted);
}

TEST_CASE("exhaustive: divides and products of every pair, both tiers", "[runtime][exhaustive]") {
  // A of size <= 8; tilers B of size <= 4, injective, with positive strides
  std::vector<Layout> as, bs;
  for (const Layout& a : lhs_family())
    if (a.size() <= 8) as.push_back(a);
  for (const Layout& b : rhs_family())
    if (b.size() <= 4 && !has_negative_stride(b) && is_injective(offsets(b))) bs.push_back(b);
  Law dv{"logical_divide, zipped, tiled, flat (+ static)"}, pr{"logical_product, blocked, raked"};
  Misses rt_rule{"the runtime tier's divide refuses or accepts against the rule"},
      st_rule{"the static tier's divide refuses or accepts against the rule"},
      forms{"zipped, tiled or flat divide departs from logical_divide"},
      law{"an accepted divide is not A_ext o (B, rest)"}, tiers{"the tiers' divides differ"},
      cute{"the runtime tier's divide is not CuTe's walk"};
  using Divide = Layout (*)(const Layout&, const Tiler&);
  using Product = Layout (*)(const Layout&, const Layout&);
  for (const Layout& a : as) {
    const I64 na = a.size();
    const Flat fa = flat_of(a);
    const Layout ca = coalesce_x(a);
    const auto sa = leaves(a.shape);
    const bool unit_tail = sa.back() == 1 && std::any_of(sa.begin(), sa.end(), [](I64 x) { return x > 1; });
    for (const Layout& b : bs) {
      const Tiler t = Tiler::of_layout(b);
      // logical_divide(A, B) = A o (B, complement(B, size(A))), CuTe composing the tile and the
      // rest each on its own. The rule (docs/notation.md, logical divide): the complement exists;
      // CuTe's walk of (B, rest) over coalesce_x(A) meets rules 2 and 3; and its result is
      // A_ext o (B, rest) at every coordinate, A_ext reading A's last mode continued (or, when
      // that mode has size 1, its last mode of size > 1).
      {
        const auto expr = [&] { return "logical_divide(" + to_string(a) + ", " + to_string(b) + ")"; };
        bool admissible = complement_admissible(b);
        Layout tile_rest;
        std::optional<std::vector<Mode>> modes;
        if (admissible) {
          tile_rest = make_layout({b, complement(b, na)});
          modes = walk(ca, tile_rest);
          admissible = modes.has_value();
        }
        bool own = admissible, skipped = admissible && unit_tail;
        for (I64 i = 0; admissible && (own || skipped) && i < tile_rest.size(); ++i) {
          const I64 x = tile_rest(i), ri = eval_modes(*modes, i);
          if (ri != eval_extended(a, x)) own = false;
          if (skipped && ri != eval_extended(a, x, true)) skipped = false;
        }
        admissible = admissible && (own || skipped);
        Layout d;
        const bool refused = refuses([&] { d = logical_divide(a, t); });
        dv.count(refused);
        rt_rule.expect(refused == !admissible, expr);
        for (Divide op : {Divide(zipped_divide), Divide(tiled_divide), Divide(flat_divide)})
          forms.expect(refuses([&] { op(a, t); }) == refused, expr);
        // the static tier: the complement, CuTe's walk of (B, rest), the divide's rule
        bool static_refused = static_complement(flat_of(b), na).refused;
        StaticComposition st;
        if (!static_refused) {
          st = static_composition(fa, flat_of(tile_rest), false);
          static_refused = st.refusal != 0 || !sd::divide_is_consistent(fa, flat_of(tile_rest), st.r);
        }
        st_rule.expect(static_refused == !admissible, expr);
        if (!refused) {
          std::vector<I64> ms, md;
          for (Mode m : *modes) ms.push_back(m.s), md.push_back(m.d);
          cute.expect(leaves(d.shape) == ms && leaves(d.stride) == md, expr);  // CuTe's answer, to the letter
          if (!static_refused)
            tiers.expect(shapes_of(st.r) == leaves(d.shape) && strides_of(st.r) == leaves(d.stride), expr);
          bool holds = d.size() == tile_rest.size();
          for (I64 i = 0; i < d.size() && holds; ++i) holds = d(i) == eval_extended(a, tile_rest(i), !own);
          law.expect(holds, expr);
          const Layout z = zipped_divide(a, t);
          forms.expect(offsets(z) == offsets(d), expr);
          forms.expect(leaves(tiled_divide(a, t).shape) == leaves(z.shape), expr);
          forms.expect(leaves(flat_divide(a, t).stride) == leaves(z.stride), expr);
        }
      }
      // logical_product(A, B) = (A, complement(A, size(A) * cosize(B)) o B), refused exactly when
      // that complement or that composition is; blocked and raked products hold its offsets.
      {
        INFO("logical_product(" << to_string(a) << ", " << to_string(b) << ")");
        Layout want;
        const bool admissible = !refuses([&] { want = make_layout({a, composition(complement(a, na * b.cosize()), b)}); });
        Layout p;
        const bool refused = refuses([&] { p = logical_product(a, t); });
        pr.count(refused);
        REQUIRE(refused == !admissible);
        if (refused) continue;
        REQUIRE(p == want);
        for (I64 i = 0; i < na; ++i) REQUIRE(p.mode(0)(i) == a(i));
        Offsets op = offsets(p);
        // injective for injective A and B when A's strides divide (its complement is exact;
        // logical_product((2,2):(8,3), 2:3) is not: 8 is no multiple of the span 6 below it)
        I64 span = 1;
        bool dividing = !has_negative_stride(a);
        for (Mode md : sorted_modes(a)) dividing = dividing && md.d % span == 0, span = md.d * md.s;
        if (dividing && is_injective(offsets(a))) REQUIRE(is_injective(op));
        std::sort(op.begin(), op.end());
        for (Product prod : {Product(blocked_product), Product(raked_product)}) {
          Layout q;
          if (refuses([&] { q = prod(a, b); })) {
            // raked_product of an integer-shaped block (2:2) zips a mode the block does not
            // have: CuTe does not compile it either.
            REQUIRE(prod == Product(raked_product));
            REQUIRE(a.shape.is_leaf());
            continue;
          }
          Offsets o = offsets(q);
          std::sort(o.begin(), o.end());
          REQUIRE(o == op);
        }
      }
    }
  }
  std::printf("exhaustive, divides and products: %zu A x %zu B\n", as.size(), bs.size());
  dv.print();
  for (const Misses* m : {&rt_rule, &st_rule, &forms, &law, &cute, &tiers}) m->print();
  pr.print();
  for (const Misses* m : {&rt_rule, &st_rule, &forms, &law, &cute, &tiers}) CHECK(m->count == 0);
  CHECK(dv.refused > 0);
  CHECK(dv.accepted > 0);
  CHECK(pr.refused > 0);
  CHECK(pr.accepted > 0);
}

// ---------------------------------------------------------------- in constant evaluation
// The static tier's cores at compile time, on a family small enough for the compiler: A flat
// with two modes, shapes 1..4, strides -1..4; B one leaf, shape 1..4, stride -1..4.
namespace {
constexpr bool static_coalesce_laws() {
  for (I64 s0 = 1; s0 <= 4; ++s0)
    for (I64 s1 = 1; s1 <= 4; ++s1)
      for (I64 d0 = -1; d0 <= 4; ++d0)
        for (I64 d1 = -1; d1 <= 4; ++d1) {
          sd::flat_modes<2> m{};
          m.push(s0, d0);
          m.push(s1, d1);
          const auto c = sd::coalesce_values(m, false);
          if (c.size() != m.size()) return false;
          for (I64 i = 0; i < m.size(); ++i)
            if (c(i) != m(i)) return false;  // the same function
          for (int k = 0; k + 1 < c.n; ++k)
            if (c.s[k] == 1 || c.d[k + 1] == c.s[k] * c.d[k]) return false;  // nothing left to merge
        }
  return true;
}
// For one leaf of B whose stride divides A's first mode or is a multiple of it (or is 0),
// what compose_values accepts is exact: R(i) == A(B(i)) wherever B(i) lies in A's domain. (A
// stride below the mode's size that does not divide it passes CuTe's rule 2 and can still be
// inexact: composition((3,2):(1,4), 4:2) -- rule 1 refuses it.)
constexpr bool static_single_leaf_composition_laws() {
  for (I64 s0 = 1; s0 <= 4; ++s0)
    for (I64 s1 = 1; s1 <= 4; ++s1)
      for (I64 d0 = -1; d0 <= 4; ++d0)
        for (I64 d1 = -1; d1 <= 4; ++d1)
          for (I64 bs = 1; bs <= 4; ++bs)
            for (I64 bd = 0; bd <= 4; ++bd) {
              if (!(bd == 0 || bd % s0 == 0 || s0 % bd == 0)) continue;
              sd::flat_modes<2> a{};
              a.push(s0, d0);
              a.push(s1, d1);
              const auto r = sd::compose_values(sd::coalesce_values(a, true), bs, bd);
              if (r.error != 0) continue;  // rule 3 (B's size) may still fail
              if (r.size() != bs) return false;
              for (I64 i = 0; i < bs; ++i) {
                const I64 bi = i * bd;
                if (bi < a.size() && r(i) != a(bi)) return false;
              }
            }
  return true;
}
}  // namespace
static_assert(static_coalesce_laws(), "coalesce_values keeps the function and merges all it can");
static_assert(static_single_leaf_composition_laws(), "a leaf of B with a dividing stride composes exactly");

TEST_CASE("exhaustive: the static cores' laws, as constant evaluation runs them", "[runtime][exhaustive]") {
  CHECK(static_coalesce_laws());
  CHECK(static_single_leaf_composition_laws());
}
