// expect: make_fragment_A/B: the shared-memory tensor's elements must be as wide as the atom's operand type
#include <tessera/atom/gmma_layout.hpp>
#include <tessera/tiled_mma.hpp>
using namespace tessera;
// an f32 smem tile partitioned for a bf16 wgmma: the descriptors would read 16-bit elements
const auto sA = make_tensor(reinterpret_cast<float*>(1024), GMMA::make_smem_layout<32, GMMA::Major::K, 128>(make_shape(_64{}, _32{})));
const auto f = make_tiled_mma(SM90_64x8x16_F32BF16BF16_SS{}).get_slice(0).partition_fragment_A(sA);
