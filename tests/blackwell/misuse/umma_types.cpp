// expect: A, B and D types do not belong to .kind::f16
#include <tessera/atom/mma_sm100.hpp>
using namespace tessera;
// bf16 accumulates in f32 only
constexpr auto bytes = sizeof(SM100_MMA_F16BF16_SS<bfloat16_t, bfloat16_t, half_t, 128, 128, UMMA::Major::K, UMMA::Major::K>);
