// Device compile check (compile only; CI has no GPU), for sm_90a: the wgmma atoms of
// atom/mma_sm90.hpp take descriptors built from the GMMA smem layouts: a 3-stage bf16 tile
// of A (128 x 64, K-major, 128B swizzle) and of B (128 x 64, MN-major, 128B swizzle, atoms
// walking K first), sliced per stage (dynamic) and k-block, one wgmma 64x128x16 per k-block.
#include <tessera/atom/gmma_descriptor.hpp>
#include <tessera/atom/mma_sm90.hpp>

using namespace tessera;

__global__ void tessera_hopper_wgmma_descriptor_compile(float* out, int stage) {
  extern __shared__ __align__(1024) uint16_t smem[];
  constexpr auto sA = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}, _3{}));
  constexpr auto sB = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(_128{}, _64{}, _3{}), tuple<_2, _1, _3>{});
  const uint32_t base_a = uint32_t(__cvta_generic_to_shared(smem));
  const uint32_t base_b = base_a + uint32_t(cosize(sA.inner())) * 2;
  using Wgmma = SM90_64xNx16_F32BF16BF16_SS<128, GMMA::Major::K, GMMA::Major::MN>;
  typename Wgmma::DRegisters acc = {};
  const int warpgroup_m = int(threadIdx.x / 128) % 2;  // two consumer warpgroups: rows 0..63, 64..127
  GMMA::warpgroup_arrive();
  for (int k = 0; k < 4; ++k) {
    auto a = logical_divide(sA(_, _, stage), make_shape(_64{}, _16{}))(make_coord(_, warpgroup_m), make_coord(_, k));
    auto b = logical_divide(sB(_, _, stage), make_shape(_128{}, _16{}))(make_coord(_, 0), make_coord(_, k));
    const uint64_t da[1] = {GMMA::make_gmma_descriptor<GMMA::Major::K, 16>(a, base_a).desc};
    const uint64_t db[1] = {GMMA::make_gmma_descriptor<GMMA::Major::MN, 16>(b, base_b).desc};
    Wgmma::fma(acc, da, db, k == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
  }
  GMMA::warpgroup_commit_batch();
  GMMA::warpgroup_wait<0>();
  float s = 0;
  for (float x : acc) s += x;
  out[threadIdx.x] = s;
}

// The mbarrier pipeline on the device: warp 0 produces (no copy issued: the test only needs
// the barrier protocol to compile for sm_90a), the others consume.
#include <tessera/pipeline/tma_pipeline.hpp>

__global__ void tessera_hopper_pipeline_compile(int* out, int k_tiles) {
  using namespace tessera::pipeline;
  __shared__ TmaPipeline<3, DeviceMbarrier> p;
  if (threadIdx.x == 0) p.init(int(blockDim.x / 32) - 1, 0);
  __syncthreads();
  PipelineState<3> st;
  int sum = 0;
  for (int k = 0; k < k_tiles; ++k, ++st) {
    if (threadIdx.x / 32 == 0) {
      if (threadIdx.x == 0) {
        while (!p.producer_try_acquire(st)) {}
        p.producer_commit(st);
      }
    } else {
      while (!p.consumer_try_wait(st)) {}
      sum += st.index;
      if (threadIdx.x % 32 == 0) p.consumer_release(st);
    }
  }
  out[threadIdx.x] = sum;
}
