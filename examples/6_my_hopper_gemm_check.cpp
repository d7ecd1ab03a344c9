// 6. Check your Hopper GEMM on the host, without a GPU: the kernel's own pieces
// (6_my_hopper_gemm.hpp) for every thread, with the two asynchronous units emulated:
//   TMA     each stage tile's box, as the ISA defines a tiled copy (dense box, dim 0 fastest,
//           zeros outside the tensor, the 128B swizzle on the address), from the arguments
//           and boxes make_tma_copy derived and the origins the producer computes;
//   wgmma   gemm(tiled_mma, ...) on the host reads both operands through the descriptors
//           of the consumers' fragments (host_warp::set_shared_memory: the ring's buffer).
//   TMA     stores: each part's box from its staging buffer into D, clipped at D's edges.
// Then: the tile scheduler covers every tile once; every consumer thread's descriptors
// address the smem elements of its warpgroup's rows; the C partition covers the tile once;
// the epilogue's stmatrix instructions write their warp's rows and their part's columns;
// whole products (the 4-stage ring wrapping, tiles across every edge) against a reference;
// the trace (6_my_hopper_gemm_trace.hpp) verified against the maps, as `tessera verify` does.
//   example_my_hopper_gemm_check [--trace FILE]     FILE: the host trace
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <tessera/verify/trace.hpp>

#include "6_my_hopper_gemm_trace.hpp"

using namespace my_hopper_gemm;

int failures = 0;
#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

// TMA on the host: each box of the tile at `origin` (per gmem mode) between gmem and the
// smem tile at `smem`: a load (zeros outside the tensor) or a store (clipped there).
template <int MaxBoxes>
void tma_on_host(bool store, tma::Arguments const& a, tma::TileBoxes<MaxBoxes> const& boxes, T* global, tma::Coord origin,
                 unsigned char* smem) {
  const int64_t eb = a.element_bytes, swz = int64_t(1) << int(a.swizzle);
  for (int q = 0; q < boxes.count; ++q) {
    int64_t start[tma::kMaxRank] = {}, box_elements = 1;
    for (int d = 0; d < a.rank; ++d) {
      const int mode = boxes.mode_of_dim[d];
      start[d] = ((origin.c[mode] >> boxes.shift[d]) & boxes.mask[d]) + boxes.corner[q][d];
      box_elements *= a.box_dim[d];
    }
    for (int64_t x = 0; x < box_elements; ++x) {
      int64_t rest = x, byte = 0;
      bool inside = true;
      for (int d = 0; d < a.rank; ++d) {
        const int64_t g = start[d] + rest % a.box_dim[d];
        rest /= a.box_dim[d];
        inside = inside && g >= 0 && g < a.global_dim[d];
        byte += g * (d == 0 ? eb : a.global_stride_bytes[d]);
      }
      int64_t to = boxes.smem_offset_bytes[q] + x * eb;
      to ^= ((to >> 7) & (swz - 1)) << 4;  // the swizzle on the address (the buffer on 1 KiB)
      if (store && inside) std::memcpy(&global[byte / eb], smem + to, sizeof(T));
      const T v = inside ? global[byte / eb] : T::from_bits(0);
      if (!store) std::memcpy(smem + to, &v, sizeof(T));
    }
  }
}

// The host's shared memory: the two rings and the epilogue's buffers in a buffer on a 2^18-byte boundary (its addresses,
// the pointers' values modulo the shared window, then run from 0 as on the device).
struct HostSmem {
  static constexpr std::size_t window = std::size_t(1) << 18;
  T* a = static_cast<T*>(std::aligned_alloc(window, window));
  T* b = a + Stages * stage_a_elements;
  T* d = a + smem_elements;  // (on 1 KiB: the swizzle's repeat)
  HostSmem() { host_warp::set_shared_memory(a, std::size_t(smem_elements + staging_elements) * sizeof(T)); }
  ~HostSmem() { std::free(a); }
  HostSmem(HostSmem const&) = delete;
};

// The problem's TMA copies, as the kernel's host side derives them (make_params).
struct HostTma {
  tma::Arguments args_a, args_b, args_d;
  TmaA tma_a;
  TmaB tma_b;
  TmaD tma_d;
  HostTma(int M, int N, int K) {
    tma_a = make_tma_copy<SM90_TMA_LOAD, 1, 16>(args_a, make_layout(make_shape(int64_t(M), int64_t(K)), make_stride(int64_t(K), _1{})),
                                                StageA{});
    tma_b = make_tma_copy<SM90_TMA_LOAD_MULTICAST, 1, 16>(
        args_b, make_layout(make_shape(int64_t(N), int64_t(K)), make_stride(int64_t(K), _1{})), PartB{});
    tma_d = make_tma_copy<SM90_TMA_STORE, 1, 16>(args_d, make_layout(make_shape(int64_t(M), int64_t(N)), make_stride(int64_t(N), _1{})),
                                                 StageD{});
  }
};

// One CTA's tile (m, n) on host threads: thread 0 stands for the producers of the cluster (A's
// copy, and each CTA's half of B as its multicast lands here; all before the stage's barrier),
// the 256 consumer threads run the kernel's k-tile and epilogue.
template <class Trace = NoTrace>
void run_tile(HostTma const& t, HostSmem& s, T const* A, T const* B, T* D, int M, int N, int K, int m, int n, Trace trace = {}) {
  const int k_tiles = (K + int(bK) - 1) / int(bK);
  host_warp::launch(Consumers * GMMA::warpgroup_threads, [&](int thread) {
    auto acc = partition_fragment_C(TiledMma{}, make_shape(bM, bN));
    for (int k = 0; k < k_tiles; ++k) {
      const int stage = k % Stages;
      if (thread == 0) {
        tma_on_host(false, t.args_a, t.tma_a.boxes, const_cast<T*>(A), a_origin(m, k),
                    reinterpret_cast<unsigned char*>(s.a + stage * stage_a_elements));
        for (int r = 0; r < ClusterM; ++r)
          tma_on_host(false, t.args_b, t.tma_b.boxes, const_cast<T*>(B), b_origin(n, r, k),
                      reinterpret_cast<unsigned char*>(s.b + stage * stage_b_elements + r * part_b_elements));
      }
      sync_threads();
      if constexpr (Trace::enabled)
        if (k == 0) trace.stage(thread, s.a, s.b);
      mma_k_tile(thread, s.a, s.b, stage, acc, k == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
      sync_threads();  // (the stage is free again: the next lap's copies may land)
    }
    if constexpr (Trace::enabled) trace.accumulators_of(thread, acc);
    auto store_part = [&]<int64_t P>(C<P>) {  // the kernel's epilogue, a barrier for __syncwarp
      stage_part<P>(thread, acc, s.d);
      sync_threads();
      if (thread % 32 == 0)
        tma_on_host(true, t.args_d, t.tma_d.boxes, D, d_origin(m, n, thread / 32, P),
                    reinterpret_cast<unsigned char*>(s.d + d_offset(thread / 32, P)));
      sync_threads();
    };
    [&]<int... P>(std::integer_sequence<int, P...>) { (store_part(C<P>{}), ...); }(std::make_integer_sequence<int, Parts>{});
  });
}

int main(int argc, char** argv) {
  std::string trace_path;
  if (argc == 3 && std::string(argv[1]) == "--trace") trace_path = argv[2];
  else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--trace FILE]\n", argv[0]);
    return 1;
  }
  HostSmem smem;

  // 1. The persistent loop's units and the clusters' CTAs cover every tile once (partial
  //    groups of cluster rows skipped; a second CTA past M covers nothing).
  for (auto [M, N, group] : {std::array{8192, 8192, 8}, std::array{1000, 998, 3}, std::array{128, 256, 8}, std::array{1, 8, 1},
                             std::array{384, 520, 2}}) {
    const int m_tiles = (M + 127) / 128, n_tiles = (N + 255) / 256;
    std::vector<int> seen(std::size_t(m_tiles * n_tiles), 0);
    for (int u = 0; u < tile_units(M, N, group); ++u) {
      const auto tile = tile_of(u, cluster_rows(M), n_tiles, group);
      for (int r = 0; r < ClusterM; ++r)
        if (const int m = get<0>(tile) * ClusterM + r; get<0>(tile) >= 0 && m < m_tiles) ++seen[std::size_t(m + m_tiles * get<1>(tile))];
    }
    int bad = 0;
    for (int c : seen) bad += c != 1;
    EXPECT(bad == 0);
  }

  // 2. The TMA copies: one box per stage tile of A and per CTA's part of B, bringing the
  //    stage's bytes (what the barrier expects: A's and every CTA's part of B); part r of B
  //    lies in the stage at element r * part_b_elements, rows 128 r.. of the stage's layout.
  {
    HostTma t(8192, 8192, 8192);
    EXPECT(t.args_a.rule == tma::Rule::ok && t.tma_a.boxes.ok() && t.tma_a.boxes.count == 1);
    EXPECT(t.args_b.rule == tma::Rule::ok && t.tma_b.boxes.ok() && t.tma_b.boxes.count == 1);
    EXPECT(t.tma_a.tx_bytes() + ClusterM * t.tma_b.tx_bytes() == uint32_t(sizeof(T)) * (stage_a_elements + stage_b_elements));
    int misplaced = 0;
    for (int r = 0; r < ClusterM; ++r)
      for (int row = 0; row < int(bN) / ClusterM; ++row)
        for (int k = 0; k < int(bK); ++k)
          misplaced += int(StageB{}(r * int(bN) / ClusterM + row, k)) != r * part_b_elements + int(PartB{}(row, k));
    EXPECT(misplaced == 0);
    // The kernel's compile-time boxes are every problem's (the producer issues those).
    for (auto [M, N, K] : {std::array{8192, 8192, 8192}, std::array{1, 8, 8}, std::array{1000, 1032, 1000}, std::array{72, 40, 8},
                           std::array{128, 256, 64}}) {
      HostTma u(M, N, K);
      EXPECT(same_boxes(u.tma_a.boxes, BoxesA::value) && same_boxes(u.tma_b.boxes, BoxesB::value));
    }
    EXPECT(t.args_d.rule == tma::Rule::ok && t.tma_d.boxes.ok() && t.tma_d.boxes.count == 1 &&
           t.tma_d.tx_bytes() == uint32_t(sizeof(T)) * stage_d_elements);
  }

  // 3. Partitions: consumer thread t's descriptors read, for k-block kb of stage s, the 64 x 16
  //    elements of A at its warpgroup's rows (and all 256 rows of B) where the smem layout
  //    puts them; the C partition holds every (m, n) of the tile once.
  {
    int bad = 0;
    const uint32_t base_a = uint32_t(reinterpret_cast<std::uintptr_t>(smem.a) & 0x3FFFF);
    const uint32_t base_b = uint32_t(reinterpret_cast<std::uintptr_t>(smem.b) & 0x3FFFF);
    for (int thread : {0, 77, 128, 255}) {
      auto thr = TiledMma{}.get_slice(thread);
      auto tCrA = thr.partition_fragment_A(make_tensor(smem.a, SmemA{}));
      auto tCrB = thr.partition_fragment_B(make_tensor(smem.b, SmemB{}));
      const int rows = 64 * (thread / GMMA::warpgroup_threads);
      for (int s = 0; s < Stages; ++s)
        for (int kb = 0; kb < int(bK) / 16; ++kb)
          for (int k = 0; k < 16; ++k) {
            for (int mn = 0; mn < 64; ++mn)
              bad += GMMA::descriptor_address(tCrA(0, 0, kb, s), Major::K, 16, mn, k) !=
                     ((base_a + 2 * uint32_t(SmemA{}(rows + mn, 16 * kb + k, s))) & 0x3FFFF);
            for (int mn = 0; mn < int(bN); ++mn)
              bad += GMMA::descriptor_address(tCrB(0, 0, kb, s), Major::K, 16, mn, k) !=
                     ((base_b + 2 * uint32_t(SmemB{}(mn, 16 * kb + k, s))) & 0x3FFFF);
          }
    }
    EXPECT(bad == 0);
    std::vector<int> held(std::size_t(int(bM) * int(bN)), 0);
    auto id = make_identity_tensor(make_shape(bM, bN));
    for (int thread = 0; thread < Consumers * GMMA::warpgroup_threads; ++thread) {
      auto tCcC = TiledMma{}.get_slice(thread).partition_C(id);
      for (int v = 0; v < int(size(tCcC)); ++v) ++held[std::size_t(int(get<0>(tCcC(v))) + int(bM) * int(get<1>(tCcC(v))))];
    }
    bad = 0;
    for (int h : held) bad += h != 1;
    EXPECT(bad == 0);
    // stmatrix instruction j of a thread: values 8j..8j+7 of its C fragment, which lie in
    // its warp's 16 rows and in part j / 4's 64 columns, as its destination rows do.
    bad = 0;
    for (int thread = 0; thread < Consumers * GMMA::warpgroup_threads; ++thread) {
      auto thr = Stsm{}.get_slice(thread);
      auto values = thr.retile_S(TiledMma{}.get_slice(thread).partition_C(id));
      auto rows = thr.partition_D(id);
      for (int j = 0; j < 16; ++j)
        for (int v = 0; v < 8; ++v)
          for (auto c : {values(make_coord(v, j), 0, 0), rows(make_coord(v, j), 0, 0)})
            bad += int(get<0>(c)) / 16 != thread / 32 || int(get<1>(c)) / 64 != j / 4;
    }
    EXPECT(bad == 0);
  }

  // 4. Whole products on the host against a reference (rounded to bf16 as the epilogue rounds):
  //    512 x 512 x 384 (6 k-tiles: the 4-stage ring wraps), then tiles across every edge (M, N
  //    not multiples of the tile, K not of 64, fewer k-tiles than stages): elements outside D
  //    stay untouched.
  auto run = [&](int M, int N, int K) {
    std::mt19937 rng(unsigned(11 + M + N + K));
    std::uniform_int_distribution<int> d(-2, 2);
    std::vector<T> A(std::size_t(M) * K), B(std::size_t(N) * K), D(std::size_t(M) * N + 3 * N, T::from_float(7.f));
    std::vector<int> a(A.size()), b(B.size());
    for (std::size_t i = 0; i < A.size(); ++i) a[i] = d(rng), A[i] = T::from_float(float(a[i]));
    for (std::size_t i = 0; i < B.size(); ++i) b[i] = d(rng), B[i] = T::from_float(float(b[i]));
    HostTma t(M, N, K);
    const int n_tiles = (N + 255) / 256;
    for (int u = 0; u < tile_units(M, N, 2); ++u) {
      const auto tile = tile_of(u, cluster_rows(M), n_tiles, 2);
      for (int r = 0; get<0>(tile) >= 0 && r < ClusterM; ++r)  // (a second CTA past M too: its stores clip)
        run_tile(t, smem, A.data(), B.data(), D.data(), M, N, K, get<0>(tile) * ClusterM + r, get<1>(tile));
    }
    int wrong = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        int want = 0;
        for (int k = 0; k < K; ++k) want += a[std::size_t(m) * K + k] * b[std::size_t(n) * K + k];
        wrong += D[std::size_t(m) * N + n].bits != T::from_float(float(want)).bits;
      }
    for (std::size_t i = std::size_t(M) * N; i < D.size(); ++i) wrong += D[i].to_float() != 7.f;
    std::printf("  %d x %d x %d: %d wrong elements\n", M, N, K, wrong);
    return wrong;
  };
  int wrong = 0;
  for (auto [M, N, K] : {std::array{256, 512, 384}, std::array{200, 296, 136}, std::array{72, 40, 8}}) wrong += run(M, N, K);
  EXPECT(wrong == 0);

  // 5. The trace: one tile, both runs; every (thread, value) of the three maps recorded once,
  //    at the element the map names; then one record moved, which the verifier must find.
  constexpr int capacity = 1 << 17;
  std::vector<int> records(5 * capacity);
  int count = 0;
  {
    std::vector<T> A, B, D(std::size_t(int(bM) * int(bN)));
    HostTma t{int(bM), int(bN), int(bK)};
    for (bool accumulators : {false, true}) {
      trace_inputs(accumulators, A, B);
      run_tile(t, smem, A.data(), B.data(), D.data(), int(bM), int(bN), int(bK), 0, 0, Recorder{{&count, capacity, records.data()}, accumulators});
    }
  }
  EXPECT(count <= capacity);
  records.resize(std::size_t(5 * std::min(count, capacity)));
  std::ostringstream text;
  write_trace(text, records);
  std::istringstream in(text.str());
  verify::Trace trace = verify::parse_trace(in, "host trace");
  auto report = verify::verify(trace);
  std::printf("  trace: %zu maps, %zu records: %s\n", trace.maps.size(), trace.records.size(), report.ok ? "verified" : "FINDINGS");
  if (!report.ok) std::fprintf(stderr, "%s", verify::format_report(report).c_str());
  EXPECT(report.ok && trace.maps.size() == 3);
  int64_t expected = 0;
  for (auto const& m : trace.maps) expected += verify::num_threads(m) * verify::num_values(m);
  EXPECT(int64_t(trace.records.size()) == expected);
  if (!trace.records.empty()) {
    verify::Trace moved = trace;
    moved.records[moved.records.size() / 3].col ^= 1;
    EXPECT(!verify::verify(moved).ok);
  }
  if (!trace_path.empty()) {
    std::ofstream f(trace_path, std::ios::binary);
    f << text.str();
    EXPECT(bool(f.flush()));
  }
  std::printf("6_my_hopper_gemm host check: %s (%d wrong elements)\n", failures ? "FAILED" : "ok", wrong);
  return failures ? 1 : 0;
}
