// GPU check of stmatrix (sm_90): a 2x2-warp tiled MMA's A fragments, each element tagged
// with its own smem offset, stored with stmatrix (x4 .N over K-major smem, x4 .T over
// M-major smem; plain and Sw<3,3,3>) and read back with the matching ldmatrix.  Every smem
// element must hold its offset and every thread get its fragment back.  Exit 77 without a GPU
// or below sm_90.
#include <cstdio>

#include <cuda_runtime.h>

#include <tessera/algorithm.hpp>

using namespace tessera;

namespace {
constexpr int Elements = 128 * 64;

template <class St, class Ld, class SLayout>
__global__ void round_trip(SLayout slayout, int* wrong) {
  __shared__ uint16_t raw[Elements];
  half_t* smem = reinterpret_cast<half_t*>(raw);
  const int t = threadIdx.x;
  for (int i = t; i < Elements; i += blockDim.x) raw[i] = 0xffff;
  __syncthreads();
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                            make_tile(_32{}, _32{}, _16{}));
  auto s = make_tensor(smem, slayout);
  auto thr = mma.get_slice(t);
  auto frag = thr.partition_fragment_A(s);
  auto where = thr.partition_A(s);
  for (int i = 0; i < int(size(frag)); ++i) frag[i].bits = uint16_t(&where[i] - smem);
  auto st = make_tiled_copy_A(Copy_Atom<St, half_t>{}, mma).get_slice(t);
  copy(st, st.retile_S(frag), st.partition_D(s));
  __syncthreads();
  for (int i = t; i < Elements; i += blockDim.x)
    if (raw[i] != uint16_t(i)) atomicAdd(wrong, 1);
  auto back = thr.partition_fragment_A(s);
  auto ld = make_tiled_copy_A(Copy_Atom<Ld, half_t>{}, mma).get_slice(t);
  copy(ld, ld.partition_S(s), ld.retile_D(back));
  for (int i = 0; i < int(size(frag)); ++i)
    if (back[i].bits != frag[i].bits) atomicAdd(wrong, 1);
}

template <class St, class Ld, class SLayout>
int run(char const* what, SLayout slayout) {
  int* wrong = nullptr;
  cudaMalloc(&wrong, sizeof(int));
  cudaMemset(wrong, 0, sizeof(int));
  round_trip<St, Ld><<<1, 128>>>(slayout, wrong);
  int host = -1;
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(&host, wrong, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(wrong);
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    return 1;
  }
  std::printf("%s: %d wrong\n", what, host);
  return host != 0;
}
}  // namespace

int main() {
  int devices = 0;
  cudaDeviceProp prop;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      prop.major < 9) {
    std::printf("no sm_90 GPU: skipped\n");
    return 77;
  }
  auto k_major = tile_to_shape(make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})), make_shape(_128{}, _64{}));
  auto m_major = make_layout(make_shape(_128{}, _64{}));
  int failed = 0;
  failed += run<SM90_U32x4_STSM_N, SM75_U32x4_LDSM_N>("stmatrix x4 / ldmatrix x4, K-major", k_major);
  failed += run<SM90_U32x4_STSM_N, SM75_U32x4_LDSM_N>("stmatrix x4 / ldmatrix x4, K-major Sw<3,3,3>",
                                                      composition(Swizzle<3, 3, 3>{}, k_major));
  failed += run<SM90_U32x2_STSM_N, SM75_U32x2_LDSM_N>("stmatrix x2 / ldmatrix x2, K-major", k_major);
  failed += run<SM90_U16x8_STSM_T, SM75_U16x8_LDSM_T>("stmatrix x4.trans / ldmatrix x4.trans, M-major", m_major);
  std::printf("%s (%s)\n", failed ? "FAILED" : "ok", prop.name);
  return failed ? 1 : 0;
}
