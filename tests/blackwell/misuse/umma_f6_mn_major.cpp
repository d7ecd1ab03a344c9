// expect: an MN-major operand must be of an 8-, 16- or 32-bit type
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// e2m3 (6 bits) is K-major only
constexpr auto bytes = sizeof(SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e2m3_t, float, 128, 64, UMMA::Major::K, UMMA::Major::MN>);
