// GPU check (sm_90a) of the host-derived Hopper pieces against the hardware:
//  1. wgmma fed by descriptors from make_gmma_descriptor over GMMA smem tiles (every swizzle
//     mode, both majors of A and B) computes A * B^T exactly (small integers in bf16), and
//     the tf32 atoms (m64nNk8, K-major, SS at every swizzle and RS) on f32 words;
//  1c. the same through the TiledMma: partition_fragment_A/B of staged smem tensors
//     (descriptor fragments) and gemm(tiled_mma, ...) with ScaleOut, for one and two
//     warpgroups, M repeats, f32 and f16 accumulators, SS and RS atoms;
//  2. TMA copies with the arguments tma::make_arguments derives (cuTensorMapEncodeTiled) put
//     every gmem element where the swizzled smem layout says, out-of-bounds rows as zeros,
//     completing on the pipeline's DeviceMbarrier.
// Exit 0: all pass; 1: a mismatch (printed); 77: no sm_90 GPU.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <type_traits>
#include <vector>

#include <tessera/algorithm/gemm.hpp>
#include <tessera/analysis/tma.hpp>
#include <tessera/atom/gmma_descriptor.hpp>
#include <tessera/atom/mma_sm90.hpp>
#include <tessera/pipeline/mbarrier.hpp>
#include <tessera/tiled_mma.hpp>

using namespace tessera;
using GMMA::Major;

namespace {

__host__ __device__ constexpr float a_value(int m, int k) { return float((m * 3 + k * 5) % 7 - 3); }
// (B depends on n: with n * 5 it did not, and a wrong B layout along N went unseen.)
__host__ __device__ constexpr float b_value(int n, int k) { return float((n * 2 + k * 3) % 5 - 2); }

__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// ---------------------------------------------------------------- 1. wgmma descriptors
constexpr int BK = 64;  // 4 wgmma k-blocks of 16

// The (64, 16) k-block kb of a divided operand tile: a swizzled tile's slice keeps its
// offset; without a swizzle the divided tile is a plain Layout, whose slice drops it, so
// it goes as slice_and_offset (make_gmma_descriptor refuses a plain Layout alone).
template <class Divided>
__device__ auto k_block(Divided const& divided, int kb) {
  const auto crd = make_coord(make_coord(_, 0), make_coord(_, kb));
  if constexpr (is_composed_layout_v<Divided>) return divided(crd);
  else return slice_and_offset(crd, divided);
}

template <Major MA, Major MB, int SW>
__global__ void wgmma_kernel(float* c_out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  // Atoms walk MN first (LayoutLeft). (Other orders are covered on the host; the first GPU run
  // of this file failed to compile make_ordered_layout with the GPU machine's host compiler.)
  constexpr auto sA = GMMA::make_smem_layout<16, MA, SW>(make_shape(_64{}, C<BK>{}));
  constexpr auto sB = GMMA::make_smem_layout<16, MB, SW>(make_shape(_64{}, C<BK>{}));
  bfloat16_t* a = reinterpret_cast<bfloat16_t*>(smem);
  constexpr int a_bytes = ((int(cosize(sA)) * 2 + 1023) / 1024) * 1024;
  bfloat16_t* b = reinterpret_cast<bfloat16_t*>(smem + a_bytes);
  for (int i = threadIdx.x; i < 64 * BK; i += blockDim.x) {
    const int mn = i % 64, k = i / 64;
    a[int(sA(mn, k))] = bfloat16_t(a_value(mn, k));
    b[int(sB(mn, k))] = bfloat16_t(b_value(mn, k));
  }
  fence_proxy_async();  // generic-proxy stores, read by wgmma through the async proxy
  __syncthreads();
  const uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
  using Wgmma = SM90_64xNx16_F32BF16BF16_SS<64, MA, MB>;
  typename Wgmma::DRegisters d = {};
  GMMA::warpgroup_arrive();
  for (int kb = 0; kb < BK / 16; ++kb) {
    const auto ta = k_block(logical_divide(sA, make_shape(_64{}, _16{})), kb);
    const auto tb = k_block(logical_divide(sB, make_shape(_64{}, _16{})), kb);
    const uint64_t da[1] = {GMMA::make_gmma_descriptor<MA, 16>(ta, base).desc};
    const uint64_t db[1] = {GMMA::make_gmma_descriptor<MB, 16>(tb, base + a_bytes).desc};
    Wgmma::fma(d, da, db, kb == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
  }
  GMMA::warpgroup_commit_batch();
  GMMA::warpgroup_wait<0>();
  // Accumulator value v of thread t is C(m, n) with m + 64 n = C_64xN(t, v).
  for (int v = 0; v < 32; ++v) {
    const int idx = int(GMMA::C_64xN<64>{}(int(threadIdx.x), v));
    c_out[idx] = d[v];
  }
}

// Runs a one-warpgroup kernel writing a 64 x 64 C (poisoned with NaN first) and counts the
// elements that differ from sum over k < bk of a_value(m, k) * b_value(n, k).
int run_64x64(void (*kernel)(float*), int smem, int bk, cudaError_t& e) {
  float* dc = nullptr;
  cudaMalloc(&dc, 64 * 64 * sizeof(float));
  cudaMemset(dc, 0xff, 64 * 64 * sizeof(float));  // poison: NaN
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  kernel<<<1, 128, smem>>>(dc);
  e = cudaDeviceSynchronize();
  std::vector<float> c(64 * 64);
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dc);
  int bad = 0;
  for (int n = 0; n < 64; ++n)
    for (int m = 0; m < 64; ++m) {
      float want = 0;
      for (int k = 0; k < bk; ++k) want += a_value(m, k) * b_value(n, k);
      if (c[m + 64 * n] != want) {
        if (bad < 3) std::printf("  C(%d,%d) = %g, want %g\n", m, n, c[m + 64 * n], want);
        ++bad;
      }
    }
  return bad;
}

template <Major MA, Major MB, int SW>
int check_wgmma() {
  cudaError_t e = cudaSuccess;
  const int bad = run_64x64(wgmma_kernel<MA, MB, SW>, 2 * 64 * BK * 2 + 2048, BK, e);
  std::printf("wgmma A %s-major, B %s-major, swizzle %3dB: %s (%d of 4096 wrong)%s%s\n", MA == Major::K ? "K " : "MN",
              MB == Major::K ? "K " : "MN", SW, bad || e ? "FAIL" : "ok", bad, e ? " " : "", e ? cudaGetErrorString(e) : "");
  return bad != 0 || e != cudaSuccess;
}

// ---------------------------------------------------------------- 1b. tf32 wgmma (k = 8)
// The same with f32 words in shared memory read as tf32 by wgmma.m64nNk8 (K-major only):
// small integers are exact in tf32. A from shared memory (SS, every swizzle) or from
// registers (RS: thread t's value i is A at the atom's ALayout(t, i)).
constexpr int BK32 = 32;  // 4 wgmma k-blocks of 8

template <int SW, bool A_REGISTERS>
__global__ void wgmma_tf32_kernel(float* c_out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  constexpr auto sA = GMMA::make_smem_layout<32, Major::K, SW>(make_shape(_64{}, C<BK32>{}));
  constexpr auto sB = GMMA::make_smem_layout<32, Major::K, SW>(make_shape(_64{}, C<BK32>{}));
  float* a = reinterpret_cast<float*>(smem);
  constexpr int a_bytes = ((int(cosize(sA)) * 4 + 1023) / 1024) * 1024;
  float* b = reinterpret_cast<float*>(smem + a_bytes);
  for (int i = threadIdx.x; i < 64 * BK32; i += blockDim.x) {
    const int mn = i % 64, k = i / 64;
    a[int(sA(mn, k))] = a_value(mn, k);
    b[int(sB(mn, k))] = b_value(mn, k);
  }
  fence_proxy_async();
  __syncthreads();
  const uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
  using Wgmma = std::conditional_t<A_REGISTERS, SM90_64xNx8_F32TF32TF32_RS<64>, SM90_64xNx8_F32TF32TF32_SS<64>>;
  typename Wgmma::DRegisters d = {};
  typename Wgmma::ARegisters ra[BK32 / 8] = {};
  if constexpr (A_REGISTERS) {
    for (int kb = 0; kb < BK32 / 8; ++kb)
      for (int i = 0; i < 4; ++i) {
        const int idx = int(GMMA::A_64x8_RS{}(int(threadIdx.x), i));  // m + 64 k within the k-block
        ra[kb][i] = __float_as_uint(a_value(idx % 64, 8 * kb + idx / 64));
      }
  }
  GMMA::warpgroup_arrive();
  for (int kb = 0; kb < BK32 / 8; ++kb) {
    const auto tb = k_block(logical_divide(sB, make_shape(_64{}, _8{})), kb);
    const uint64_t db[1] = {GMMA::make_gmma_descriptor<Major::K, 32>(tb, base + a_bytes).desc};
    if constexpr (A_REGISTERS) {
      Wgmma::fma(d, ra[kb], db, kb == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
    } else {
      const auto ta = k_block(logical_divide(sA, make_shape(_64{}, _8{})), kb);
      const uint64_t da[1] = {GMMA::make_gmma_descriptor<Major::K, 32>(ta, base).desc};
      Wgmma::fma(d, da, db, kb == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
    }
  }
  GMMA::warpgroup_commit_batch();
  GMMA::warpgroup_wait<0>();
  for (int v = 0; v < 32; ++v) c_out[int(GMMA::C_64xN<64>{}(int(threadIdx.x), v))] = d[v];
}

template <int SW, bool A_REGISTERS>
int check_wgmma_tf32() {
  cudaError_t e = cudaSuccess;
  const int bad = run_64x64(wgmma_tf32_kernel<SW, A_REGISTERS>, 2 * 64 * BK32 * 4 + 2048, BK32, e);
  std::printf("wgmma tf32 %s, K-major, swizzle %3dB: %s (%d of 4096 wrong)%s%s\n", A_REGISTERS ? "RS" : "SS", SW,
              bad || e ? "FAIL" : "ok", bad, e ? " " : "", e ? cudaGetErrorString(e) : "");
  return bad != 0 || e != cudaSuccess;
}

// ---------------------------------------------------------------- 1c. through the TiledMma
// The mainloop's way: W warpgroups along M (the TiledMma's atom layout (W,1,1)), AtomsM
// repeats over BM = 64 W AtomsM rows, N = the atom's, K = two stages of 64 in a staged smem
// tile; partition_fragment_A/B of the smem tensors (descriptor fragments; A from registers
// for an RS atom), one gemm(tiled_mma, ...) per stage (a run-time index), the first with
// ScaleOut::Zero over accumulators poisoned with NaN; C through partition_C of gmem.
constexpr int kTiledStages = 2;

template <class Op, int W, int AtomsM, Major MA, Major MB, int SW>
__global__ void tiled_wgmma_kernel(float* c_out, int stages) {
  using Traits = MMA_Traits<Op>;
  constexpr int N = int(get<1>(typename Traits::Shape_MNK{})), BM = 64 * W * AtomsM;
  using OrderA = std::conditional_t<MA == Major::K, tuple<_1, _2, _3>, tuple<_2, _1, _3>>;
  using OrderB = std::conditional_t<MB == Major::K, tuple<_1, _2, _3>, tuple<_2, _1, _3>>;
  constexpr auto smem_a = GMMA::make_smem_layout<16, MA, SW>(make_shape(C<BM>{}, C<BK>{}, C<kTiledStages>{}), OrderA{});
  constexpr auto smem_b = GMMA::make_smem_layout<16, MB, SW>(make_shape(C<N>{}, C<BK>{}, C<kTiledStages>{}), OrderB{});
  extern __shared__ __align__(1024) unsigned char smem[];
  using TA = typename Traits::ValTypeA;
  TA* a = reinterpret_cast<TA*>(smem);
  TA* b = a + ((int(cosize(smem_a.inner())) + 511) / 512) * 512;  // B on a 1 KiB boundary too
  for (int i = threadIdx.x; i < kTiledStages * BK * BM; i += blockDim.x) {
    const int m = i % BM, k = (i / BM) % BK, s = i / (BM * BK);
    a[int(smem_a(m, k, s))] = TA(a_value(m, BK * s + k));
  }
  for (int i = threadIdx.x; i < kTiledStages * BK * N; i += blockDim.x) {
    const int n = i % N, k = (i / N) % BK, s = i / (N * BK);
    b[int(smem_b(n, k, s))] = TA(b_value(n, BK * s + k));
  }
  fence_proxy_async();
  __syncthreads();
  constexpr auto tiled = make_tiled_mma(MMA_Atom<Op>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto thr = tiled.get_slice(threadIdx.x);
  const auto sA = make_tensor(a, smem_a);
  const auto sB = make_tensor(b, smem_b);
  const auto tCrB = thr.partition_fragment_B(sB);
  auto tCrC = partition_fragment_C(tiled, make_shape(C<BM>{}, C<N>{}));
  for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = typename Traits::ValTypeC(__int_as_float(0x7fc00000));  // NaN
  constexpr bool a_registers = !detail::operand_is_shared<typename Traits::ALayout>();
  if constexpr (a_registers) {
    // A's registers from its values at the coordinates the thread's partition holds.
    const auto id = make_identity_tensor(make_shape(C<BM>{}, C<BK>{}));  // stage 0's K
    auto tCrA = thr.partition_fragment_A(id);
    const auto tCcA = thr.partition_A(id);
    for (int i = 0; i < int(size(tCrA)); ++i) tCrA(i) = TA(a_value(int(get<0>(tCcA(i))), int(get<1>(tCcA(i)))));
    GMMA::warpgroup_arrive();
    gemm(tiled, tCrA, tCrB(_, _, _, 0), tCrC, GMMA::ScaleOut::Zero);
    (void)stages;
  } else {
    const auto tCrA = thr.partition_fragment_A(sA);
    GMMA::warpgroup_arrive();
    for (int s = 0; s < stages; ++s)
      gemm(tiled, tCrA(_, _, _, s), tCrB(_, _, _, s), tCrC, s == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
  }
  GMMA::warpgroup_commit_batch();
  GMMA::warpgroup_wait<0>();
  const auto tCgC = thr.partition_C(make_tensor(c_out, make_layout(make_shape(C<BM>{}, C<N>{}))));
  for (int i = 0; i < int(size(tCrC)); ++i) tCgC(i) = detail::convert_to<float>(tCrC(i));
}

template <class Op, int W, int AtomsM, Major MA, Major MB, int SW>
int check_tiled_wgmma(const char* what) {
  using Traits = MMA_Traits<Op>;
  constexpr int N = int(get<1>(typename Traits::Shape_MNK{})), BM = 64 * W * AtomsM;
  constexpr bool a_registers = !detail::operand_is_shared<typename Traits::ALayout>();
  const int bk = a_registers ? BK : BK * kTiledStages;  // the RS case multiplies stage 0's K only
  float* dc = nullptr;
  cudaMalloc(&dc, BM * N * sizeof(float));
  cudaMemset(dc, 0xff, BM * N * sizeof(float));
  const int smem = 2 * kTiledStages * (BM + N) * BK + 2048;
  auto kernel = tiled_wgmma_kernel<Op, W, AtomsM, MA, MB, SW>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  kernel<<<1, 128 * W, smem>>>(dc, kTiledStages);
  const cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> c(std::size_t(BM * N));
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dc);
  int bad = 0;
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < BM; ++m) {
      float want = 0;
      for (int k = 0; k < bk; ++k) want += a_value(m, k) * b_value(n, k);
      if (c[std::size_t(m + BM * n)] != want) {
        if (bad < 3) std::printf("  C(%d,%d) = %g, want %g\n", m, n, c[std::size_t(m + BM * n)], want);
        ++bad;
      }
    }
  std::printf("gemm(tiled_mma) %s %dx%dx%d, %d warpgroup(s): %s (%d of %d wrong)%s%s\n", what, BM, N, bk, W, bad || e ? "FAIL" : "ok",
              bad, BM * N, e ? " " : "", e ? cudaGetErrorString(e) : "");
  return bad != 0 || e != cudaSuccess;
}

// ---------------------------------------------------------------- 2. TMA arguments
template <class Smem>
__global__ void tma_kernel(const __grid_constant__ CUtensorMap tmap, Smem s, tma::Arguments args, int m0, int k0,
                           int tile_m, int tile_k, const uint16_t* g, int64_t g_stride_m, int64_t g_stride_k, int64_t gm,
                           int64_t gk, int* bad) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ pipeline::DeviceMbarrier bar;
  uint16_t* t = reinterpret_cast<uint16_t*>(smem);
  for (int i = threadIdx.x; i < int(cosize(s)); i += blockDim.x) t[i] = 0xBEEF;  // poison
  fence_proxy_async();
  if (threadIdx.x == 0) {
    bar.init(1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    bar.arrive_expect_tx(uint32_t(args.box_bytes * args.boxes));
    const uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
    for (int64_t q = 0; q < args.boxes; ++q) {
      int64_t crd_mode[2] = {m0, k0}, corner[2] = {0, 0}, rest = q;
      for (int d = 0; d < 2; ++d) {
        const int mode = args.mode_of_dim[d];
        corner[mode] = (rest % args.boxes_per_dim[d]) * args.box_dim[d];
        rest /= args.boxes_per_dim[d];
        crd_mode[mode] += corner[mode];
      }
      const uint32_t dst = base + uint32_t(int64_t(s.inner()(corner[0], corner[1])) * 2);
      const int c0 = int(crd_mode[args.mode_of_dim[0]]), c1 = int(crd_mode[args.mode_of_dim[1]]);
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
          "l"(reinterpret_cast<uint64_t>(&tmap)), "r"(c0), "r"(c1), "r"(bar.address())
          : "memory");
    }
  }
  while (!bar.try_wait(0)) {}
  for (int i = threadIdx.x; i < tile_m * tile_k; i += blockDim.x) {
    const int m = i % tile_m, k = i / tile_m;
    const int64_t gm_i = m0 + m, gk_i = k0 + k;
    const uint16_t want = gm_i < gm && gk_i < gk ? g[gm_i * g_stride_m + gk_i * g_stride_k] : uint16_t(0);
    if (t[int(s(m, k))] != want) atomicAdd(bad, 1);
  }
}

template <Major MJ, int SW>
int check_tma(int64_t M, int64_t K, int m0, int k0) {
  constexpr int TM = 64, TK = 64;
  constexpr auto s = GMMA::make_smem_layout<16, MJ, SW>(make_shape(C<TM>{}, C<TK>{}));
  // gmem (M, K): K-major rows of K (padded to 16 bytes), MN-major columns of M.
  const int64_t ld = MJ == Major::K ? (K + 7) / 8 * 8 : (M + 7) / 8 * 8;
  const int64_t sm = MJ == Major::K ? ld : 1, sk = MJ == Major::K ? 1 : ld;
  const auto gmem = make_layout(make_shape(M, K), make_stride(sm, sk));
  const tma::Arguments args = tma::make_arguments<16>(gmem, s);
  if (args.rule != tma::Rule::ok) {
    std::printf("tma %s swizzle %d: derivation refused: %s\n", MJ == Major::K ? "K" : "MN", SW, tma::to_string(args.rule));
    return 1;
  }
  const int64_t elems = (MJ == Major::K ? M : K) * ld;
  std::vector<uint16_t> h(static_cast<std::size_t>(elems));
  for (int64_t i = 0; i < elems; ++i) h[static_cast<std::size_t>(i)] = static_cast<uint16_t>((uint64_t(i) * 2654435761u) >> 7);
  uint16_t* dg = nullptr;
  int* dbad = nullptr;
  cudaMalloc(&dg, elems * 2);
  cudaMalloc(&dbad, sizeof(int));
  cudaMemcpy(dg, h.data(), elems * 2, cudaMemcpyHostToDevice);
  cudaMemset(dbad, 0, sizeof(int));
  CUtensorMap tmap;
  cuuint64_t gdim[5], gstride[5];
  cuuint32_t box[5], estride[5];
  for (int d = 0; d < args.rank; ++d) {
    gdim[d] = cuuint64_t(args.global_dim[d]);
    box[d] = cuuint32_t(args.box_dim[d]);
    estride[d] = cuuint32_t(args.element_strides[d]);
    if (d >= 1) gstride[d - 1] = cuuint64_t(args.global_stride_bytes[d]);
  }
  const CUtensorMapSwizzle swz[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B,
                                    CU_TENSOR_MAP_SWIZZLE_128B};
  const CUtensorMapL2promotion l2[] = {CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B};
  // The driver's encoder through the runtime (no link against libcuda: without a driver the
  // program still starts and reports "skipped").
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                              const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      fn == nullptr) {
    std::printf("tma: cuTensorMapEncodeTiled not found\n");
    return 1;
  }
  const CUresult r = reinterpret_cast<Encode>(fn)(&tmap, CU_TENSOR_MAP_DATA_TYPE_UINT16, cuuint32_t(args.rank), dg, gdim, gstride, box,
                                            estride, CU_TENSOR_MAP_INTERLEAVE_NONE, swz[int(args.swizzle)],
                                            l2[int(args.l2_promotion)], CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  int bad = -1;
  cudaError_t e = cudaSuccess;
  if (r == CUDA_SUCCESS) {
    const int smem_bytes = int(cosize(s)) * 2;
    cudaFuncSetAttribute(tma_kernel<decltype(s)>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
    tma_kernel<<<1, 128, smem_bytes>>>(tmap, s, args, m0, k0, TM, TK, dg, sm, sk, M, K, dbad);
    e = cudaDeviceSynchronize();
    cudaMemcpy(&bad, dbad, sizeof(int), cudaMemcpyDeviceToHost);
  }
  cudaFree(dg);
  cudaFree(dbad);
  std::printf("tma %s-major swizzle %3dB gmem (%lld,%lld) tile at (%d,%d): box {%lld,%lld} x %lld: %s (encode %d, %d wrong)%s%s\n",
              MJ == Major::K ? "K " : "MN", SW, (long long)M, (long long)K, m0, k0, (long long)args.box_dim[0],
              (long long)args.box_dim[1], (long long)args.boxes, r == CUDA_SUCCESS && bad == 0 && !e ? "ok" : "FAIL", int(r), bad,
              e ? " " : "", e ? cudaGetErrorString(e) : "");
  return r != CUDA_SUCCESS || bad != 0 || e != cudaSuccess;
}

}  // namespace

int main() {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      major != 9) {
    std::printf("skipped: no sm_90 GPU\n");
    return 77;
  }
  int fails = 0;
  fails += check_wgmma<Major::K, Major::K, 16>();
  fails += check_wgmma<Major::K, Major::K, 32>();
  fails += check_wgmma<Major::K, Major::K, 64>();
  fails += check_wgmma<Major::K, Major::K, 128>();
  fails += check_wgmma<Major::MN, Major::MN, 16>();
  fails += check_wgmma<Major::MN, Major::MN, 32>();
  fails += check_wgmma<Major::MN, Major::MN, 64>();
  fails += check_wgmma<Major::MN, Major::MN, 128>();
  fails += check_wgmma<Major::K, Major::MN, 128>();
  fails += check_wgmma<Major::MN, Major::K, 64>();
  fails += check_wgmma_tf32<16, false>();
  fails += check_wgmma_tf32<32, false>();
  fails += check_wgmma_tf32<64, false>();
  fails += check_wgmma_tf32<128, false>();
  fails += check_wgmma_tf32<128, true>();
  fails += check_tiled_wgmma<SM90_64xNx16_F32BF16BF16_SS<128, Major::K, Major::K>, 2, 1, Major::K, Major::K, 128>("bf16 SS K/K 128B");
  fails += check_tiled_wgmma<SM90_64xNx16_F32BF16BF16_SS<256, Major::MN, Major::MN>, 2, 2, Major::MN, Major::MN, 128>("bf16 SS MN/MN 128B");
  fails += check_tiled_wgmma<SM90_64xNx16_F32BF16BF16_SS<64, Major::K, Major::MN>, 1, 2, Major::K, Major::MN, 64>("bf16 SS K/MN 64B");
  fails += check_tiled_wgmma<SM90_64xNx16_F32F16F16_SS<128, Major::MN, Major::K>, 2, 1, Major::MN, Major::K, 32>("f16 SS MN/K 32B");
  fails += check_tiled_wgmma<SM90_64xNx16_F16F16F16_SS<64, Major::K, Major::K>, 2, 1, Major::K, Major::K, 16>("f16 acc SS K/K none");
  fails += check_tiled_wgmma<SM90_64xNx16_F32BF16BF16_RS<128, Major::K, Major::MN>, 2, 1, Major::K, Major::MN, 128>("bf16 RS -/MN 128B");
  fails += check_tma<Major::K, 16>(256, 128, 64, 64);
  fails += check_tma<Major::K, 32>(256, 128, 64, 0);
  fails += check_tma<Major::K, 64>(256, 128, 0, 64);
  fails += check_tma<Major::K, 128>(256, 128, 128, 64);
  fails += check_tma<Major::MN, 16>(256, 128, 64, 64);
  fails += check_tma<Major::MN, 32>(256, 128, 0, 0);
  fails += check_tma<Major::MN, 64>(256, 128, 192, 64);
  fails += check_tma<Major::MN, 128>(256, 128, 128, 0);
  fails += check_tma<Major::K, 128>(200, 100, 192, 64);   // residues: rows >= 200, cols >= 100 read as zeros
  fails += check_tma<Major::MN, 128>(200, 100, 192, 64);
  std::printf("%s: %d failing check(s)\n", fails ? "FAILED" : "PASSED", fails);
  return fails ? 1 : 0;
}
