// expect: an MN-major B takes N a multiple of 16
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// N = 24 is a shape of K-major .kind::f8f6f4, not with B MN-major
constexpr auto bytes = sizeof(SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e4m3_t, float, 128, 24, UMMA::Major::K, UMMA::Major::MN>);
