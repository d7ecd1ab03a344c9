// expect: A, B, D and scale-factor types do not belong to this kind
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// .kind::mxf4 (blocks of 32) scales by ue8m0 only; ue4m3 goes with blocks of 16 (.kind::mxf4nvf4)
constexpr auto bytes = sizeof(SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 64, 32,
                                                UMMA::Major::K, UMMA::Major::K>);
