// expect: A in tensor memory is K-major
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
constexpr auto bytes = sizeof(SM100_MMA_F16BF16_TS<half_t, half_t, float, 128, 128, UMMA::Major::MN, UMMA::Major::K>);
