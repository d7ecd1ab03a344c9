// expect: OK
#include <tessera/atom/gmma_descriptor.hpp>
using namespace tessera;
// the snippets beside this one, written right: they compile
constexpr auto S = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_64{}, _64{}));
auto d = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(
    logical_divide(S, make_shape(_64{}, _16{}))(make_coord(_, _0{}), make_coord(_, _1{})), 0);
// unswizzled core matrices: rows 16 B apart, 8-row groups at SBO = 128 B, the K halves at LBO = 1 KiB
auto e = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(
    make_layout(make_shape(make_shape(_8{}, _8{}), make_shape(_8{}, _2{})), make_stride(make_stride(_8{}, _64{}), make_stride(_1{}, _512{}))), _0{}, 0);
// a plain layout's slice with its offset (slice_and_offset)
constexpr auto U = GMMA::make_smem_layout<16, GMMA::Major::K, 16>(make_shape(_64{}, _64{})).inner();
auto f = GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(
    slice_and_offset(make_coord(make_coord(_, _0{}), make_coord(_, _1{})), logical_divide(U, make_shape(_64{}, _16{}))), 0);
// a tf32 wgmma atom, K-major A and B
#include <tessera/atom/mma_sm90.hpp>
constexpr auto tf32_atom_bytes = sizeof(SM90_64xNx8_F32TF32TF32_SS<64>);
#include <tessera/atom/mma_sm90_8bit.hpp>
// 8-bit wgmma atoms, K-major A and B; N = 40 for e4m3 (not for s8), negation for fp8
constexpr auto fp8_atom_bytes = sizeof(SM90_64xNx32_F32E4M3E5M2_SS<40, GMMA::Major::K, GMMA::Major::K, GMMA::ScaleIn::Neg>);
constexpr auto s8_atom_bytes = sizeof(SM90_64xNx32_S32S8U8_RS<48>);
// an 8-bit K-major descriptor
auto g = GMMA::make_gmma_descriptor<GMMA::Major::K, 8>(
    logical_divide(GMMA::make_smem_layout<8, GMMA::Major::K, 128>(make_shape(_64{}, _128{})), make_shape(_64{}, _32{}))(make_coord(_, _0{}), make_coord(_, _1{})), 0);
// a descriptor fragment whose k-blocks lie 16 bf16 elements (32 bytes) apart, and gemm on
// descriptor fragments of an SS atom with its scale-d
#include <tessera/algorithm/gemm.hpp>
#include <tessera/tiled_mma.hpp>
const auto sK = make_tensor(reinterpret_cast<bfloat16_t*>(1024),
                            make_composed_layout(Swizzle<3, 3, 3>{}, _0{},
                                                 make_layout(make_shape(make_shape(_64{}, _16{}), _2{}),
                                                             make_stride(make_stride(_64{}, _1{}), _16{}))));
const auto frag = GMMA::make_descriptor_fragment<GMMA::Major::K>(sK);
void ss_gemm(bfloat16_t* smem_a, bfloat16_t* smem_b) {
  auto mma = make_tiled_mma(SM90_64x8x16_F32BF16BF16_SS{});
  auto thr = mma.get_slice(0);
  auto a = thr.partition_fragment_A(make_tensor(smem_a, GMMA::make_smem_layout<16, GMMA::Major::K, 16>(make_shape(_64{}, _16{}))));
  auto b = thr.partition_fragment_B(make_tensor(smem_b, GMMA::make_smem_layout<16, GMMA::Major::K, 16>(make_shape(_8{}, _16{}))));
  auto c = partition_fragment_C(mma, make_shape(_64{}, _8{}));
  gemm(mma, a, b, c, GMMA::ScaleOut::Zero);
}
