// expect: gemm: this atom reads its operands from shared memory (wgmma): it takes descriptors
#include <tessera/algorithm/gemm.hpp>
#include <tessera/tiled_mma.hpp>
using namespace tessera;
// an SS wgmma given A's values in registers (as an RS atom would take them)
void f(bfloat16_t* smem_b) {
  auto mma = make_tiled_mma(SM90_64x8x16_F32BF16BF16_SS{});
  auto thr = mma.get_slice(0);
  auto a = make_tensor<bfloat16_t>(make_shape(_8{}, _1{}, _1{}));
  auto b = thr.partition_fragment_B(make_tensor(smem_b, GMMA::make_smem_layout<16, GMMA::Major::K, 16>(make_shape(_8{}, _16{}))));
  auto c = partition_fragment_C(mma, make_shape(_64{}, _8{}));
  gemm(mma, a, b, c);
}
