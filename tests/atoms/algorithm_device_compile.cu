// Device compile check of the algorithms (compile only; CI has no GPU), for sm_80 and
// sm_90: copy through every copy atom (universal 8..128 bits, the 16-byte global store STG_U32x4, cp.async .ca 4/8/16 and .cg 16,
// zero-filling cp.async with and without an L2 prefetch hint, ldmatrix x1/x2/x4 and .trans,
// stmatrix x1/x2/x4 and .trans)
// from plain and swizzled smem, copy_if, gemm over tiled MMAs and atoms (f16, bf16, tf32,
// f64, s8, UniversalFMA), axpby, fill, clear, transform, cp_async_fence/wait, sync_threads.
#include <tessera/algorithm.hpp>

using namespace tessera;

namespace {
template <class Op, class Mma, class Smem>
__device__ void ldmatrix_a(Mma const& mma, Smem const& s, int t, float* out) {
  auto frag = mma.get_slice(t).partition_fragment_A(s);
  auto cp = make_tiled_copy_A(Copy_Atom<Op, half_t>{}, mma).get_slice(t);
  copy(cp, cp.partition_S(s), cp.retile_D(frag));
  out[t] += float(frag[0]);
}
template <class Op, class Mma, class Smem>
__device__ void ldmatrix_b(Mma const& mma, Smem const& s, int t, float* out) {
  auto frag = mma.get_slice(t).partition_fragment_B(s);
  auto cp = make_tiled_copy_B(Copy_Atom<Op, half_t>{}, mma).get_slice(t);
  copy(cp, cp.partition_S(s), cp.retile_D(frag));
  out[t] += float(frag[0]);
}
template <class Op, class Mma, class Smem>
__device__ void stmatrix_a(Mma const& mma, Smem const& s, int t) {
  auto frag = mma.get_slice(t).partition_fragment_A(s);
  fill(frag, detail::convert_to<half_t>(float(t)));
  auto cp = make_tiled_copy_A(Copy_Atom<Op, half_t>{}, mma).get_slice(t);
  copy(cp, cp.retile_S(frag), cp.partition_D(s));
}
template <class Op, class T, int Bytes>
__device__ void g2s(T const* g, T* s, int t) {
  constexpr int per = Bytes / int(sizeof(T));
  auto tc = make_tiled_copy(Copy_Atom<Op, T>{}, make_layout(make_shape(_8{}, _4{}), LayoutRight{}),
                            make_layout(make_shape(_1{}, C<per>{})));
  auto gt = make_tensor(g, make_layout(make_shape(_8{}, C<4 * per>{}), LayoutRight{}));
  auto st = make_tensor(s, make_layout(make_shape(_8{}, C<4 * per>{}), LayoutRight{}));
  auto thr = tc.get_slice(t);
  copy(tc, thr.partition_S(gt), thr.partition_D(st));
  bool pred[1] = {t < 16};
  copy_if(pred, tc, thr.partition_S(gt), thr.partition_D(st));
}
// registers -> gmem through the 16-byte store atom (st.global.v4.b32)
template <class T>
__device__ void r2g_16B(T* g, int t) {
  auto tc = make_tiled_copy(Copy_Atom<STG_U32x4, T>{}, make_layout(make_shape(_8{}, _4{}), LayoutRight{}),
                            make_layout(make_shape(_1{}, C<16 / int(sizeof(T))>{})));
  auto thr = tc.get_slice(t);
  auto dst = thr.partition_D(make_tensor(g, make_layout(make_shape(_8{}, C<64 / int(sizeof(T))>{}), LayoutRight{})));
  auto regs = make_fragment_like<T>(dst);
  fill(regs, detail::convert_to<T>(float(t)));
  copy(tc, regs, dst);
}
template <class Op, class TA, class TC>
__device__ void one_mma(int t, float* out) {
  auto mma = make_tiled_mma(Op{});
  auto a = mma.get_slice(t).partition_fragment_A(make_tensor((TA*)nullptr, make_shape(get<0>(mma.get_tile_size()), get<2>(mma.get_tile_size()))));
  auto b = mma.get_slice(t).partition_fragment_B(make_tensor((TA*)nullptr, make_shape(get<1>(mma.get_tile_size()), get<2>(mma.get_tile_size()))));
  auto c = partition_fragment_C(mma, make_shape(get<0>(mma.get_tile_size()), get<1>(mma.get_tile_size())));
  fill(a, detail::convert_to<std::remove_cvref_t<decltype(a[0])>>(float(t)));
  fill(b, detail::convert_to<std::remove_cvref_t<decltype(b[0])>>(1.f));
  clear(c);
  gemm(mma, a, b, c);
  out[t] += float(detail::convert_to<float>(c[0]));
}
}  // namespace

__global__ void tessera_algorithms_compile(half_t const* g, float const* gf, float* out) {
  __shared__ uint16_t raw[128 * 64];
  __shared__ float rawf[8 * 16];
  half_t* smem = reinterpret_cast<half_t*>(raw);
  const int t = threadIdx.x;
  // gmem -> smem, every cp.async and universal width
  g2s<SM80_CP_ASYNC_CACHEGLOBAL<16>, half_t, 16>(g, smem, t);
  g2s<SM80_CP_ASYNC_CACHEALWAYS<16>, half_t, 16>(g, smem, t);
  g2s<SM80_CP_ASYNC_CACHEALWAYS<8>, half_t, 8>(g, smem, t);
  g2s<SM80_CP_ASYNC_CACHEALWAYS<4>, half_t, 4>(g, smem, t);
  g2s<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16>, half_t, 16>(g, smem, t);
  g2s<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, 256>, half_t, 16>(g, smem, t);
  g2s<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<4>, half_t, 4>(g, smem, t);
  g2s<UniversalCopy<uint128_t>, float, 16>(gf, rawf, t);
  g2s<UniversalCopy<uint64_t>, float, 8>(gf, rawf, t);
  g2s<UniversalCopy<uint32_t>, half_t, 4>(g, smem, t);
  g2s<UniversalCopy<uint16_t>, half_t, 2>(g, smem, t);
  g2s<UniversalCopy<uint8_t>, uint8_t, 1>(reinterpret_cast<uint8_t const*>(g), reinterpret_cast<uint8_t*>(raw), t);
  cp_async_fence();
  cp_async_wait<1>();
  cp_async_wait<0>();
  sync_threads();
  // smem -> registers, every ldmatrix, plain and swizzled
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                            make_tile(_32{}, _32{}, _16{}));
  auto k_major = tile_to_shape(make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})), make_shape(_128{}, _64{}));
  auto sw = make_tensor(smem, composition(Swizzle<3, 3, 3>{}, k_major));
  auto plain = make_tensor(smem, k_major);
  auto n_major = make_tensor(smem, make_layout(make_shape(_64{}, _32{})));
  ldmatrix_a<SM75_U32x4_LDSM_N>(mma, sw, t, out);
  ldmatrix_b<SM75_U32x4_LDSM_N>(mma, sw, t, out);
  ldmatrix_b<SM75_U32x2_LDSM_N>(mma, plain, t, out);
  ldmatrix_b<SM75_U16x8_LDSM_T>(mma, n_major, t, out);
  ldmatrix_b<SM75_U16x4_LDSM_T>(mma, n_major, t, out);
  auto mma_k8 = make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{});
  ldmatrix_b<SM75_U32x1_LDSM_N>(mma_k8, make_tensor(smem, make_layout(make_shape(_8{}, _8{}), LayoutRight{})), t, out);
  ldmatrix_b<SM75_U16x2_LDSM_T>(mma_k8, make_tensor(smem, make_layout(make_shape(_8{}, _8{}))), t, out);
  // registers -> smem, every stmatrix (sm_90; compiled for sm_80 too, where it reports
  // itself unsupported), K-major plain and swizzled, M-major with .trans
  stmatrix_a<SM90_U32x4_STSM_N>(mma, sw, t);
  stmatrix_a<SM90_U32x2_STSM_N>(mma, plain, t);
  stmatrix_a<SM90_U16x8_STSM_T>(mma, make_tensor(smem, make_layout(make_shape(_128{}, _64{}))), t);
  stmatrix_a<SM90_U16x4_STSM_T>(mma, make_tensor(smem, make_layout(make_shape(_128{}, _64{}))), t);
  stmatrix_a<SM90_U32x1_STSM_N>(mma_k8, make_tensor(smem, make_layout(make_shape(_16{}, _8{}), LayoutRight{})), t);
  stmatrix_a<SM90_U16x2_STSM_T>(mma_k8, make_tensor(smem, make_layout(make_shape(_16{}, _8{}))), t);
  // gemm over a tiled MMA's fragments (V,M,K) x (V,N,K) -> (V,M,N), and the epilogue helpers
  auto thr = mma.get_slice(t);
  auto fA = thr.partition_fragment_A(sw);
  auto fB = thr.partition_fragment_B(sw);
  auto gC = make_tensor(out, make_layout(make_shape(_128{}, _128{}), LayoutRight{}));
  auto fC = thr.partition_fragment_C(gC);
  clear(fC);
  gemm(mma, fA, fB, fC);
  auto fD = make_fragment_like<half_t>(thr.partition_C(gC));
  axpby(2.f, fC, 0.5f, fD);
  transform(fC, [](float x) { return x * 2; });
  transform(fC, fD, [](float x) { return x + 1; });
  copy(Copy_Atom<UniversalCopy<uint64_t>, float>{}, fC, thr.partition_C(gC));
  r2g_16B(reinterpret_cast<half_t*>(out), t);
  r2g_16B(out, t);
  // one atom of each kind
  one_mma<SM80_16x8x16_F32BF16BF16F32_TN, bfloat16_t, float>(t, out);
  one_mma<SM80_16x8x16_F16F16F16F16_TN, half_t, half_t>(t, out);
  one_mma<SM80_16x8x8_F32TF32TF32F32_TN, tfloat32_t, float>(t, out);
  one_mma<SM80_8x8x4_F64F64F64F64_TN, double, double>(t, out);
  one_mma<SM80_16x8x32_S32S8S8S32_TN, int8_t, int32_t>(t, out);
  one_mma<UniversalFMA<float>, float, float>(t, out);
  out[t] += float(fD[0]) + fC[1];
}
