// GPU check (sm_90a) of the 8-bit wgmma atoms (m64nNk32: e4m3/e5m2 with f16 or f32
// accumulators, s8/u8 with s32): for a few N per A/B type pair, one warpgroup issues the atom
// over a 64 x 128 A and an N x 128 B (four k-blocks of 32) held K-major in GMMA shared-memory
// tiles (every swizzle mode across the cases), A from shared memory (SS) or from registers
// placed by the atom's ALayout (RS); the first wgmma has scale-d Zero over accumulators
// poisoned with NaN (or INT_MIN), and D is written through the atom's CLayout to an output
// poisoned likewise. The host reference sums the dequantized operands in FP64:
//  - small integers (exact in every type, their sums exact in f16): D must equal it exactly;
//  - random finite codes (fp8: |x| <= 8, subnormals and signed zeros included; s8/u8: the whole
//    range): integers exactly; floating-point D within a bound relative to sum |a b| (Hopper's
//    fp8 wgmma accumulates with fewer bits than f32, docs/gemm.md), which any misplaced
//    element exceeds by far.
// The host tests cover every N (tests/hopper/wgmma_8bit_test.cpp); this file stays cheap to
// compile: one kernel template, twenty-six instances (every atom once, some twice; three through
// gemm(tiled_mma, ...): descriptor fragments and RS register fragments of 8-bit operands). Exit 0: all pass; 1: a mismatch; 77: no
// sm_90 GPU.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include <tessera/algorithm/gemm.hpp>
#include <tessera/atom/gmma_descriptor.hpp>
#include <tessera/atom/gmma_layout.hpp>
#include <tessera/atom/mma_sm90_8bit.hpp>
#include <tessera/tiled_mma.hpp>

using namespace tessera;
using GMMA::Major;

namespace {

constexpr int BK = 128;  // four k-blocks of 32 (the 128-byte swizzle spans 128 elements of K)

__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// The (rows, 32) k-block kb of a divided operand tile (a plain Layout's slice would drop its
// offset: make_gmma_descriptor takes it as slice_and_offset).
template <class Divided>
__device__ auto k_block(Divided const& divided, int kb) {
  const auto crd = make_coord(make_coord(_, 0), make_coord(_, kb));
  if constexpr (is_composed_layout_v<Divided>) return divided(crd);
  else return slice_and_offset(crd, divided);
}

template <class Op> using traits_t = MMA_Traits<Op>;
template <class Op> constexpr int n_of = int(get<1>(typename traits_t<Op>::Shape_MNK{}));
template <class Op> constexpr bool integer_d = std::is_integral_v<typename traits_t<Op>::ValTypeD>;
template <class Op> constexpr bool f16_d = std::is_same_v<typename traits_t<Op>::ValTypeD, half_t>;
template <class Op> using out_t = std::conditional_t<integer_d<Op>, int32_t, float>;

// a (64 x BK) and b (N x BK) are the operands' bytes, (mn, k) at mn + rows * k.
// The operand value of a byte, in the atom's value type.
template <class T>
__host__ __device__ T from_byte(uint8_t x) {
  if constexpr (std::is_integral_v<T>) return T(x);
  else return T::from_bits(x);
}

// Tiled: the same product through the TiledMma, as a mainloop writes it: partition_fragment_A/B
// of the smem tensors (descriptor fragments; A's registers for RS, filled at the coordinates
// partition_A of an identity tensor gives), partition_fragment_C, one gemm(tiled_mma, ...) with
// ScaleOut::Zero over accumulators poisoned first, D through partition_C.
template <class Op, int SW, bool RS, bool Tiled>
__global__ void wgmma_8bit_kernel(out_t<Op>* d_out, uint8_t const* a_in, uint8_t const* b_in) {
  constexpr int N = n_of<Op>;
  constexpr auto sA = GMMA::make_smem_layout<8, Major::K, SW>(make_shape(_64{}, C<BK>{}));
  constexpr auto sB = GMMA::make_smem_layout<8, Major::K, SW>(make_shape(C<N>{}, C<BK>{}));
  extern __shared__ __align__(1024) uint8_t smem[];
  constexpr int a_bytes = ((int(cosize(sA)) + 1023) / 1024) * 1024;
  uint8_t* a = smem;
  uint8_t* b = smem + a_bytes;
  for (int i = threadIdx.x; i < 64 * BK; i += blockDim.x) a[int(sA(i % 64, i / 64))] = a_in[i];
  for (int i = threadIdx.x; i < N * BK; i += blockDim.x) b[int(sB(i % N, i / N))] = b_in[i];
  fence_proxy_async();  // generic-proxy stores, read by wgmma through the async proxy
  __syncthreads();
  if constexpr (Tiled) {
    using Tr = traits_t<Op>;
    using TA = typename Tr::ValTypeA;
    using TB = typename Tr::ValTypeB;
    constexpr auto tiled = make_tiled_mma(MMA_Atom<Op>{});
    const auto thr = tiled.get_slice(threadIdx.x);
    const auto tCrB = thr.partition_fragment_B(make_tensor(reinterpret_cast<TB*>(b), sB));
    auto tCrC = partition_fragment_C(tiled, make_shape(_64{}, C<N>{}));
    for (int i = 0; i < int(size(tCrC)); ++i) {  // poison
      if constexpr (integer_d<Op>) tCrC(i) = INT32_MIN;
      else tCrC(i) = detail::convert_to<typename Tr::ValTypeC>(__int_as_float(0x7fc00000));
    }
    if constexpr (RS) {
      const auto id = make_identity_tensor(make_shape(_64{}, C<BK>{}));
      auto tCrA = thr.partition_fragment_A(id);
      const auto tCcA = thr.partition_A(id);
      for (int i = 0; i < int(size(tCrA)); ++i) tCrA(i) = from_byte<TA>(a_in[int(get<0>(tCcA(i))) + 64 * int(get<1>(tCcA(i)))]);
      GMMA::warpgroup_arrive();
      gemm(tiled, tCrA, tCrB, tCrC, GMMA::ScaleOut::Zero);
    } else {
      const auto tCrA = thr.partition_fragment_A(make_tensor(reinterpret_cast<TA*>(a), sA));
      GMMA::warpgroup_arrive();
      gemm(tiled, tCrA, tCrB, tCrC, GMMA::ScaleOut::Zero);
    }
    GMMA::warpgroup_commit_batch();
    GMMA::warpgroup_wait<0>();
    const auto tCgC = thr.partition_C(make_tensor(d_out, make_layout(make_shape(_64{}, C<N>{}))));
    for (int i = 0; i < int(size(tCrC)); ++i) tCgC(i) = detail::convert_to<out_t<Op>>(tCrC(i));
  } else {
    const uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
    typename Op::DRegisters d;
    for (auto& x : d) {  // poison: INT_MIN, or NaN (in both halves of an f16 pair)
      if constexpr (integer_d<Op>) x = INT32_MIN;
      else x = __builtin_bit_cast(std::remove_reference_t<decltype(x)>, 0xffffffffu);
    }
    const int t = int(threadIdx.x);
    // RS: thread t's value i of k-block kb is A at m + 64 k = ALayout(t, i), byte i % 4 of
    // register i / 4 (set before the first wgmma: registers a wgmma reads are fenced by it).
    uint32_t ra[BK / 32][4] = {};
    if constexpr (RS)
      for (int kb = 0; kb < BK / 32; ++kb)
        for (int i = 0; i < 16; ++i) {
          const int idx = int(GMMA::A_64x32_RS{}(t, i));
          ra[kb][i / 4] |= uint32_t(a_in[idx % 64 + 64 * (32 * kb + idx / 64)]) << (8 * (i % 4));
        }
    GMMA::warpgroup_fence_operand(d);
    GMMA::warpgroup_arrive();
    for (int kb = 0; kb < BK / 32; ++kb) {
      const auto tb = k_block(logical_divide(sB, make_shape(C<N>{}, _32{})), kb);
      const uint64_t db[1] = {GMMA::make_gmma_descriptor<Major::K, 8>(tb, base + a_bytes).desc};
      const GMMA::ScaleOut scale = kb == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
      if constexpr (RS) {
        Op::fma(d, ra[kb], db, scale);
      } else {
        const auto ta = k_block(logical_divide(sA, make_shape(_64{}, _32{})), kb);
        const uint64_t da[1] = {GMMA::make_gmma_descriptor<Major::K, 8>(ta, base).desc};
        Op::fma(d, da, db, scale);
      }
    }
    GMMA::warpgroup_commit_batch();
    GMMA::warpgroup_wait<0>();
    GMMA::warpgroup_fence_operand(d);
    // Value v of thread t is D(m, n) with m + 64 n = CLayout(t, v); f16 values two per register.
    for (int v = 0; v < N / 2; ++v) {
      const int idx = int(GMMA::C_64xN<N>{}(t, v));
      if constexpr (f16_d<Op>) d_out[idx] = half_t::from_bits(uint16_t(d[v / 2] >> (16 * (v % 2)))).to_float();
      else d_out[idx] = out_t<Op>(d[v]);
    }
  }
}

// Dequantized value of an operand byte.
template <class T>
double value_of(uint8_t x) {
  if constexpr (std::is_same_v<T, int8_t>) return double(int8_t(x));
  else if constexpr (std::is_same_v<T, uint8_t>) return double(x);
  else return double(T::from_bits(x).to_float());
}
// The byte of a value (exact: the callers give representable values).
template <class T>
uint8_t byte_of(double v) {
  if constexpr (std::is_integral_v<T>) return uint8_t(T(v));
  else return T(float(v)).bits;
}

uint32_t lcg(uint32_t& s) { return (s = s * 1664525u + 1013904223u) >> 8; }

// A random finite code with |value| <= 8 (fp8) or any byte (s8/u8).
template <class T>
uint8_t random_code(uint32_t& s) {
  for (;;) {
    const uint8_t x = uint8_t(lcg(s));
    if constexpr (std::is_integral_v<T>) return x;
    else if (const double v = value_of<T>(x); std::isfinite(v) && std::fabs(v) <= 8) return x;
  }
}

template <class Op, int SW, bool RS, bool Tiled>
int check(const char* name, bool random) {
  using Tr = traits_t<Op>;
  using TA = typename Tr::ValTypeA;
  using TB = typename Tr::ValTypeB;
  constexpr int N = n_of<Op>;
  std::vector<uint8_t> a(64 * BK), b(size_t(N) * BK);
  uint32_t seed = 12345u + N;
  for (int k = 0; k < BK; ++k) {
    for (int m = 0; m < 64; ++m)
      a[m + 64 * k] = random ? random_code<TA>(seed) : byte_of<TA>(double((m * 3 + k * 5) % 7 - (std::is_same_v<TA, uint8_t> ? 0 : 3)));
    for (int n = 0; n < N; ++n)
      b[n + N * k] = random ? random_code<TB>(seed) : byte_of<TB>(double((n * 2 + k * 3) % 5 - (std::is_same_v<TB, uint8_t> ? 0 : 2)));
  }
  uint8_t *da = nullptr, *db = nullptr;
  out_t<Op>* dd = nullptr;
  cudaMalloc(&da, a.size());
  cudaMalloc(&db, b.size());
  cudaMalloc(&dd, 64 * N * sizeof(out_t<Op>));
  cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice);
  cudaMemset(dd, integer_d<Op> ? 0x80 : 0xff, 64 * N * sizeof(out_t<Op>));  // poison: INT_MIN-like / NaN
  const int smem = ((64 * BK + 1023) / 1024) * 1024 + N * BK + 1024;
  cudaFuncSetAttribute(wgmma_8bit_kernel<Op, SW, RS, Tiled>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  wgmma_8bit_kernel<Op, SW, RS, Tiled><<<1, 128, smem>>>(dd, da, db);
  const cudaError_t e = cudaDeviceSynchronize();
  std::vector<out_t<Op>> d(size_t(64) * N);
  cudaMemcpy(d.data(), dd, d.size() * sizeof(out_t<Op>), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dd);
  // Relative bound for random floating-point operands: f32 accumulators 2^-10, f16 2^-8 of sum |a b|.
  const double rel = integer_d<Op> || !random ? 0.0 : f16_d<Op> ? 0x1p-8 : 0x1p-10;
  int bad = 0;
  double worst = 0;
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < 64; ++m) {
      double want = 0, mag = 0;
      for (int k = 0; k < BK; ++k) {
        const double p = value_of<TA>(a[m + 64 * k]) * value_of<TB>(b[n + N * k]);
        want += p;
        mag += std::fabs(p);
      }
      const double got = double(d[m + 64 * n]);
      const double err = std::fabs(got - want);  // NaN (poison left) fails the test below
      if (mag > 0) worst = std::fmax(worst, err / mag);
      if (!(err <= rel * mag)) {
        if (bad < 3) std::printf("  D(%d,%d) = %.9g, want %.9g (sum |ab| %.9g)\n", m, n, got, want, mag);
        ++bad;
      }
    }
  std::printf("%s%-34s N=%3d %s swizzle %3dB %s: %s (%d of %d wrong, worst |err|/sum|ab| %.3g)%s%s\n",
              Tiled ? "gemm(tiled_mma) " : "", name, N, RS ? "RS" : "SS", SW, random ? "random " : "integer",
              bad || e ? "FAIL" : "ok", bad, 64 * N, worst,
              e ? " " : "", e ? cudaGetErrorString(e) : "");
  return bad != 0 || e != cudaSuccess;
}

template <class Op, int SW, bool RS, bool Tiled = false>
int check_both(const char* name) {
  return check<Op, SW, RS, Tiled>(name, false) + check<Op, SW, RS, Tiled>(name, true);
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
  // fp8, f32 accumulators: every A/B pair, SS and RS, N from 8 to 256, every swizzle.
  fails += check_both<SM90_64xNx32_F32E4M3E4M3_SS<256>, 128, false>("SM90_64xNx32_F32E4M3E4M3_SS");
  fails += check_both<SM90_64xNx32_F32E4M3E4M3_RS<64>, 64, true>("SM90_64xNx32_F32E4M3E4M3_RS");
  fails += check_both<SM90_64xNx32_F32E4M3E5M2_SS<8>, 32, false>("SM90_64xNx32_F32E4M3E5M2_SS");
  fails += check_both<SM90_64xNx32_F32E5M2E4M3_RS<24>, 16, true>("SM90_64xNx32_F32E5M2E4M3_RS");
  fails += check_both<SM90_64xNx32_F32E5M2E5M2_SS<128>, 128, false>("SM90_64xNx32_F32E5M2E5M2_SS");
  // fp8, f16 accumulators.
  fails += check_both<SM90_64xNx32_F16E4M3E4M3_SS<64>, 128, false>("SM90_64xNx32_F16E4M3E4M3_SS");
  fails += check_both<SM90_64xNx32_F16E5M2E5M2_RS<32>, 64, true>("SM90_64xNx32_F16E5M2E5M2_RS");
  fails += check_both<SM90_64xNx32_F16E4M3E5M2_SS<136>, 32, false>("SM90_64xNx32_F16E4M3E5M2_SS");
  fails += check_both<SM90_64xNx32_F16E5M2E4M3_SS<16>, 16, false>("SM90_64xNx32_F16E5M2E4M3_SS");
  // s8/u8, s32 accumulators (N: 8, 16, 24, 32, then multiples of 16).
  fails += check_both<SM90_64xNx32_S32S8S8_SS<256>, 128, false>("SM90_64xNx32_S32S8S8_SS");
  fails += check_both<SM90_64xNx32_S32S8U8_RS<48>, 64, true>("SM90_64xNx32_S32S8U8_RS");
  fails += check_both<SM90_64xNx32_S32U8S8_SS<8>, 32, false>("SM90_64xNx32_S32U8S8_SS");
  fails += check_both<SM90_64xNx32_S32U8U8_RS<144>, 16, true>("SM90_64xNx32_S32U8U8_RS");
  // Each pair's other operand source (SS above: RS here, and the reverse), so that every one of
  // the 24 atoms (12 type pairs, SS and RS) runs on the GPU at least once.
  fails += check_both<SM90_64xNx32_F32E4M3E5M2_RS<112>, 128, true>("SM90_64xNx32_F32E4M3E5M2_RS");
  fails += check_both<SM90_64xNx32_F32E5M2E4M3_SS<200>, 64, false>("SM90_64xNx32_F32E5M2E4M3_SS");
  fails += check_both<SM90_64xNx32_F32E5M2E5M2_RS<56>, 32, true>("SM90_64xNx32_F32E5M2E5M2_RS");
  fails += check_both<SM90_64xNx32_F16E4M3E4M3_RS<96>, 16, true>("SM90_64xNx32_F16E4M3E4M3_RS");
  fails += check_both<SM90_64xNx32_F16E5M2E5M2_SS<248>, 128, false>("SM90_64xNx32_F16E5M2E5M2_SS");
  fails += check_both<SM90_64xNx32_F16E4M3E5M2_RS<8>, 64, true>("SM90_64xNx32_F16E4M3E5M2_RS");
  fails += check_both<SM90_64xNx32_S32S8S8_RS<16>, 32, true>("SM90_64xNx32_S32S8S8_RS");
  fails += check_both<SM90_64xNx32_S32S8U8_SS<80>, 128, false>("SM90_64xNx32_S32S8U8_SS");
  fails += check_both<SM90_64xNx32_S32U8S8_RS<224>, 16, true>("SM90_64xNx32_S32U8S8_RS");
  fails += check_both<SM90_64xNx32_S32U8U8_SS<32>, 64, false>("SM90_64xNx32_S32U8U8_SS");
  // Through the TiledMma: descriptor fragments of 8-bit smem tensors, A's registers for RS.
  fails += check_both<SM90_64xNx32_F32E4M3E4M3_SS<128>, 128, false, true>("SM90_64xNx32_F32E4M3E4M3_SS");
  fails += check_both<SM90_64xNx32_F16E5M2E4M3_RS<64>, 32, true, true>("SM90_64xNx32_F16E5M2E4M3_RS");
  fails += check_both<SM90_64xNx32_S32S8U8_RS<64>, 64, true, true>("SM90_64xNx32_S32S8U8_RS");
  std::printf("%s: %d failing check(s)\n", fails ? "FAILED" : "PASSED", fails);
  return fails ? 1 : 0;
}
