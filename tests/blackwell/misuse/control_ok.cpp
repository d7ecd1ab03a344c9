// expect: OK
#include <tessera/atom/mma_sm100.hpp>
#include <tessera/atom/umma_descriptor.hpp>
using namespace tessera;
// the snippets beside this one, written right: they compile
constexpr auto bytes = sizeof(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 248, UMMA::Major::K, UMMA::Major::MN>);
constexpr auto ts = sizeof(SM100_MMA_F16BF16_TS<bfloat16_t, bfloat16_t, float, 64, 8, UMMA::Major::K, UMMA::Major::MN>);
constexpr auto tf32 = sizeof(SM100_MMA_TF32_2x1SM_SS<tfloat32_t, tfloat32_t, float, 256, 16, UMMA::Major::K, UMMA::Major::K>);
constexpr auto f8 = sizeof(SM100_MMA_F8F6F4_2x1SM_TS<float_e2m3_t, float_e5m2_t, half_t, 256, 64, UMMA::Major::K, UMMA::Major::MN>);
constexpr auto mx = sizeof(SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t, float_e2m1_t, float, float_ue8m0_t, 256, 16,
                                                       UMMA::Major::K, UMMA::Major::K>);
constexpr auto nv = sizeof(SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 8, 16,
                                             UMMA::Major::K, UMMA::Major::K>);
constexpr auto S = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}));
auto d = UMMA::make_umma_descriptor<UMMA::Major::K, 16>(
    logical_divide(S, make_shape(_128{}, _16{}))(make_coord(_, _0{}), make_coord(_, _1{})), 0);
