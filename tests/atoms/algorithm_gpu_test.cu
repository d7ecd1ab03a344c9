// The algorithms on the GPU, against their own host emulation and against the math:
//  - gemm per MMA atom (every mma.sync atom tessera has, Volta's quad-pairs included, and the
//    universal FMA): each thread loads its partitions of A and B into fragments, runs
//    gemm(tiled_mma, ...) over two k-blocks of a 2x2-tile problem and stores its C partition;
//    the result must be the exact product (small integers) and equal, bit for bit, to the same
//    function run on the host through the atoms' emulation (tessera::host_warp);
//  - copy per copy atom: universal copies of 8..128 bits, the 16-byte global store (STG_U32x4), cp.async 4/8/16 bytes (.ca, .cg, and
//    the zero-filling atoms under copy_if), ldmatrix x1/x2/x4 with and without .trans through
//    make_tiled_copy_A/B over plain and swizzled smem: every destination element must be the
//    source element the tiled copy names, on the device and in the emulation alike.
// (stmatrix: stmatrix_gpu_test.cu; wgmma and TMA: tests/hopper/hopper_gpu_test.cu.)
// Exit 77 (skipped) without a GPU of compute capability 8.0 or more.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <tessera/algorithm.hpp>

using namespace tessera;

namespace {

// The buffers a test body reads and writes: device or host memory alike.
struct Buffers {
  void const* a = nullptr;
  void const* b = nullptr;
  void* d = nullptr;
  void* smem = nullptr;  // the CTA's shared memory (a host vector in the emulation)
};

template <class Body>
__global__ void device_entry(Body body, Buffers buf) {
  extern __shared__ __align__(128) unsigned char smem[];
  buf.smem = smem;
  body(int(threadIdx.x), buf);
}

int failures = 0;

// Runs body on `threads` GPU threads (one CTA) and on as many host threads through the
// emulation, with the same inputs; d starts as `poison` in both.  Returns the device's d
// (empty on a CUDA error) and counts a failure if the two d differ anywhere.
template <class Body>
std::vector<unsigned char> run_both(char const* what, Body body, int threads, std::vector<unsigned char> const& a,
                                    std::vector<unsigned char> const& b, std::size_t d_bytes, std::size_t smem_bytes,
                                    unsigned char poison = 0xA5) {
  std::vector<unsigned char> dev(d_bytes, poison), host(d_bytes, poison), host_smem(smem_bytes, 0x5A);
  void *da = nullptr, *db = nullptr, *dd = nullptr;
  cudaError_t e = cudaMalloc(&da, a.size() + 16);
  if (e == cudaSuccess) e = cudaMalloc(&db, b.size() + 16);
  if (e == cudaSuccess) e = cudaMalloc(&dd, d_bytes);
  if (e == cudaSuccess) e = cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice);
  if (e == cudaSuccess) e = cudaMemcpy(dd, dev.data(), d_bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess && smem_bytes > 48 * 1024)
    e = cudaFuncSetAttribute(device_entry<Body>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_bytes));
  if (e == cudaSuccess) {
    device_entry<<<1, threads, smem_bytes>>>(body, Buffers{da, db, dd, nullptr});
    e = cudaDeviceSynchronize();
  }
  if (e == cudaSuccess) e = cudaMemcpy(dev.data(), dd, d_bytes, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dd);
  if (e != cudaSuccess) {
    std::printf("FAIL %s: %s\n", what, cudaGetErrorString(e));
    ++failures;
    return {};
  }
#if !defined(__CUDA_ARCH__)  // (host_warp exists in the host pass only)
  Buffers hb{a.data(), b.data(), host.data(), host_smem.data()};
  host_warp::launch(threads, [&](int t) { body(t, hb); });
#endif
  std::size_t differ = 0;
  for (std::size_t i = 0; i < d_bytes; ++i) differ += dev[i] != host[i];
  if (differ != 0) {
    std::printf("FAIL %s: the device and the emulation differ in %zu of %zu bytes\n", what, differ, d_bytes);
    ++failures;
  }
  return dev;
}

template <class T>
std::vector<unsigned char> bytes_of(std::vector<T> const& v) {
  std::vector<unsigned char> out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}
template <class T>
std::vector<T> values_of(std::vector<unsigned char> const& raw) {
  std::vector<T> out(raw.size() / sizeof(T));
  std::memcpy(out.data(), raw.data(), out.size() * sizeof(T));
  return out;
}

void report(char const* what, std::size_t wrong, std::size_t total) {
  if (wrong != 0) {
    std::printf("FAIL %s: %zu of %zu elements wrong\n", what, wrong, total);
    ++failures;
  } else {
    std::printf("ok   %s (%zu elements)\n", what, total);
  }
}

// ---------------------------------------------------------------------------------------------
// gemm per MMA atom

template <class T>
T from_int(int v) {
  if constexpr (std::is_integral_v<T>) return T(v);
  else return detail::convert_to<T>(float(v));
}
template <class T>
double to_double(T const& v) {
  if constexpr (std::is_integral_v<T>) return double(v);
  else return detail::convert_to<double>(v);
}

// C (M,N) = A (M,K) * B (N,K)^T: row-major A, B, D; the problem is 2 x 2 x 2 tiles of the
// tiled MMA, so gemm walks its M, N and K modes.
template <class TiledMma>
struct MmaProblem {
  using TA = typename TiledMma::AtomType::ValTypeA;
  using TB = typename TiledMma::AtomType::ValTypeB;
  using TC = typename TiledMma::AtomType::ValTypeC;
  static constexpr int M = 2 * int(decltype(TiledMma::template tile_size_mnk<0>())::value);
  static constexpr int N = 2 * int(decltype(TiledMma::template tile_size_mnk<1>())::value);
  static constexpr int K = 2 * int(decltype(TiledMma::template tile_size_mnk<2>())::value);

  TESSERA_HOST_DEVICE void operator()(int t, Buffers const& buf) const {
    auto gA = make_tensor(static_cast<TA const*>(buf.a), make_layout(make_shape(C<M>{}, C<K>{}), LayoutRight{}));
    auto gB = make_tensor(static_cast<TB const*>(buf.b), make_layout(make_shape(C<N>{}, C<K>{}), LayoutRight{}));
    auto gD = make_tensor(static_cast<TC*>(buf.d), make_layout(make_shape(C<M>{}, C<N>{}), LayoutRight{}));
    TiledMma mma;
    auto thr = mma.get_slice(t);
    auto rA = thr.partition_fragment_A(gA);
    auto rB = thr.partition_fragment_B(gB);
    auto rC = thr.partition_fragment_C(gD);
    copy(thr.partition_A(gA), rA);
    copy(thr.partition_B(gB), rB);
    clear(rC);
    gemm(mma, rA, rB, rC);
    copy(rC, thr.partition_C(gD));
  }
};

template <class TiledMma>
void check_mma(char const* what) {
  using P = MmaProblem<TiledMma>;
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> small(-3, 3);
  std::vector<int> A(std::size_t(P::M * P::K)), B(std::size_t(P::N * P::K));
  for (int& x : A) x = small(rng);
  for (int& x : B) x = small(rng);
  std::vector<typename P::TA> a(A.size());
  std::vector<typename P::TB> b(B.size());
  for (std::size_t i = 0; i < A.size(); ++i) a[i] = from_int<typename P::TA>(A[i]);
  for (std::size_t i = 0; i < B.size(); ++i) b[i] = from_int<typename P::TB>(B[i]);
  const int threads = int(decltype(size(TiledMma{}))::value);
  auto raw = run_both(what, P{}, threads, bytes_of(a), bytes_of(b), sizeof(typename P::TC) * P::M * P::N, 0);
  if (raw.empty()) return;
  auto d = values_of<typename P::TC>(raw);
  std::size_t wrong = 0;
  for (int m = 0; m < P::M; ++m)
    for (int n = 0; n < P::N; ++n) {
      int want = 0;
      for (int k = 0; k < P::K; ++k) want += A[std::size_t(m * P::K + k)] * B[std::size_t(n * P::K + k)];
      wrong += to_double(d[std::size_t(m * P::N + n)]) != double(want);
    }
  report(what, wrong, d.size());
}

template <class Op>
using OneAtom = decltype(make_tiled_mma(Op{}));
// Volta's quad-pair atoms use 8 lanes; 2 x 2 of them fill the warp.
template <class Op>
using QuadPairs = decltype(make_tiled_mma(Op{}, make_layout(make_shape(_2{}, _2{}, _1{}))));

void check_every_mma_atom() {
  check_mma<OneAtom<SM80_16x8x16_F32F16F16F32_TN>>("gemm SM80_16x8x16_F32F16F16F32_TN");
  check_mma<OneAtom<SM80_16x8x16_F32BF16BF16F32_TN>>("gemm SM80_16x8x16_F32BF16BF16F32_TN");
  check_mma<OneAtom<SM80_16x8x16_F16F16F16F16_TN>>("gemm SM80_16x8x16_F16F16F16F16_TN");
  check_mma<OneAtom<SM80_16x8x8_F32F16F16F32_TN>>("gemm SM80_16x8x8_F32F16F16F32_TN");
  check_mma<OneAtom<SM80_16x8x8_F32BF16BF16F32_TN>>("gemm SM80_16x8x8_F32BF16BF16F32_TN");
  check_mma<OneAtom<SM80_16x8x8_F16F16F16F16_TN>>("gemm SM80_16x8x8_F16F16F16F16_TN");
  check_mma<OneAtom<SM75_16x8x8_F32F16F16F32_TN>>("gemm SM75_16x8x8_F32F16F16F32_TN");
  check_mma<OneAtom<SM80_16x8x8_F32TF32TF32F32_TN>>("gemm SM80_16x8x8_F32TF32TF32F32_TN");
  check_mma<OneAtom<SM80_8x8x4_F64F64F64F64_TN>>("gemm SM80_8x8x4_F64F64F64F64_TN");
  check_mma<OneAtom<SM80_16x8x32_S32S8S8S32_TN>>("gemm SM80_16x8x32_S32S8S8S32_TN");
  check_mma<QuadPairs<SM70_8x8x4_F16F16F16F16_TN>>("gemm SM70_8x8x4_F16F16F16F16_TN");
  check_mma<QuadPairs<SM70_8x8x4_F16F16F16F16_NT>>("gemm SM70_8x8x4_F16F16F16F16_NT");
  check_mma<QuadPairs<SM70_8x8x4_F16F16F16F16_NN>>("gemm SM70_8x8x4_F16F16F16F16_NN");
  check_mma<QuadPairs<SM70_8x8x4_F16F16F16F16_TT>>("gemm SM70_8x8x4_F16F16F16F16_TT");
  check_mma<QuadPairs<SM70_8x8x4_F32F16F16F32_TN>>("gemm SM70_8x8x4_F32F16F16F32_TN");
  check_mma<QuadPairs<SM70_8x8x4_F32F16F16F32_NT>>("gemm SM70_8x8x4_F32F16F16F32_NT");
  check_mma<QuadPairs<SM70_8x8x4_F32F16F16F32_NN>>("gemm SM70_8x8x4_F32F16F16F32_NN");
  check_mma<QuadPairs<SM70_8x8x4_F32F16F16F32_TT>>("gemm SM70_8x8x4_F32F16F16F32_TT");
  check_mma<decltype(make_tiled_mma(UniversalFMA<float>{}, make_layout(make_shape(_8{}, _4{}, _1{}))))>(
      "gemm UniversalFMA<float> 8x4 threads");
  check_mma<decltype(make_tiled_mma(UniversalFMA<double>{}, make_layout(make_shape(_4{}, _8{}, _1{}))))>(
      "gemm UniversalFMA<double> 4x8 threads");
  // A tiled MMA of several warps with a permuted tile (the kernels' kind).
  check_mma<decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                                    make_tile(_32{}, _32{}, _16{})))>("gemm SM80_16x8x16 f16, 2x2 warps, tile 32x32x16");
}

// ---------------------------------------------------------------------------------------------
// copy per copy atom

// gmem -> gmem through a tiled universal copy of `Bits`-bit vectors: 8 x 4 threads, each
// copying 1 x (Bits/8) bytes per instruction, over a (16, 8 * Bits/8) byte tile (2 x 2 copies
// per thread).
template <int Bits>
struct UniversalCopyBody {
  using U = std::conditional_t<Bits == 8, uint8_t,
            std::conditional_t<Bits == 16, uint16_t,
            std::conditional_t<Bits == 32, uint32_t, std::conditional_t<Bits == 64, uint64_t, uint128_t>>>>;
  static constexpr int V = Bits / 8, Rows = 16, Cols = 8 * V;
  TESSERA_HOST_DEVICE void operator()(int t, Buffers const& buf) const {
    auto tiled = make_tiled_copy(Copy_Atom<UniversalCopy<U>, uint8_t>{}, make_layout(make_shape(_8{}, _4{}), LayoutRight{}),
                                 make_layout(make_shape(_1{}, C<V>{})));
    auto src = make_tensor(static_cast<uint8_t const*>(buf.a), make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{}));
    auto dst = make_tensor(static_cast<uint8_t*>(buf.d), make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{}));
    auto thr = tiled.get_slice(t);
    copy(tiled, thr.partition_S(src), thr.partition_D(dst));
  }
};

template <int Bits>
void check_universal_copy() {
  using Body = UniversalCopyBody<Bits>;
  std::vector<uint8_t> src(std::size_t(Body::Rows * Body::Cols));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 7 + 3);
  char what[64];
  std::snprintf(what, sizeof what, "copy UniversalCopy %d-bit, 8x4 threads", Bits);
  auto d = run_both(what, Body{}, 32, src, {}, src.size(), 0);
  if (d.empty()) return;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < src.size(); ++i) wrong += d[i] != src[i];
  report(what, wrong, src.size());
}

// registers -> gmem through STG_U32x4 (one 16-byte st.global.v4.b32 per thread and copy):
// 16 x 8 threads, each loading 1 x 8 halves element by element into registers (at the
// tiled copy's source partition) and storing them with the atom at its destination
// partition of a (32, 64) half tile: 2 copies per thread.
struct StoreGlobal16Body {
  static constexpr int Rows = 32, Cols = 64;
  TESSERA_HOST_DEVICE void operator()(int t, Buffers const& buf) const {
    auto tiled = make_tiled_copy(Copy_Atom<STG_U32x4, half_t>{}, make_layout(make_shape(_16{}, _8{}), LayoutRight{}),
                                 make_layout(make_shape(_1{}, _8{})));
    auto src = make_tensor(static_cast<half_t const*>(buf.a), make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{}));
    auto dst = make_tensor(static_cast<half_t*>(buf.d), make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{}));
    auto thr = tiled.get_slice(t);
    auto from = thr.partition_S(src);
    auto regs = make_fragment_like<half_t>(from);
    copy(from, regs);
    copy(tiled, regs, thr.partition_D(dst));
  }
};

void check_store_global_16() {
  using Body = StoreGlobal16Body;
  std::vector<uint8_t> src(std::size_t(Body::Rows * Body::Cols * 2));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = uint8_t(i * 13 + 5);
  const char* what = "copy STG_U32x4 registers -> gmem, 16x8 threads";
  auto d = run_both(what, Body{}, 128, src, {}, src.size(), 0);
  if (d.empty()) return;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < src.size(); ++i) wrong += d[i] != src[i];
  report(what, wrong, src.size());
}

// gmem -> smem with a cp.async atom (16-bit elements, Bytes per instruction), then smem ->
// gmem element by element.  Rows at or past `valid_rows` are predicated off: a zero-filling
// atom writes zeros there, a plain one (run unpredicated) copies everything.
// smem is a 16 x 64 tile, Sw<3,3,3>-swizzled for 16-byte copies, plain otherwise.
template <class Op, int Bytes, bool Predicated>
struct CpAsyncBody {
  static constexpr int V = Bytes / 2, Rows = 16, Cols = 64, ValidRows = 11;
  TESSERA_HOST_DEVICE static constexpr auto smem_layout() {
    auto rows = make_layout(make_shape(_8{}, C<Cols>{}), make_stride(C<Cols>{}, _1{}));
    if constexpr (Bytes == 16) return composition(Swizzle<3, 3, 3>{}, tile_to_shape(rows, make_shape(C<Rows>{}, C<Cols>{})));
    else return tile_to_shape(rows, make_shape(C<Rows>{}, C<Cols>{}));
  }
  TESSERA_HOST_DEVICE void operator()(int t, Buffers const& buf) const {
    // 128 threads, a row of Cols / V threads each copying V halves.
    auto tiled = make_tiled_copy(Copy_Atom<Op, half_t>{},
                                 make_layout(make_shape(C<128 * V / Cols>{}, C<Cols / V>{}), LayoutRight{}),
                                 make_layout(make_shape(_1{}, C<V>{})));
    auto g = make_tensor(static_cast<half_t const*>(buf.a), make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{}));
    auto s = make_tensor(static_cast<half_t*>(buf.smem), smem_layout());
    auto out = make_tensor(static_cast<half_t*>(buf.d), make_layout(make_shape(C<Rows>{}, C<Cols>{}), LayoutRight{}));
    auto thr = tiled.get_slice(t);
    if constexpr (Predicated) {
      auto crd = thr.partition_S(make_identity_tensor(make_shape(C<Rows>{}, C<Cols>{})));
      auto pred = make_copy_predicate(tiled, crd, [](auto c) { return int(get<0>(c)) < ValidRows; });
      copy_if(pred, tiled, thr.partition_S(g), thr.partition_D(s));
    } else {
      copy(tiled, thr.partition_S(g), thr.partition_D(s));
    }
    cp_async_fence();
    cp_async_wait<0>();
    sync_threads();
    for (int i = t; i < Rows * Cols; i += 128) out(i / Cols, i % Cols) = s(i / Cols, i % Cols);
  }
};

template <class Op, int Bytes, bool Predicated>
void check_cp_async(char const* what) {
  using Body = CpAsyncBody<Op, Bytes, Predicated>;
  std::vector<uint16_t> src(std::size_t(Body::Rows * Body::Cols));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = uint16_t(i + 1);
  auto raw = run_both(what, Body{}, 128, bytes_of(src), {}, src.size() * 2, src.size() * 2);
  if (raw.empty()) return;
  auto d = values_of<uint16_t>(raw);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const bool inside = !Predicated || int(i) / Body::Cols < Body::ValidRows;
    wrong += d[i] != (inside ? src[i] : 0);
  }
  report(what, wrong, src.size());
}

// smem -> registers with ldmatrix through make_tiled_copy_A/B of a tiled MMA; every thread
// stores its fragment (value i at d[t * Frag + i]).  smem element (r, c) of the (rows, K) tile
// holds its own index r * K + c + 1 (as bits), so the fragment must equal the MMA's
// partition of the same tile.  Returns the partition's expectation in the same order.
template <class CopyOp, class Mma, bool IsA, class SLayout, int Threads>
struct LdmatrixBody {
  static constexpr int Rows = int(decltype(size<0>(SLayout{}))::value);
  static constexpr int Cols = int(decltype(size<1>(SLayout{}))::value);
  static constexpr int Frag = IsA ? int(decltype(size(Mma{}.get_slice(0).partition_fragment_A(
                                         make_tensor(static_cast<half_t*>(nullptr), SLayout{}))))::value)
                                  : int(decltype(size(Mma{}.get_slice(0).partition_fragment_B(
                                         make_tensor(static_cast<half_t*>(nullptr), SLayout{}))))::value);
  TESSERA_HOST_DEVICE void operator()(int t, Buffers const& buf) const {
    half_t* smem = static_cast<half_t*>(buf.smem);
    auto s = make_tensor(smem, SLayout{});
    for (int i = t; i < Rows * Cols; i += Threads) s(i / Cols, i % Cols) = static_cast<half_t const*>(buf.a)[i];
    sync_threads();
    Mma mma;
    auto thr = mma.get_slice(t);
    half_t* out = static_cast<half_t*>(buf.d) + 2 * t * Frag;  // fragment, then the partition's elements
    if constexpr (IsA) {
      auto frag = thr.partition_fragment_A(s);
      auto cp = make_tiled_copy_A(Copy_Atom<CopyOp, half_t>{}, mma).get_slice(t);
      copy(cp, cp.partition_S(s), cp.retile_D(frag));
      auto want = thr.partition_A(s);
      for (int i = 0; i < Frag; ++i) { out[i] = frag(i); out[Frag + i] = want(i); }
    } else {
      auto frag = thr.partition_fragment_B(s);
      auto cp = make_tiled_copy_B(Copy_Atom<CopyOp, half_t>{}, mma).get_slice(t);
      copy(cp, cp.partition_S(s), cp.retile_D(frag));
      auto want = thr.partition_B(s);
      for (int i = 0; i < Frag; ++i) { out[i] = frag(i); out[Frag + i] = want(i); }
    }
  }
};

template <class CopyOp, class Mma, bool IsA, class SLayout>
void check_ldmatrix(char const* what) {
  constexpr int Threads = int(decltype(size(Mma{}))::value);
  using Body = LdmatrixBody<CopyOp, Mma, IsA, SLayout, Threads>;
  std::vector<uint16_t> src(std::size_t(Body::Rows * Body::Cols));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = uint16_t(i + 1);
  const std::size_t n = std::size_t(Threads) * 2 * Body::Frag;
  auto raw = run_both(what, Body{}, Threads, bytes_of(src), {}, n * 2, src.size() * 2);
  if (raw.empty()) return;
  auto d = values_of<uint16_t>(raw);
  std::size_t wrong = 0;
  for (int t = 0; t < Threads; ++t)
    for (int i = 0; i < Body::Frag; ++i) {
      const uint16_t got = d[std::size_t(2 * t * Body::Frag + i)], want = d[std::size_t(2 * t * Body::Frag + Body::Frag + i)];
      wrong += got != want || want == 0;  // 0: an element the partition did not name
    }
  report(what, wrong, std::size_t(Threads) * Body::Frag);
}

void check_every_copy_atom() {
  check_universal_copy<8>();
  check_universal_copy<16>();
  check_universal_copy<32>();
  check_universal_copy<64>();
  check_universal_copy<128>();
  check_store_global_16();

  check_cp_async<SM80_CP_ASYNC_CACHEALWAYS<4>, 4, false>("copy cp.async.ca 4 B -> smem");
  check_cp_async<SM80_CP_ASYNC_CACHEALWAYS<8>, 8, false>("copy cp.async.ca 8 B -> smem");
  check_cp_async<SM80_CP_ASYNC_CACHEALWAYS<16>, 16, false>("copy cp.async.ca 16 B -> swizzled smem");
  check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL<16>, 16, false>("copy cp.async.cg 16 B -> swizzled smem");
  check_cp_async<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<4>, 4, true>("copy_if cp.async.ca zfill 4 B, rows >= 11 off");
  check_cp_async<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<8>, 8, true>("copy_if cp.async.ca zfill 8 B, rows >= 11 off");
  check_cp_async<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<16>, 16, true>("copy_if cp.async.ca zfill 16 B, rows >= 11 off");
  check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16>, 16, true>("copy_if cp.async.cg zfill 16 B, rows >= 11 off");
  check_cp_async<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<16, 128>, 16, true>("copy_if cp.async.cg zfill 16 B L2::128B, rows >= 11 off");

  using M16 = OneAtom<SM80_16x8x16_F32F16F16F32_TN>;
  using M8 = OneAtom<SM80_16x8x8_F32F16F16F32_TN>;
  using Warps = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})),
                                        make_tile(_32{}, _32{}, _16{})));
  using KMajor16x16 = Layout<tuple<_16, _16>, tuple<_16, _1>>;
  using KMajor8x16 = Layout<tuple<_8, _16>, tuple<_16, _1>>;
  using KMajor8x8 = Layout<tuple<_8, _8>, tuple<_8, _1>>;
  using KMajor16x8 = Layout<tuple<_16, _8>, tuple<_8, _1>>;
  using MNMajor16x16 = Layout<tuple<_16, _16>, tuple<_1, _16>>;
  using MNMajor8x16 = Layout<tuple<_8, _16>, tuple<_1, _8>>;
  using MNMajor8x8 = Layout<tuple<_8, _8>, tuple<_1, _8>>;
  check_ldmatrix<SM75_U32x4_LDSM_N, M16, true, KMajor16x16>("copy ldmatrix.x4 -> A of m16n8k16, K-major");
  check_ldmatrix<SM75_U32x2_LDSM_N, M16, false, KMajor8x16>("copy ldmatrix.x2 -> B of m16n8k16, K-major");
  check_ldmatrix<SM75_U32x2_LDSM_N, M8, true, KMajor16x8>("copy ldmatrix.x2 -> A of m16n8k8, K-major");
  check_ldmatrix<SM75_U32x1_LDSM_N, M8, false, KMajor8x8>("copy ldmatrix.x1 -> B of m16n8k8, K-major");
  check_ldmatrix<SM75_U16x8_LDSM_T, M16, true, MNMajor16x16>("copy ldmatrix.x4.trans -> A of m16n8k16, M-major");
  check_ldmatrix<SM75_U16x4_LDSM_T, M16, false, MNMajor8x16>("copy ldmatrix.x2.trans -> B of m16n8k16, N-major");
  check_ldmatrix<SM75_U16x2_LDSM_T, M8, false, MNMajor8x8>("copy ldmatrix.x1.trans -> B of m16n8k8, N-major");
  // The kernels' kind: 2x2 warps over a 128 x 64 K-major tile of 8-row blocks, Sw<3,3,3>.
  using Blocks = decltype(tile_to_shape(make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})), make_shape(_128{}, _64{})));
  using Swizzled = decltype(composition(Swizzle<3, 3, 3>{}, Blocks{}));
  check_ldmatrix<SM75_U32x4_LDSM_N, Warps, true, Swizzled>("copy ldmatrix.x4 -> A, 2x2 warps, 128x64 Sw<3,3,3> smem");
  check_ldmatrix<SM75_U32x4_LDSM_N, Warps, false, Swizzled>("copy ldmatrix.x4 -> B, 2x2 warps, 128x64 Sw<3,3,3> smem");
  check_ldmatrix<SM75_U32x2_LDSM_N, Warps, false, Blocks>("copy ldmatrix.x2 -> B, 2x2 warps, 128x64 plain smem");
  using NMajor = Layout<tuple<_64, _32>, tuple<_1, _64>>;
  check_ldmatrix<SM75_U16x8_LDSM_T, Warps, false, NMajor>("copy ldmatrix.x4.trans -> B, 2x2 warps, 64x32 N-major smem");
}

}  // namespace

int main() {
  int devices = 0;
  cudaDeviceProp prop;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
      prop.major < 8) {
    std::printf("no GPU of compute capability 8.0 or more: skipped\n");
    return 77;
  }
  std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  check_every_mma_atom();
  check_every_copy_atom();
  std::printf("%s: %d failure(s)\n", failures == 0 ? "PASS" : "FAIL", failures);
  return failures == 0 ? 0 : 1;
}
