// expect: retile: the fragment is a temporary
#include <tessera/tiled_copy.hpp>
using namespace tessera;
auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
auto copy = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
auto view = copy.get_slice(0).retile_D(partition_fragment_A(mma, make_shape(_16{}, _16{})));
