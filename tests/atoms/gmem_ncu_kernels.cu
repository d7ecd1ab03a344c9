// The accesses `tessera gmem` models, performed on a GPU: one kernel per case reads (or
// writes) global memory through a static gmem layout and TV layout, one inline-PTX vector
// load (store) per (thread, access step), exactly the instruction the analysis counts (asm
// volatile: the compiler may neither merge nor drop them). gmem_ncu_test.py profiles this
// program with ncu and compares the sector and request counters with `tessera gmem`.
//
// The program checks that each thread read the values its TV map names (an XOR per thread,
// recomputed on the host), or wrote where it names, and prints the static tier's prediction
// for each case
// (analyze_gmem_access, the core `tessera gmem` shares). Exits 77 without a CUDA device.
//   gmem_ncu_kernels            run every case, in order (ncu's launch IDs 0, 1, ...)
//   gmem_ncu_kernels --list     print the cases and their `tessera gmem` arguments only
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "tessera/analysis/coalescing_analysis.hpp"
#include "tessera/layout.hpp"
#include "tessera/swizzle.hpp"

using namespace tessera;

namespace {

constexpr int kSkip = 77;

template <int Bytes>
__device__ unsigned load_global(const char* p) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if constexpr (Bytes == 1) asm volatile("ld.global.u8 %0, [%1];" : "=r"(a) : "l"(p));
  else if constexpr (Bytes == 2) asm volatile("ld.global.u16 %0, [%1];" : "=r"(a) : "l"(p));
  else if constexpr (Bytes == 4) asm volatile("ld.global.u32 %0, [%1];" : "=r"(a) : "l"(p));
  else if constexpr (Bytes == 8) asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p));
  else {
    static_assert(Bytes == 16, "global vector loads are 1, 2, 4, 8 or 16 bytes");
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
  }
  return a ^ b ^ c ^ d;
}

// Thread t, access step s: the vector at gmem(tv(t, s*Vec)) (the tile is the whole gmem tile).
template <class Gmem, class TV, int Vec, int ElemBytes>
__global__ void load_through_layouts(const char* src, unsigned* sink) {
  constexpr int threads = int(decltype(size<0>(TV{}))::value);
  constexpr int steps = int(decltype(size<1>(TV{}))::value) / Vec;
  const int t = int(threadIdx.x);
  unsigned acc = 0;
  for (int s = 0; s < steps; ++s) {
    const auto offset = int64_t(Gmem{}(TV{}(t + threads * s * Vec)));
    acc ^= load_global<Vec * ElemBytes>(src + offset * ElemBytes);
  }
  sink[t] = acc;
}

template <int Bytes>
__device__ void store_global(char* p, unsigned a, unsigned b, unsigned c, unsigned d) {
  if constexpr (Bytes == 1) asm volatile("st.global.u8 [%0], %1;" ::"l"(p), "r"(a) : "memory");
  else if constexpr (Bytes == 2) asm volatile("st.global.u16 [%0], %1;" ::"l"(p), "r"(a) : "memory");
  else if constexpr (Bytes == 4) asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(a) : "memory");
  else if constexpr (Bytes == 8) asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(a), "r"(b) : "memory");
  else {
    static_assert(Bytes == 16, "global vector stores are 1, 2, 4, 8 or 16 bytes");
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
  }
}

// The k-th 32-bit word thread t stores at step s.
__host__ __device__ unsigned stored_word(int t, int s, int k) { return (unsigned(t) << 16) ^ (unsigned(s) << 4) ^ unsigned(k + 1); }

// The store twin of load_through_layouts: thread t, step s writes stored_word(t, s, 0..3).
template <class Gmem, class TV, int Vec, int ElemBytes>
__global__ void store_through_layouts(char* dst) {
  constexpr int threads = int(decltype(size<0>(TV{}))::value);
  constexpr int steps = int(decltype(size<1>(TV{}))::value) / Vec;
  const int t = int(threadIdx.x);
  for (int s = 0; s < steps; ++s) {
    const auto offset = int64_t(Gmem{}(TV{}(t + threads * s * Vec)));
    store_global<Vec * ElemBytes>(dst + offset * ElemBytes, stored_word(t, s, 0), stored_word(t, s, 1),
                                  stored_word(t, s, 2), stored_word(t, s, 3));
  }
}

// The static tier's analysis run on the device (it is constexpr and TESSERA_HOST_DEVICE, no
// heap): the same numbers as on the host.
template <class Gmem, class TV, int Vec, int ElemBytes>
__global__ void predict_on_device(long long* out, std::int64_t tile_m, std::int64_t tile_n, std::int64_t base) {
  const auto p = analysis::analyze_gmem_access(Gmem{}, TV{}, tile_m, tile_n, ElemBytes * 8, Vec, base);
  out[0] = p.ok() ? 1 : 0;
  out[1] = p.instructions;
  out[2] = p.sectors;
  out[3] = p.min_sectors;
  out[4] = p.lines;
  out[5] = p.min_lines;
}

// Host mirror of one load: the bytes XORed as 32-bit little-endian words, as the PTX above.
unsigned host_load(const std::vector<unsigned char>& mem, std::int64_t at, int bytes) {
  unsigned x = 0;
  for (int w = 0; w < (bytes + 3) / 4; ++w) {
    unsigned word = 0;
    for (int k = 0; k < 4 && 4 * w + k < bytes; ++k) word |= unsigned(mem[std::size_t(at + 4 * w + k)]) << (8 * k);
    x ^= word;
  }
  return x;
}

template <class Gmem, class TV, int Vec, int ElemBytes>
bool run_case(const char* name, bool store, const char* cli_args, Gmem gmem, TV tv, std::int64_t base, bool launch) {
  constexpr int threads = int(decltype(size<0>(TV{}))::value);
  constexpr int values = int(decltype(size<1>(TV{}))::value);
  const std::int64_t m = std::int64_t(size(get<0>(gmem.shape()))), n = std::int64_t(size(get<1>(gmem.shape())));
  const auto p = analysis::analyze_gmem_access(gmem, tv, m, n, ElemBytes * 8, Vec, base);
  std::printf("case %s (%s): tessera gmem %s --base %lld\n", name, store ? "store" : "load", cli_args, (long long)base);
  if (!p.ok()) {
    std::printf("  the static tier refuses it: %s\n", analysis::to_string(p.error));
    return false;
  }
  std::printf("  predicted instructions %lld sectors %lld min %lld lines %lld (%.2f sectors per request)\n",
              (long long)p.instructions, (long long)p.sectors, (long long)p.min_sectors, (long long)p.lines,
              double(p.sectors) / double(p.instructions));
  if (!launch) return true;
  // Every offset the map reaches, to size the buffer (all are >= 0 in these cases).
  std::int64_t hi = 0;
  for (int i = 0; i < threads * values; ++i) {
    const std::int64_t o = std::int64_t(gmem(tv(i)));
    if (o < 0) return std::printf("  negative offset: not run\n"), false;
    hi = o > hi ? o : hi;
  }
  const std::size_t bytes = std::size_t((hi + 1) * ElemBytes + base);
  std::vector<unsigned char> host(bytes);
  for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<unsigned char>((i * 131 + 7) ^ (i >> 8));
  char* dev = nullptr;
  unsigned* sink = nullptr;
  if (cudaMalloc(&dev, bytes) != cudaSuccess || cudaMalloc(&sink, threads * sizeof(unsigned)) != cudaSuccess)
    return std::printf("  cudaMalloc failed\n"), false;
  cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice);  // cudaMalloc: 256-byte aligned
  constexpr int bytes_per_access = Vec * ElemBytes;
  {
    long long* d_pred = nullptr;
    long long pred[6] = {};
    if (cudaMalloc(&d_pred, sizeof pred) != cudaSuccess) return std::printf("  cudaMalloc failed\n"), false;
    predict_on_device<Gmem, TV, Vec, ElemBytes><<<1, 1>>>(d_pred, m, n, base);
    const cudaError_t e = cudaMemcpy(pred, d_pred, sizeof pred, cudaMemcpyDeviceToHost);
    cudaFree(d_pred);
    const bool same = e == cudaSuccess && pred[0] == 1 && pred[1] == p.instructions && pred[2] == p.sectors &&
                      pred[3] == p.min_sectors && pred[4] == p.lines && pred[5] == p.min_lines;
    std::printf("  the analysis run on the device gives the same numbers: %s\n", same ? "yes" : "NO");
    if (!same) return false;
  }
  if (store) {
    store_through_layouts<Gmem, TV, Vec, ElemBytes><<<1, threads>>>(dev + base);
    std::vector<unsigned char> got(bytes);
    const cudaError_t e = cudaMemcpy(got.data(), dev, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dev);
    cudaFree(sink);
    if (e != cudaSuccess) return std::printf("  kernel failed: %s\n", cudaGetErrorString(e)), false;
    // The host applies the same writes; two accesses writing the same bytes would leave the
    // winner to the hardware, so such a case is not checked.
    std::vector<int> writes(bytes, 0);
    for (int t = 0; t < threads; ++t)
      for (int s = 0; s < values / Vec; ++s) {
        const std::int64_t at = base + std::int64_t(gmem(tv(t + threads * s * Vec))) * ElemBytes;
        for (int k = 0; k < bytes_per_access; ++k) {
          host[std::size_t(at + k)] = static_cast<unsigned char>(stored_word(t, s, k / 4) >> (8 * (k % 4)));
          ++writes[std::size_t(at + k)];
        }
      }
    for (int w : writes)
      if (w > 1) return std::printf("  two accesses write the same bytes: not checked\n"), true;
    const bool same = got == host;
    std::printf("  kernel wrote where the TV map names: %s\n", same ? "yes" : "NO");
    return same;
  }
  load_through_layouts<Gmem, TV, Vec, ElemBytes><<<1, threads>>>(dev + base, sink);
  std::vector<unsigned> got(threads);
  const cudaError_t e = cudaMemcpy(got.data(), sink, threads * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  cudaFree(sink);
  if (e != cudaSuccess) return std::printf("  kernel failed: %s\n", cudaGetErrorString(e)), false;
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    unsigned want = 0;
    for (int s = 0; s < values / Vec; ++s)
      want ^= host_load(host, base + std::int64_t(gmem(tv(t + threads * s * Vec))) * ElemBytes, bytes_per_access);
    bad += got[std::size_t(t)] != want;
  }
  std::printf("  kernel read what the TV map names: %s\n", bad ? "NO" : "yes");
  return bad == 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool list = argc > 1 && std::strcmp(argv[1], "--list") == 0;
  int ndev = 0;
  if (!list && (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0)) {
    std::printf("no CUDA device: skipped\n");
    return kSkip;
  }
  bool ok = true;
  // 1. coalesced: 128-bit loads along the rows of a 16x64 fp16 row-major tile, 8 threads a row.
  ok &= run_case<decltype(make_layout(make_shape(_16{}, _64{}), LayoutRight{})),
                 decltype(make_layout(make_shape(make_shape(_8{}, _16{}), _8{}), make_stride(make_stride(_128{}, _1{}), _16{}))),
                 8, 2>("coalesced", false, "'(16,64):(64,1)' --tv '((8,16),8):((128,1),16)' --vec 8 --bits 16",
                       make_layout(make_shape(_16{}, _64{}), LayoutRight{}),
                       make_layout(make_shape(make_shape(_8{}, _16{}), _8{}), make_stride(make_stride(_128{}, _1{}), _16{})), 0,
                       !list);
  // 2. column: lane t reads row t of a 32x32 fp32 row-major matrix (a 128-byte stride).
  ok &= run_case<decltype(make_layout(make_shape(_32{}, _32{}), LayoutRight{})),
                 decltype(make_layout(make_shape(_32{}, _32{}), make_stride(_1{}, _32{}))), 1, 4>(
      "column", false, "'(32,32):(32,1)' --tv '(32,32):(1,32)' --bits 32", make_layout(make_shape(_32{}, _32{}), LayoutRight{}),
      make_layout(make_shape(_32{}, _32{}), make_stride(_1{}, _32{})), 0, !list);
  // 3. strided rows: rows of 32 floats padded to 36 (a 144-byte pitch): rows straddle sectors.
  ok &= run_case<decltype(make_layout(make_shape(_32{}, _32{}), make_stride(_36{}, _1{}))),
                 decltype(make_layout(make_shape(_32{}, _32{}), make_stride(_32{}, _1{}))), 1, 4>(
      "padded", false, "'(32,32):(36,1)' --tv '(32,32):(32,1)' --bits 32",
      make_layout(make_shape(_32{}, _32{}), make_stride(_36{}, _1{})),
      make_layout(make_shape(_32{}, _32{}), make_stride(_32{}, _1{})), 0, !list);
  // 4. swizzled: Sw<3,2,3> over a 32x32 fp32 row-major tile; lane t reads 16-byte chunks of row t.
  ok &= run_case<decltype(composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, _32{}), LayoutRight{}))),
                 decltype(make_layout(make_shape(_32{}, make_shape(_4{}, _8{})), make_stride(_1{}, make_stride(_32{}, _128{})))),
                 4, 4>("swizzled", false, "'Sw<3,2,3> o (32,32):(32,1)' --tv '(32,(4,8)):(1,(32,128))' --vec 4 --bits 32",
                       composition(Swizzle<3, 2, 3>{}, make_layout(make_shape(_32{}, _32{}), LayoutRight{})),
                       make_layout(make_shape(_32{}, make_shape(_4{}, _8{})), make_stride(_1{}, make_stride(_32{}, _128{}))),
                       0, !list);
  // 5. misaligned start: the rows of case 3's unpadded tile, 16 bytes past a sector boundary.
  ok &= run_case<decltype(make_layout(make_shape(_32{}, _32{}), LayoutRight{})),
                 decltype(make_layout(make_shape(_32{}, _32{}), make_stride(_32{}, _1{}))), 1, 4>(
      "base16", false, "'(32,32):(32,1)' --tv '(32,32):(32,1)' --bits 32", make_layout(make_shape(_32{}, _32{}), LayoutRight{}),
      make_layout(make_shape(_32{}, _32{}), make_stride(_32{}, _1{})), 16, !list);
  // 6, 7. the stores of cases 1 and 2 (ncu's _op_st counters)
  ok &= run_case<decltype(make_layout(make_shape(_16{}, _64{}), LayoutRight{})),
                 decltype(make_layout(make_shape(make_shape(_8{}, _16{}), _8{}), make_stride(make_stride(_128{}, _1{}), _16{}))),
                 8, 2>("coalesced-st", true, "'(16,64):(64,1)' --tv '((8,16),8):((128,1),16)' --vec 8 --bits 16",
                       make_layout(make_shape(_16{}, _64{}), LayoutRight{}),
                       make_layout(make_shape(make_shape(_8{}, _16{}), _8{}), make_stride(make_stride(_128{}, _1{}), _16{})), 0,
                       !list);
  ok &= run_case<decltype(make_layout(make_shape(_32{}, _32{}), LayoutRight{})),
                 decltype(make_layout(make_shape(_32{}, _32{}), make_stride(_1{}, _32{}))), 1, 4>(
      "column-st", true, "'(32,32):(32,1)' --tv '(32,32):(1,32)' --bits 32", make_layout(make_shape(_32{}, _32{}), LayoutRight{}),
      make_layout(make_shape(_32{}, _32{}), make_stride(_1{}, _32{})), 0, !list);
  return ok ? 0 : 1;
}
