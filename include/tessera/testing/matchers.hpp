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
// The checks themselves live in claims.hpp (no Catch2 needed there).
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "tessera/rt/algebra.hpp"
#include "tessera/testing/claims.hpp"

namespace tessera::testing {

// A Catch2 matcher over any claim: match() stores the counterexample, describe() adds it.
template <class Claim>
class LayoutMatcher : public Catch::MatcherBase<LayoutArg> {
 public:
  explicit LayoutMatcher(Claim c) : claim_(std::move(c)) {}
  bool match(const LayoutArg& arg) const final {
    failure_ = claim_.check(arg);
    return failure_.empty();
  }
  std::string describe() const final { return failure_.empty() ? claim_.claim() : claim_.claim() + "; but " + failure_; }
  // The counterexample of the last failed match ("" after a success).
  const std::string& failure() const { return failure_; }

 private:
  Claim claim_;
  mutable std::string failure_;
};

inline auto EqualsFunction(LayoutArg expected) { return LayoutMatcher(EqualsFunctionClaim(std::move(expected))); }
inline auto EqualsExactly(LayoutArg expected) { return LayoutMatcher(EqualsExactlyClaim(std::move(expected))); }
inline auto IsInjective() { return LayoutMatcher(IsInjectiveClaim{}); }
inline auto IsSurjectiveOnto(std::int64_t n) { return LayoutMatcher(IsSurjectiveOntoClaim(n)); }
inline auto IsBijective() { return LayoutMatcher(IsBijectiveClaim{}); }
inline auto IsCompact() { return LayoutMatcher(IsCompactClaim{}); }
inline auto HasCosize(std::int64_t n) { return LayoutMatcher(HasCosizeClaim(n)); }
inline auto CoversTileOnce(rt::IntTuple tile_shape) { return LayoutMatcher(CoversTileOnceClaim(std::move(tile_shape))); }
// A static tile shape: make_shape(Int<16>{}, Int<8>{}), or any static IntTuple.
template <class Shape>
  requires(tessera::is_tuple_v<Shape> || tessera::is_integral_v<Shape>)
auto CoversTileOnce(const Shape& tile_shape) {
  return LayoutMatcher(CoversTileOnceClaim(tile_shape));
}

}  // namespace tessera::testing

// Catch prints the layouts of a failed REQUIRE_THAT / REQUIRE in CuTe notation.
namespace Catch {
template <>
struct StringMaker<tessera::rt::Layout> {
  static std::string convert(const tessera::rt::Layout& l) { return tessera::rt::to_string(l); }
};
template <>
struct StringMaker<tessera::rt::SwizzledLayout> {
  static std::string convert(const tessera::rt::SwizzledLayout& l) { return tessera::rt::to_string(l); }
};
template <>
struct StringMaker<tessera::rt::Swizzle> {
  static std::string convert(const tessera::rt::Swizzle& s) { return tessera::rt::to_string(s); }
};
template <>
struct StringMaker<tessera::rt::Tiler> {
  static std::string convert(const tessera::rt::Tiler& t) { return tessera::rt::to_string(t); }
};
template <>
struct StringMaker<tessera::rt::IntTuple> {
  static std::string convert(const tessera::rt::IntTuple& t) { return tessera::rt::to_string(t); }
};
template <class Shape, class Stride>
struct StringMaker<tessera::Layout<Shape, Stride>> {
  static std::string convert(const tessera::Layout<Shape, Stride>& l) {
    return tessera::rt::to_string(tessera::rt::to_runtime(l));
  }
};
template <>
struct StringMaker<tessera::testing::LayoutArg> {
  static std::string convert(const tessera::testing::LayoutArg& l) { return l.text(); }
};
}  // namespace Catch

