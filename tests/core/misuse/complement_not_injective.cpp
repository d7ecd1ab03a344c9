// expect: complement: the layout is not injective
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = complement(make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _1{})), _8{});
