// The C++ side of the Python assertion helpers' test: reads lines "CLAIM<TAB>LAYOUT[<TAB>ARG]"
// and prints, per line, what the testing kit's claim says of the layout ("" when it holds),
// so that tests/python/test_testing.py compares tessera.testing's messages with the C++ ones.
#include <iostream>
#include <string>

#include "tessera/rt/eval.hpp"
#include "tessera/testing/claims.hpp"

namespace {

tessera::testing::LayoutArg layout_of(const std::string& text) {
  const tessera::rt::Value v = tessera::rt::evaluate(text);
  if (v.kind() == tessera::rt::Value::Kind::Swizzled) return v.swizzled();
  return v.layout();
}

std::string verify(const std::string& claim, const std::string& layout, const std::string& arg) {
  namespace t = tessera::testing;
  const t::LayoutArg l = layout_of(layout);
  if (claim == "injective") return t::IsInjectiveClaim{}.verify(l);
  if (claim == "bijective") return t::IsBijectiveClaim{}.verify(l);
  if (claim == "compact") return t::IsCompactClaim{}.verify(l);
  if (claim == "surjective_onto") return t::IsSurjectiveOntoClaim(std::stoll(arg)).verify(l);
  if (claim == "has_cosize") return t::HasCosizeClaim(std::stoll(arg)).verify(l);
  if (claim == "equal_as_functions") return t::EqualsFunctionClaim(layout_of(arg)).verify(l);
  if (claim == "equals_exactly") return t::EqualsExactlyClaim(layout_of(arg)).verify(l);
  if (claim == "covers_tile_once") return t::CoversTileOnceClaim(tessera::rt::evaluate(arg).tuple()).verify(l);
  return "unknown claim " + claim;
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    const std::size_t a = line.find('\t'), b = line.find('\t', a + 1);
    const std::string claim = line.substr(0, a);
    const std::string layout = line.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
    const std::string arg = b == std::string::npos ? "" : line.substr(b + 1);
    try {
      std::cout << verify(claim, layout, arg) << "\n";
    } catch (const std::exception& e) {
      std::cout << "error: " << e.what() << "\n";
    }
  }
  return 0;
}
