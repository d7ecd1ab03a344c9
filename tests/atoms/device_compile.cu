// Device compile check of the fragment API (compile only; CI has no GPU): owning register
// tensors, partition_fragment_A/B/C, retile_D, partitions of a swizzled smem tile.
#include <tessera/tiled_copy.hpp>

using namespace tessera;

__global__ void tessera_atoms_fragment_compile(float* out) {
  // (half_t has a default member initializer: __shared__ storage is raw, viewed as half_t)
  __shared__ uint16_t raw_a[64 * 32];
  __shared__ uint16_t raw_b[32 * 32];
  half_t* smem_a = reinterpret_cast<half_t*>(raw_a);
  half_t* smem_b = reinterpret_cast<half_t*>(raw_b);
  const int t = threadIdx.x;
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  auto thr = mma.get_slice(t);
  auto sA = make_tensor(smem_a, composition(Swizzle<2, 3, 3>{}, make_layout(make_shape(_64{}, _32{}), LayoutRight{})));
  auto sB = make_tensor(smem_b, make_layout(make_shape(_32{}, _32{}), LayoutRight{}));
  auto fA = thr.partition_fragment_A(sA);
  auto fB = thr.partition_fragment_B(sB);
  auto fC = partition_fragment_C(mma, make_shape(_64{}, _32{}));
  clear(fC);
  // smem -> registers through ldmatrix-shaped copies: the copy's view of the fragments
  auto copy_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma).get_slice(t);
  auto copy_b = make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma).get_slice(t);
  auto src_a = copy_a.partition_S(sA);
  auto dst_a = copy_a.retile_D(fA);
  auto dst_b = copy_b.retile_D(fB);
  auto src_b = copy_b.partition_S(sB);
  for (int i = 0; i < int(size(dst_a.layout())); ++i) dst_a[i] = src_a[i];
  for (int i = 0; i < int(size(dst_b.layout())); ++i) dst_b[i] = src_b[i];
  for (int m = 0; m < int(size<1>(fC.layout())); ++m)
    for (int n = 0; n < int(size<2>(fC.layout())); ++n)
      for (int v = 0; v < int(size<0>(fC.layout())); ++v)
        fC(v, m, n) += float(fA(v, m, 0)) * float(fB(v, n, 1));
  auto own = make_tensor<float>(make_layout(make_shape(_4{}, _2{})));
  fill(own(_, 1), 1.f);
  auto like = make_fragment_like(thr.partition_C(make_tensor(out, make_layout(make_shape(_64{}, _32{})))));
  like[0] = own(3, 1);
  out[t] = fC[0] + fC(_, 1, 1)[2] + like[0];
}
