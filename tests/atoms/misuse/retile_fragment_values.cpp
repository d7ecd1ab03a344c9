// expect: retile: the fragment's mode 0 (V values) must divide the copy's values per thread
#include <tessera/tiled_copy.hpp>
using namespace tessera;
auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
auto copy = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
auto frag = make_tensor<half_t>(make_shape(_3{}, _2{}, _2{}));
auto view = copy.get_slice(0).retile_D(frag);
