// tessera::runtime from the installed package: a layout parsed and evaluated at run time is
// the static tier's result, to the letter.
#include <cstdio>
#include <string>

#include <tessera/rt/eval.hpp>
#include <tessera/tessera.hpp>

using namespace tessera;

int main() {
  const rt::Value v = rt::evaluate("logical_divide((4,8):(8,1), (2,4))");
  constexpr auto tile = make_layout(make_shape(_4{}, _8{}), LayoutRight{});
  const std::string expected = to_string(logical_divide(tile, make_shape(_2{}, _4{})));
  std::printf("runtime %s, static %s\n", rt::to_string(v).c_str(), expected.c_str());
  return v.kind() == rt::Value::Kind::Layout && rt::to_string(v) == expected ? 0 : 1;
}
