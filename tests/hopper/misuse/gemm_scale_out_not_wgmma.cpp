// expect: gemm: only wgmma atoms take a ScaleOut
#include <tessera/algorithm/gemm.hpp>
#include <tessera/tiled_mma.hpp>
using namespace tessera;
// mma.sync has no scale-d: its C is an input like A and B
void f() {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{});
  auto a = partition_fragment_A(mma, make_shape(_16{}, _16{}));
  auto b = partition_fragment_B(mma, make_shape(_8{}, _16{}));
  auto c = partition_fragment_C(mma, make_shape(_16{}, _8{}));
  gemm(mma, a, b, c, GMMA::ScaleOut::Zero);
}
