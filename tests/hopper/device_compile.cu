// Device compile check (compile only; CI has no GPU), for sm_90a: the wgmma atoms of
// atom/mma_sm90.hpp take descriptors built from the GMMA smem layouts: a 3-stage bf16 tile
// of A (128 x 64, K-major, 128B swizzle) and of B (128 x 64, MN-major, 128B swizzle, atoms
// walking K first), sliced per stage (dynamic) and k-block, one wgmma 64x128x16 per k-block.
#include <tessera/algorithm/copy.hpp>
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

// The same through the TiledMma, as a mainloop writes it: two consumer warpgroups (atom
// layout (2,1,1)) over a 3-stage 256 x 64 A (K-major) and 128 x 64 B (MN-major, atoms walking K
// first); partition_fragment_A/B of the smem tensors are descriptor fragments (1, M, K,
// stages), the accumulators a register array viewed as partition_fragment_C's layout, and
// one gemm(tiled_mma, ...) per k-tile issues its 2 x 4 wgmmas, the first k-tile's overwriting
// the accumulators (ScaleOut::Zero). Then an RS atom: A from registers, B descriptors.
#include <tessera/algorithm/gemm.hpp>
#include <tessera/tiled_mma.hpp>

__global__ void tessera_hopper_gemm_tiled_mma_compile(float* out, int k_tiles) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  constexpr auto smem_a = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_256{}, _64{}, _3{}));
  constexpr auto smem_b = GMMA::make_smem_layout<16, GMMA::Major::MN, 128>(make_shape(_128{}, _64{}, _3{}), tuple<_2, _1, _3>{});
  bfloat16_t* a = reinterpret_cast<bfloat16_t*>(smem_raw);
  bfloat16_t* b = a + int(cosize(smem_a.inner()));
  const auto sA = make_tensor(a, smem_a);
  const auto sB = make_tensor(b, smem_b);
  constexpr auto tiled = make_tiled_mma(SM90_64xNx16_F32BF16BF16_SS<128, GMMA::Major::K, GMMA::Major::MN>{},
                                        make_layout(make_shape(_2{}, _1{}, _1{})));
  const auto thr = tiled.get_slice(threadIdx.x % 256);
  const auto tCrA = thr.partition_fragment_A(sA);  // (1, 2, 4, 3) descriptors
  const auto tCrB = thr.partition_fragment_B(sB);  // (1, 1, 4, 3)
  float acc[2 * 64];
  auto tCrC = make_tensor(&acc[0], partition_fragment_C(tiled, make_shape(_256{}, _128{})).layout());  // (64, 2, 1)
  GMMA::warpgroup_fence_operand(acc);
  for (int kt = 0; kt < k_tiles; ++kt) {
    const int stage = kt % 3;
    GMMA::warpgroup_fence_operand(acc);
    GMMA::warpgroup_arrive();
    gemm(tiled, tCrA(_, _, _, stage), tCrB(_, _, _, stage), tCrC, kt == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
    GMMA::warpgroup_commit_batch();
    GMMA::warpgroup_wait<0>();
    GMMA::warpgroup_fence_operand(acc);
  }
  float s = 0;
  for (float x : acc) s += x;
  out[threadIdx.x] = s;
}

__global__ void tessera_hopper_gemm_tiled_mma_rs_compile(float* out, bfloat16_t const* gA) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  constexpr auto smem_b = GMMA::make_smem_layout<16, GMMA::Major::K, 64>(make_shape(_64{}, _32{}));
  const auto sB = make_tensor(reinterpret_cast<bfloat16_t*>(smem_raw), smem_b);
  constexpr auto tiled = make_tiled_mma(SM90_64xNx16_F32BF16BF16_RS<64>{});
  const auto thr = tiled.get_slice(threadIdx.x % 128);
  const auto gAt = make_tensor(gA, make_layout(make_shape(_64{}, _32{}), LayoutRight{}));
  auto tCrA = thr.partition_fragment_A(gAt);  // (8, 1, 2) registers
  copy(thr.partition_A(gAt), tCrA);
  const auto tCrB = thr.partition_fragment_B(sB);  // (1, 1, 2) descriptors
  auto tCrC = partition_fragment_C(tiled, make_shape(_64{}, _64{}));
  GMMA::warpgroup_arrive();
  gemm(tiled, tCrA, tCrB, tCrC, GMMA::ScaleOut::Zero);
  GMMA::warpgroup_commit_batch();
  GMMA::warpgroup_wait<0>();
  float s = 0;
  for (int i = 0; i < int(size(tCrC)); ++i) s += tCrC(i);
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
