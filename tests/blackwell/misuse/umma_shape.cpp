// expect: M and N must be a shape of tcgen05.mma.cta_group::1.kind::f16
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// N = 12 is no multiple of 8
constexpr auto bytes = sizeof(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 12, UMMA::Major::K, UMMA::Major::K>);
