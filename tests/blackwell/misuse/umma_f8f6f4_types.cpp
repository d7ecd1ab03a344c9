// expect: A, B and D types do not belong to .kind::f8f6f4
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// .kind::f8f6f4 accumulates in f16 or f32, not s32
constexpr auto bytes = sizeof(SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e5m2_t, int32_t, 128, 64, UMMA::Major::K, UMMA::Major::K>);
