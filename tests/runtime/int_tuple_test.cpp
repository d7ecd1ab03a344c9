// IntTuple's flat storage (leaves + bracket nesting, inline up to 8 leaves) against a plain
// tree model: every accessor agrees with the tree it was built from, on both sides of the
// inline capacity, through copies and moves; and SmallVector, the storage under it.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tessera/rt/error.hpp"
#include "tessera/rt/int_tuple.hpp"
#include "tessera/rt/small_vector.hpp"

using namespace tessera::rt;

namespace {

// The model: an integer, or a list of trees (empty lists included).
struct Tree {
  bool leaf = true;
  std::int64_t value = 0;
  std::vector<Tree> elems;
};

Tree gen_tree(int depth) {
  if (depth == 0 || *rc::gen::inRange(0, 4) == 0) return Tree{true, *rc::gen::inRange<std::int64_t>(-9, 10), {}};
  Tree t{false, 0, {}};
  const int r = *rc::gen::inRange(0, 6);
  for (int i = 0; i < r; ++i) t.elems.push_back(gen_tree(depth - 1));
  return t;
}

// Built the three ways the library builds tuples: tuple(modes), push_back one by one, or
// from flat values (a tuple of leaves).
IntTuple build(const Tree& t) {
  if (t.leaf) return IntTuple(t.value);
  const bool all_leaves = std::all_of(t.elems.begin(), t.elems.end(), [](const Tree& e) { return e.leaf; });
  switch (*rc::gen::inRange(0, all_leaves ? 3 : 2)) {
    case 0: {
      std::vector<IntTuple> modes;
      for (const Tree& e : t.elems) modes.push_back(build(e));
      return IntTuple::tuple(modes);
    }
    case 1: {
      IntTuple r = IntTuple::tuple({});
      for (const Tree& e : t.elems) r.push_back(build(e));
      return r;
    }
    default: {
      std::vector<std::int64_t> v;
      for (const Tree& e : t.elems) v.push_back(e.value);
      return IntTuple::of_values(v);
    }
  }
}

std::string text(const Tree& t) {
  if (t.leaf) return std::to_string(t.value);
  std::string s = "(";
  for (std::size_t i = 0; i < t.elems.size(); ++i) s += (i ? "," : "") + text(t.elems[i]);
  return s + ")";
}
std::string nesting(const Tree& t) {
  if (t.leaf) return ".";
  std::string s = "(";
  for (const Tree& e : t.elems) s += nesting(e);
  return s + ")";
}
void leaves_of(const Tree& t, std::vector<std::int64_t>& out) {
  if (t.leaf) return out.push_back(t.value);
  for (const Tree& e : t.elems) leaves_of(e, out);
}
int depth_of(const Tree& t) {
  if (t.leaf) return 0;
  int d = 0;
  for (const Tree& e : t.elems) d = std::max(d, depth_of(e));
  return d + 1;
}
// The product in the tree's own order, or nullopt where a partial product leaves the range
// of checked.hpp (+-(2^63-1)).
std::optional<std::int64_t> product_of(const Tree& t) {
  if (t.leaf) return t.value;
  std::int64_t p = 1;
  for (const Tree& e : t.elems) {
    const std::optional<std::int64_t> f = product_of(e);
    if (!f || __builtin_mul_overflow(p, *f, &p) || p == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
  }
  return p;
}

// Every accessor of `x` against the model `t`, and recursively on each mode.
void check_against(const IntTuple& x, const Tree& t) {
  RC_ASSERT(to_string(x) == text(t));
  RC_ASSERT(std::string(x.nesting()) == nesting(t));
  std::vector<std::int64_t> v;
  leaves_of(t, v);
  RC_ASSERT(leaves(x) == v);
  RC_ASSERT(std::vector<std::int64_t>(x.leaf_values().begin(), x.leaf_values().end()) == v);
  RC_ASSERT(x.is_leaf() == t.leaf);
  RC_ASSERT(depth(x) == depth_of(t));
  if (const std::optional<std::int64_t> p = product_of(t)) RC_ASSERT(product(x) == *p);
  else RC_ASSERT_THROWS_AS(product(x), OverflowError);
  if (t.leaf) {
    RC_ASSERT(x.value() == t.value);
    RC_ASSERT(x.rank() == 1u);
    RC_ASSERT(x[0] == x);
    RC_ASSERT(x.elems().size() == 0u);
    return;
  }
  RC_ASSERT(x.rank() == t.elems.size());
  RC_ASSERT(x.elems().size() == t.elems.size());
  std::size_t i = 0;
  for (const IntTuple& m : x.elems()) {
    RC_ASSERT(i < t.elems.size());
    RC_ASSERT(m == x[i]);
    check_against(m, t.elems[i]);
    ++i;
  }
  RC_ASSERT(i == t.elems.size());
}

}  // namespace

TEST_CASE("IntTuple agrees with the tree it was built from", "[runtime][int_tuple][property]") {
  rc::prop("accessors, modes and printing match the model (inline and on the heap)", [] {
    const Tree t = gen_tree(4);
    const IntTuple x = build(t);
    check_against(x, t);
    RC_ASSERT(x == build(t));  // however it was built
    RC_TAG(x.leaf_values().size() > 8 || x.nesting().size() > 24 ? "on the heap" : "inline");
  });
  rc::prop("congruent exactly when the nestings agree; == compares leaves too", [] {
    const Tree a = gen_tree(3), b = gen_tree(3);
    const IntTuple x = build(a), y = build(b);
    RC_ASSERT(congruent(x, y) == (nesting(a) == nesting(b)));
    RC_ASSERT((x == y) == (text(a) == text(b)));
    RC_ASSERT(congruent(x, repeat_like(x, 7)));
    RC_ASSERT(IntTuple::with_leaves(x, x.leaf_values()) == x);
  });
  rc::prop("copies are equal and independent; a moved-from tuple is itself or the integer 0", [] {
    const Tree t = gen_tree(4);
    const IntTuple original = build(t);
    IntTuple x = original;
    IntTuple copy = x;
    RC_ASSERT(copy == x);
    if (copy.is_tuple()) copy.push_back(IntTuple(5));  // x keeps its own modes
    check_against(x, t);
    IntTuple moved = std::move(x);
    check_against(moved, t);
    RC_ASSERT(x == original || x == IntTuple(0));  // NOLINT: read after the move on purpose
    RC_ASSERT(x.leaf_values().size() == static_cast<std::size_t>(std::count(x.nesting().begin(), x.nesting().end(), '.')));
    IntTuple assigned = IntTuple::of_values(std::vector<std::int64_t>(20, 3));
    assigned = std::move(moved);
    check_against(assigned, t);
    RC_ASSERT(moved == original || moved == IntTuple(0));  // NOLINT
  });
}

TEST_CASE("IntTuple: errors name the rule", "[runtime][int_tuple]") {
  const IntTuple t = IntTuple::tuple({1, IntTuple::tuple({2, 3})});
  CHECK_THROWS_WITH(t[2], "mode 2 does not exist in (1,(2,3)) (rank 2)");
  CHECK_THROWS_WITH(IntTuple(4)[1], "mode 1 of the integer 4");
  CHECK_THROWS_WITH(t.value(), "expected an integer, got the tuple (1,(2,3))");
  IntTuple leaf(4);
  CHECK_THROWS_WITH(leaf.push_back(1), "push_back on an integer");
  CHECK_THROWS_WITH(unflatten(t, std::vector<std::int64_t>{1, 2}), "unflatten: too few leaves");
  CHECK_THROWS_WITH(unflatten(t, std::vector<std::int64_t>{1, 2, 3, 4}), "unflatten: too many leaves");
  CHECK(unflatten(t, std::vector<std::int64_t>{7, 8, 9}) == IntTuple::tuple({7, IntTuple::tuple({8, 9})}));
  CHECK(to_string(IntTuple::tuple({})) == "()");
  CHECK(depth(IntTuple::tuple({})) == 1);
  CHECK(product(IntTuple::tuple({})) == 1);
}

TEST_CASE("SmallVector keeps its elements across the inline capacity", "[runtime][int_tuple][property]") {
  rc::prop("push_back, copy, move and assignment behave as std::vector", [](const std::vector<std::int64_t>& v) {
    SmallVector<std::int64_t, 4> s;
    for (const std::int64_t x : v) s.push_back(x);
    RC_ASSERT(std::vector<std::int64_t>(s.begin(), s.end()) == v);
    SmallVector<std::int64_t, 4> c = s;
    RC_ASSERT(c == s);
    SmallVector<std::int64_t, 4> m = std::move(c);
    RC_ASSERT(m == s);
    RC_ASSERT(c.empty() || c == s);  // NOLINT: moved from: emptied, or left as it was (inline)
    c.push_back(1);                  // and usable
    RC_ASSERT(c.back() == 1);
    SmallVector<std::int64_t, 4> a{1, 2, 3, 4, 5, 6};
    a = s;
    RC_ASSERT(a == s);
    a = std::move(m);
    RC_ASSERT(a == s);
    if (!v.empty()) {
      a.pop_back();
      RC_ASSERT(a.size() + 1 == v.size());
    }
    a.resize(10, 7);
    RC_ASSERT(a.size() == 10u && a.back() == (v.size() >= 11 ? v[9] : 7));
  });
}
