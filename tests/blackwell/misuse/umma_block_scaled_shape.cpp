// expect: M and N must be a shape of this block-scaled tcgen05.mma
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// block-scaled one-CTA MMAs take M = 128 only
constexpr auto bytes = sizeof(SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 64, 64, 32,
                                                UMMA::Major::K, UMMA::Major::K>);
