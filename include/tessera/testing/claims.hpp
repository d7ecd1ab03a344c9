#pragma once
// Claims about layouts, the logic behind the kit's Catch2 matchers, usable without any test
// framework (plain programs, GoogleTest, ...):
//
//   const std::string why = tessera::testing::IsInjectiveClaim{}.verify(L);  // "" when it holds
//   if (!why.empty()) std::puts(why.c_str());   // "is injective; but in (4,2):(1,2) coordinate ..."
//
// EqualsFunctionClaim(M), EqualsExactlyClaim(M), IsInjectiveClaim, IsSurjectiveOntoClaim(n),
// IsBijectiveClaim, IsCompactClaim, HasCosizeClaim(n), CoversTileOnceClaim(tile): see
// matchers.hpp for what each claims. A failed claim names the first counterexample
// (coordinate, index, expected and actual offset) and prints layouts in CuTe notation.
// Layouts are checked element by element, up to LayoutArg::kDefaultLimit elements.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tessera/rt/algebra.hpp"
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

// Base of every claim: check() gives "" when the layout satisfies it, else the first
// counterexample in words; verify() gives "" or the whole sentence "<claim>; but <why>".
class LayoutClaim {
 public:
  virtual ~LayoutClaim() = default;
  // What is claimed, e.g. "is injective".
  virtual std::string claim() const = 0;
  // "" when `arg` satisfies the claim, else the first counterexample in words.
  virtual std::string check(const LayoutArg& arg) const = 0;
  std::string verify(const LayoutArg& arg) const {
    std::string f = check(arg);
    return f.empty() ? f : claim() + "; but " + f;
  }

 protected:
  // Offsets of `arg`, or a failure message naming the layout.
  static bool offsets(const LayoutArg& arg, std::vector<std::int64_t>& off, std::string& failure) {
    std::string why;
    if (arg.offsets(off, why)) return true;
    failure = arg.text() + " cannot be checked: " + why;
    return false;
  }
};

class EqualsFunctionClaim : public LayoutClaim {
 public:
  explicit EqualsFunctionClaim(LayoutArg expected) : expected_(std::move(expected)) {}
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

class EqualsExactlyClaim : public LayoutClaim {
 public:
  explicit EqualsExactlyClaim(LayoutArg expected) : expected_(std::move(expected)) {}
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

class IsInjectiveClaim : public LayoutClaim {
 public:
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

class IsSurjectiveOntoClaim : public LayoutClaim {
 public:
  explicit IsSurjectiveOntoClaim(std::int64_t n) : n_(n) {}
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

class IsBijectiveClaim : public LayoutClaim {
 public:
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
class IsCompactClaim : public LayoutClaim {
 public:
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

class HasCosizeClaim : public LayoutClaim {
 public:
  explicit HasCosizeClaim(std::int64_t n) : n_(n) {}
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
class CoversTileOnceClaim : public LayoutClaim {
 public:
  explicit CoversTileOnceClaim(rt::IntTuple tile) : tile_(std::move(tile)) {}
  // A static tile shape: make_shape(Int<16>{}, Int<8>{}), or any static IntTuple.
  template <class Shape>
    requires(tessera::is_tuple_v<Shape> || tessera::is_integral_v<Shape>)
  explicit CoversTileOnceClaim(const Shape& tile) : tile_(rt::to_runtime(tile)) {}
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


}  // namespace tessera::testing
