// expect: the tile must be (MN, K) with K * element bits == 256
#include <tessera/atom/umma_descriptor.hpp>
using namespace tessera;
// 32 bf16 of K are two MMAs' worth
constexpr auto S = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}));
auto d = UMMA::make_umma_descriptor<UMMA::Major::K, 16>(
    logical_divide(S, make_shape(_128{}, _32{}))(make_coord(_, _0{}), make_coord(_, _0{})), 0);
