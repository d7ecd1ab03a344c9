// expect: make_gmma_descriptor: a plain Layout carries no slice offset
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// k-block 1 of an unswizzled tile: the slice of a plain Layout has lost its offset (32 bytes)
constexpr auto U = GMMA::make_smem_layout<16, GMMA::Major::K, 16>(make_shape(_64{}, _64{})).inner();
auto d = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(
    logical_divide(U, make_shape(_64{}, _16{}))(make_coord(_, _0{}), make_coord(_, _1{})), 0);
