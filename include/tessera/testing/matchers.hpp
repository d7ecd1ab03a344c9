#pragma once
// Catch2 matchers for layouts, static or runtime:
//
//   REQUIRE_THAT(L, EqualsFunction(M));     // same size, L(i) == M(i) for every 1-D index i
//   REQUIRE_THAT(L, EqualsExactly(M));      // same shape and stride, to the letter
//   REQUIRE_THAT(L, IsInjective());         // L(i) != L(j) for i != j
//   REQUIRE_THAT(L, IsSurjectiveOnto(n));   // every offset in [0,n) is reached, and nothing outside it
//   REQUIRE_THAT(L, IsBijective());         // a permutation of [0, size(L))
//   REQUIRE_THAT(L, IsCompact());           // filter(L) is a bijection onto [0, cosize(filter(L)))
//   REQUIRE_THAT(L, HasCosize(n));          // CuTe's cosize
//   REQUIRE_THAT(TV, CoversTileOnce(shape)); // (thread,value) -> tile index hits every cell once
//
// A failed match names the first counterexample (coordinate, index, expected and actual
// offset) and prints the layouts in CuTe notation. match() records it; describe() shows it.
// Layouts are checked element by element, up to LayoutArg::kDefaultLimit elements.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "runtime/algebra.hpp"
#include "tessera/testing/layout_arg.hpp"

namespace tessera::testing {

namespace detail {

inline std::string at(const LayoutArg& l, std::int64_t i) {
  return "coordinate " + l.coord(i) + " (index " + std::to_string(i) + ")";
}

// The first index j (smallest) that repeats an earlier offset; {i, j} or {-1,-1}.
inline std::pair<std::int64_t, std::int64_t> first_collision(const std::vector<std::int64_t>& off) {
  std::unordered_map<std::int64_t, std::int64_t> seen;
  seen.reserve(off.size());
  for (std::size_t j = 0; j < off.size(); ++j) {
    auto [it, fresh] = seen.emplace(off[j], static_cast<std::int64_t>(j));
    if (!fresh) return {it->second, static_cast<std::int64_t>(j)};
  }
  return {-1, -1};
}

// Checks that `off` reaches every offset of [0,n) exactly `once` (or at least once) and nothing
// else; returns "" or the first counterexample in words.
inline std::string check_onto(const LayoutArg& l, const std::vector<std::int64_t>& off, std::int64_t n,
                              bool injective_too) {
  for (std::size_t i = 0; i < off.size(); ++i) {
    if (off[i] < 0 || off[i] >= n) {
      return at(l, static_cast<std::int64_t>(i)) + " maps to offset " + std::to_string(off[i]) +
             ", outside [0," + std::to_string(n) + ")";
    }
  }
  if (injective_too) {
    if (auto [i, j] = first_collision(off); j >= 0) {
      return at(l, i) + " and " + at(l, j) + " both map to offset " + std::to_string(off[std::size_t(i)]);
    }
  }
  std::vector<bool> hit(static_cast<std::size_t>(n), false);
  for (std::int64_t o : off) hit[static_cast<std::size_t>(o)] = true;
  for (std::int64_t k = 0; k < n; ++k) {
    if (!hit[static_cast<std::size_t>(k)]) {
      return "offset " + std::to_string(k) + " in [0," + std::to_string(n) + ") is never reached";
    }
  }
  return "";
}

// Path of a sub-tree in CuTe's mode indexing: "mode 1", "mode (1,0)".
inline std::string path_text(const std::vector<std::size_t>& path) {
  std::string s = "mode ";
  if (path.size() > 1) s += "(";
  for (std::size_t k = 0; k < path.size(); ++k) s += (k ? "," : "") + std::to_string(path[k]);
  if (path.size() > 1) s += ")";
  return s;
}

// The first place (depth first) where two IntTuples differ, in words
// ("the shape is (4,2), expected 8", "mode (1,0) of the stride is 3, expected 2"), or "" when equal.
inline std::string first_difference(const rt::IntTuple& actual, const rt::IntTuple& expected,
                                    std::vector<std::size_t>& path, const std::string& what) {
  if (actual.is_leaf() != expected.is_leaf() || actual.rank() != expected.rank() ||
      (actual.is_leaf() && actual.value() != expected.value())) {
    const std::string where = path.empty() ? "the " + what : path_text(path) + " of the " + what;
    return where + " is " + rt::to_string(actual) + ", expected " + rt::to_string(expected);
  }
  if (actual.is_leaf()) return "";
  for (std::size_t k = 0; k < actual.rank(); ++k) {
    path.push_back(k);
    std::string d = first_difference(actual[k], expected[k], path, what);
    path.pop_back();
    if (!d.empty()) return d;
  }
  return "";
}

}  // namespace detail

// Base of every layout matcher: match() stores the counterexample, describe() adds it.
class LayoutMatcher : public Catch::MatcherBase<LayoutArg> {
 public:
  bool match(const LayoutArg& arg) const final {
    failure_ = check(arg);
    return failure_.empty();
  }
  std::string describe() const final {
    return failure_.empty() ? claim() : claim() + "; but " + failure_;
  }
  // The counterexample of the last failed match ("" after a success).
  const std::string& failure() const { return failure_; }

 protected:
  // What the matcher claims, e.g. "is injective".
  virtual std::string claim() const = 0;
  // "" when `arg` satisfies the claim, else the first counterexample in words.
  virtual std::string check(const LayoutArg& arg) const = 0;

  // Offsets of `arg`, or a failure message naming the layout.
  static bool offsets(const LayoutArg& arg, std::vector<std::int64_t>& off, std::string& failure) {
    std::string why;
    if (arg.offsets(off, why)) return true;
    failure = arg.text() + " cannot be checked: " + why;
    return false;
  }

 private:
  mutable std::string failure_;
};

class EqualsFunctionMatcher : public LayoutMatcher {
 public:
  explicit EqualsFunctionMatcher(LayoutArg expected) : expected_(std::move(expected)) {}

 protected:
  std::string claim() const override { return "equals " + expected_.text() + " as a function"; }
  std::string check(const LayoutArg& arg) const override {
    std::vector<std::int64_t> a, e;
    std::string f;
    if (!offsets(arg, a, f) || !offsets(expected_, e, f)) return f;
    if (a.size() != e.size()) {
      return arg.text() + " has size " + std::to_string(a.size()) + ", expected " + std::to_string(e.size());
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] != e[i]) {
        const auto idx = static_cast<std::int64_t>(i);
        return "at " + detail::at(arg, idx) + " of " + arg.text() + " the offset is " + std::to_string(a[i]) +
               ", expected " + std::to_string(e[i]) + " (coordinate " + expected_.coord(idx) + " of " +
               expected_.text() + ")";
      }
    }
    return "";
  }

 private:
  LayoutArg expected_;
};

class EqualsExactlyMatcher : public LayoutMatcher {
 public:
  explicit EqualsExactlyMatcher(LayoutArg expected) : expected_(std::move(expected)) {}

 protected:
  std::string claim() const override { return "equals " + expected_.text() + " exactly (shape and stride)"; }
  std::string check(const LayoutArg& arg) const override {
    if (arg.is_swizzled() != expected_.is_swizzled() ||
        (arg.is_swizzled() && !(*arg.swizzle() == *expected_.swizzle()))) {
      return arg.text() + " and " + expected_.text() + " differ in their swizzle";
    }
    std::vector<std::size_t> path;
    std::string d = detail::first_difference(arg.layout().shape, expected_.layout().shape, path, "shape");
    if (d.empty()) d = detail::first_difference(arg.layout().stride, expected_.layout().stride, path, "stride");
    if (!d.empty()) return "in " + arg.text() + " " + d;
    return "";
  }

 private:
  LayoutArg expected_;
};

class IsInjectiveMatcher : public LayoutMatcher {
 protected:
  std::string claim() const override { return "is injective"; }
  std::string check(const LayoutArg& arg) const override {
    std::vector<std::int64_t> off;
    std::string f;
    if (!offsets(arg, off, f)) return f;
    if (auto [i, j] = detail::first_collision(off); j >= 0) {
      return "in " + arg.text() + " " + detail::at(arg, i) + " and " + detail::at(arg, j) +
             " both map to offset " + std::to_string(off[std::size_t(i)]);
    }
    return "";
  }
};

class IsSurjectiveOntoMatcher : public LayoutMatcher {
 public:
  explicit IsSurjectiveOntoMatcher(std::int64_t n) : n_(n) {}

 protected:
  std::string claim() const override { return "is surjective onto [0," + std::to_string(n_) + ")"; }
  std::string check(const LayoutArg& arg) const override {
    if (n_ < 0 || n_ > LayoutArg::kDefaultLimit) return "the codomain size " + std::to_string(n_) + " is out of range";
    std::vector<std::int64_t> off;
    std::string f;
    if (!offsets(arg, off, f)) return f;
    std::string d = detail::check_onto(arg, off, n_, false);
    return d.empty() ? d : "in " + arg.text() + " " + d;
  }

 private:
  std::int64_t n_;
};

class IsBijectiveMatcher : public LayoutMatcher {
 protected:
  std::string claim() const override { return "is a bijection onto [0,size)"; }
  std::string check(const LayoutArg& arg) const override {
    std::vector<std::int64_t> off;
    std::string f;
    if (!offsets(arg, off, f)) return f;
    std::string d = detail::check_onto(arg, off, static_cast<std::int64_t>(off.size()), true);
    return d.empty() ? d : "in " + arg.text() + " " + d;
  }
};

// Compact: after removing stride-0 and size-1 modes (filter), the offsets are dense
// storage without holes or repeats: [0, cosize). The same rule as `tessera info`.
// A swizzled layout is judged as a whole function: a bijection onto [0, max offset + 1).
class IsCompactMatcher : public LayoutMatcher {
 protected:
  std::string claim() const override { return "is compact"; }
  std::string check(const LayoutArg& arg) const override {
    try {
      const LayoutArg f = arg.is_swizzled() ? arg : LayoutArg(rt::filter(arg.layout()));
      std::vector<std::int64_t> off;
      std::string fail;
      if (!offsets(f, off, fail)) return fail;
      const std::int64_t hi = off.empty() ? 0 : *std::max_element(off.begin(), off.end()) + 1;
      std::string d = detail::check_onto(f, off, hi, true);
      if (d.empty()) return d;
      const std::string name = arg.is_swizzled() ? arg.text() : "filter(" + arg.text() + ") = " + f.text();
      return "in " + name + " " + d;
    } catch (const rt::Error& e) {
      return arg.text() + " cannot be filtered: " + e.what();
    }
  }
};

class HasCosizeMatcher : public LayoutMatcher {
 public:
  explicit HasCosizeMatcher(std::int64_t n) : n_(n) {}

 protected:
  std::string claim() const override { return "has cosize " + std::to_string(n_); }
  std::string check(const LayoutArg& arg) const override {
    try {
      const std::int64_t c = arg.is_swizzled() ? rt::SwizzledLayout{*arg.swizzle(), arg.layout()}.cosize()
                                               : arg.layout().cosize();
      if (c == n_) return "";
      std::string s = arg.text() + " has cosize " + std::to_string(c);
      // Point at the offset that sets the cosize, when it is small enough to look for.
      std::vector<std::int64_t> off;
      std::string why;
      if (arg.offsets(off, why) && !off.empty()) {
        const auto it = std::max_element(off.begin(), off.end());
        s += " (largest offset " + std::to_string(*it) + " at " + detail::at(arg, it - off.begin()) + ")";
      }
      return s;
    } catch (const rt::Error& e) {
      return "the cosize of " + arg.text() + " cannot be computed: " + e.what();
    }
  }

 private:
  std::int64_t n_;
};

// A thread-value map TV = (thread modes, value modes) -> index of a tile of shape `tile`.
// Every tile cell must be hit by exactly one (thread, value) pair.
class CoversTileOnceMatcher : public LayoutMatcher {
 public:
  explicit CoversTileOnceMatcher(rt::IntTuple tile) : tile_(std::move(tile)) {}

 protected:
  std::string claim() const override { return "covers the tile " + rt::to_string(tile_) + " once"; }
  std::string check(const LayoutArg& arg) const override {
    const rt::Layout& tv = arg.layout();
    if (tv.shape.is_leaf() || tv.rank() != 2) {
      return arg.text() + " is not a TV layout: expected rank 2, (thread modes, value modes)";
    }
    std::int64_t cells = 0;
    try {
      cells = rt::product(tile_);
    } catch (const rt::Error& e) {
      return "the tile " + rt::to_string(tile_) + " is too large: " + e.what();
    }
    if (cells <= 0 || cells > LayoutArg::kDefaultLimit) return "the tile " + rt::to_string(tile_) + " has " +
                                                              std::to_string(cells) + " cells, out of range";
    std::vector<std::int64_t> off;
    std::string f;
    if (!offsets(arg, off, f)) return f;
    const std::int64_t threads = rt::product(tv.shape[0]);
    auto tv_at = [&](std::int64_t i) {
      return "(T" + std::to_string(i % threads) + ",V" + std::to_string(i / threads) + ")";
    };
    auto cell = [&](std::int64_t k) {
      return "tile coordinate " + rt::to_string(rt::idx2crd(k, tile_)) + " (index " + std::to_string(k) + ")";
    };
    std::vector<std::int64_t> first(static_cast<std::size_t>(cells), -1);
    std::int64_t missing = 0, repeated = 0;
    std::string outside, twice;
    for (std::size_t i = 0; i < off.size(); ++i) {
      const auto idx = static_cast<std::int64_t>(i);
      if (off[i] < 0 || off[i] >= cells) {
        if (outside.empty()) {
          outside = tv_at(idx) + " maps to tile index " + std::to_string(off[i]) + ", outside the tile " +
                    rt::to_string(tile_) + " of " + std::to_string(cells) + " cells";
        }
        continue;
      }
      auto& h = first[static_cast<std::size_t>(off[i])];
      if (h >= 0) {
        ++repeated;
        if (twice.empty()) twice = cell(off[i]) + " is hit by " + tv_at(h) + " and by " + tv_at(idx);
      } else {
        h = idx;
      }
    }
    std::string never;
    for (std::int64_t k = 0; k < cells; ++k) {
      if (first[static_cast<std::size_t>(k)] < 0) {
        if (never.empty()) never = cell(k) + " is never hit";
        ++missing;
      }
    }
    std::string first_problem = !outside.empty() ? outside : !twice.empty() ? twice : never;
    if (first_problem.empty()) return "";
    return "in " + arg.text() + " " + first_problem + " (" + std::to_string(missing) + " cells never hit, " +
           std::to_string(repeated) + " repeated hits)";
  }

 private:
  rt::IntTuple tile_;
};

inline EqualsFunctionMatcher EqualsFunction(LayoutArg expected) { return EqualsFunctionMatcher(std::move(expected)); }
inline EqualsExactlyMatcher EqualsExactly(LayoutArg expected) { return EqualsExactlyMatcher(std::move(expected)); }
inline IsInjectiveMatcher IsInjective() { return {}; }
inline IsSurjectiveOntoMatcher IsSurjectiveOnto(std::int64_t n) { return IsSurjectiveOntoMatcher(n); }
inline IsBijectiveMatcher IsBijective() { return {}; }
inline IsCompactMatcher IsCompact() { return {}; }
inline HasCosizeMatcher HasCosize(std::int64_t n) { return HasCosizeMatcher(n); }
inline CoversTileOnceMatcher CoversTileOnce(rt::IntTuple tile_shape) {
  return CoversTileOnceMatcher(std::move(tile_shape));
}
// A static tile shape: make_shape(Int<16>{}, Int<8>{}), or any static IntTuple.
template <class Shape>
  requires(tessera::is_tuple_v<Shape> || tessera::is_integral_v<Shape>)
CoversTileOnceMatcher CoversTileOnce(const Shape& tile_shape) {
  return CoversTileOnceMatcher(rt::to_runtime(tile_shape));
}

}  // namespace tessera::testing
