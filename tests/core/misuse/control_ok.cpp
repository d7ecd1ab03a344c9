// expect: OK
// Control: the same harness compiles a correct use, so the failures above are the rules, not the setup.
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = composition(make_layout(make_shape(_4{}, _3{}), make_stride(_1{}, _5{})), make_layout(_2{}, _4{}));
static_assert(is_static_v<decltype(r)>);
