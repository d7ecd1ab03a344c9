// expect: make_swizzle
// CuTe's composition(L, Swizzle): L must carry the swizzle's source and target bits to two runs
// of bits a swizzle can name. (2,2,2,2):(1,8,2,4) sends Sw<2,0,2>'s target bits {0,1} to {0,3}:
// no swizzle has those bits, so CuTe's make_swizzle (and tessera's) refuses.
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = composition(make_layout(make_shape(_2{}, _2{}, _2{}, _2{}), make_stride(_1{}, _8{}, _2{}, _4{})), Swizzle<2, 0, 2>{});
