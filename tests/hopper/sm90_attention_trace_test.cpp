// The SM90 attention kernel's trace on the host, without a GPU: the consumers' own GEMM steps
// (collective/sm90_attention_consumer_mma.hpp: S = Q K^T by wgmma SS, P rounded and read
// through PRetile, O += P V by wgmma RS) run for all consumer threads (256 with two consumer
// warpgroups, 384 with three) inside
// host_warp::launch, gemm emulating both wgmmas from the descriptors and the warp's registers,
// with the trace policy the GPU build records with (collective/sm90_attention_trace.hpp) and
// the tile's inputs written into the kernel's swizzled smem tiles (TMA's part is the host
// test's check that the boxes bring whole tiles). Then, per configuration (bf16/f16, D 64/128/256
// as shipped: three consumer warpgroups at D 64; and D 64 with two, not shipped):
//   - the trace (sm90_attention_trace_file.cpp) parses and verifies: every (thread, value) of
//     mmaS.C, mmaO.A (P) and mmaO.C recorded once, at the coordinate its map gives;
//   - the maps are the ones `tessera mma SM90_64xNx16_..._SS|RS --atoms Cx1x1` draws (the
//     runtime tier's tiled MMAs), P's first k-block included;
//   - planted errors fail, and the report names the thread, value and coordinates: two P values
//     swapped, an O value recorded by the wrong thread.
//   hopper_sm90_attention_trace_test [--trace FILE [--plant swap|thread]]
//     FILE: the bf16, D = 128 host trace (planted error: as above), for `tessera verify FILE`.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/algorithm.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/verify/trace.hpp"

#include "collective/sm90_attention_config.hpp"
#include "collective/sm90_attention_consumer_mma.hpp"
#include "collective/sm90_attention_trace.hpp"
#include "sm90_attention_trace_file.hpp"

using namespace tessera;
using namespace tessera::kernels::sm90::attention;

namespace {

int failures = 0;
#define EXPECT(cond, ...)                                                     \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::fprintf(stderr, "%s:%d: failed: %s ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                      \
      std::fprintf(stderr, "\n");                                             \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

// The consumers' shared memory: Q, the K stages and the V stages, on a 2^18-byte boundary (the
// host's shared window: descriptors address it from 0, as on the device).
template <class Cfg>
struct HostSmem {
  using T = typename Cfg::Element;
  static constexpr std::size_t window = std::size_t(1) << 18;
  static constexpr std::size_t elements = std::size_t(Cfg::q_elements + 2 * Cfg::Stages * Cfg::kv_stage_elements);
  static_assert(elements * sizeof(T) <= window, "the tiles fit the host's shared window");
  T* q = static_cast<T*>(std::aligned_alloc(window, window));
  T* k = q + Cfg::q_elements;  // (each on 1 KiB: the swizzle's repeat)
  T* v = k + Cfg::Stages * Cfg::kv_stage_elements;
  HostSmem() {
    std::memset(static_cast<void*>(q), 0, window);
    host_warp::set_shared_memory(q, elements * sizeof(T));
  }
  ~HostSmem() { std::free(q); }
  HostSmem(HostSmem const&) = delete;
  HostSmem& operator=(HostSmem const&) = delete;
};

// Both runs of the trace on host threads: the consume loop's steps on key tile 0, stage 0.
template <class Cfg>
std::vector<int> host_trace() {
  using T = typename Cfg::Element;
  using Mma = ConsumerMma<Cfg>;
  constexpr int D = Cfg::head_dim;
  HostSmem<Cfg> s;
  std::vector<T> q, k, v;
  trace_inputs<Cfg>(q, k, v);
  auto sQ = make_tensor(s.q, typename Cfg::SmemQ{});  // (bM, D)
  auto sK = make_tensor(s.k, typename Cfg::SmemK{});  // (bN, D, stages)
  auto sV = make_tensor(s.v, typename Cfg::SmemV{});  // (D, bN, stages)
  for (int r = 0; r < Cfg::bM; ++r)
    for (int d = 0; d < D; ++d) sQ(r, d) = q[std::size_t(r * D + d)];
  for (int r = 0; r < Cfg::bN; ++r)
    for (int d = 0; d < D; ++d) sK(r, d, 0) = k[std::size_t(r * D + d)], sV(d, r, 0) = v[std::size_t(r * D + d)];
  const int capacity = TraceProblem<Cfg>::capacity;
  std::vector<int> all;
  for (TraceRun run : {TraceRun::scores, TraceRun::output}) {
    std::vector<int> records(std::size_t(5 * capacity));
    int count = 0;
    const AttentionRecorder<Cfg> rec{{&count, capacity, records.data()}, run};
    host_warp::launch(Cfg::Consumers * GMMA::warpgroup_threads, [&](int thread) {
      constexpr auto slot_o = typename Cfg::RowSlotsO{};
      typename Mma::AccS acc_s;
      auto acc_o = partition_fragment_C(typename Cfg::TiledMmaO{}, typename Cfg::TileO{});
      clear(acc_o);
      Mma::issue_s(s.q, s.k, thread, acc_s, 0);
      float factor[Cfg::rows_per_thread];
      rec.softmax(thread, acc_s, factor);
      for (int i = 0; i < size(acc_o); ++i) acc_o(i) *= factor[slot_o(i)];
      uint32_t p[Mma::p_words];
      Mma::round_p(acc_s, p);
      rec.p_operand(thread, Mma::p_operand(p));
      Mma::issue_pv(s.v, thread, acc_o, p, 0);
      rec.output(thread, acc_o);
    });
    EXPECT(count <= capacity, "records: %d of at most %d", count, capacity);
    all.insert(all.end(), records.begin(), records.begin() + 5 * std::min(count, capacity));
  }
  return all;
}

verify::Trace parse(std::string const& text, std::string const& name) {
  std::istringstream in(text);
  return verify::parse_trace(in, name);
}

verify::Map const* find_map(verify::Trace const& t, std::string const& name) {
  for (auto const& m : t.maps)
    if (m.name == name) return &m;
  return nullptr;
}

// `a` and `b` agree on the (thread, value) domain of `b` (values below `values`, if given).
bool same_function(rt::Layout const& a, rt::Layout const& b, int64_t values = -1) {
  const int64_t threads = b.mode(0).size(), vs = values < 0 ? b.mode(1).size() : values;
  if (a.mode(0).size() != threads) return false;
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t v = 0; v < vs; ++v)
      if (a(t + threads * v) != b(t + threads * v)) return false;
  return true;
}

// The maps against the runtime tier's tiled MMAs, as `tessera mma NAME --atoms Cx1x1` builds them
// (C consumer warpgroups).
void check_drawn_maps(verify::Trace const& t, bool bf16, int head_dim, int keys, int consumers) {
  const std::string ab = bf16 ? "F32BF16BF16" : "F32F16F16";
  const rt::Layout atoms = rt::parse_atom_layout(std::to_string(consumers) + "x1x1");  // (--atoms Cx1x1)
  auto const* ss = rt::find_mma("SM90_64x" + std::to_string(keys) + "x16_" + ab + "_SS");
  auto const* rs = rt::find_mma("SM90_64x" + std::to_string(head_dim) + "x16_" + ab + "_RS");
  EXPECT(ss && rs, "the registry's wgmma atoms");
  if (!ss || !rs) return;
  const rt::TiledMma mma_s = rt::make_tiled_mma(*ss, atoms), mma_o = rt::make_tiled_mma(*rs, atoms);
  auto const *s = find_map(t, "mmaS.C"), *p = find_map(t, "mmaO.A"), *o = find_map(t, "mmaO.C");
  EXPECT(s && p && o, "the trace's three maps");
  if (!s || !p || !o) return;
  EXPECT(same_function(s->tv, mma_s.layout_c_tv), "mmaS.C is TiledMmaS's C map: %s", ab.c_str());
  EXPECT(same_function(o->tv, mma_o.layout_c_tv), "mmaO.C is TiledMmaO's C map: D %d", head_dim);
  // P over (bM, bN) is TiledMmaO's A map over its own (bM, 16) tile, k-block after k-block.
  EXPECT(same_function(p->tv, mma_o.layout_a_tv, mma_o.layout_a_tv.mode(1).size()), "mmaO.A's first k-block is TiledMmaO's A map");
}

// The report of a planted trace: not ok, and the text names what `needles` say.
void expect_fails_naming(verify::Trace const& t, std::vector<std::string> const& needles, char const* what) {
  const verify::Report r = verify::verify(t);
  const std::string text = verify::format_report(r);
  EXPECT(!r.ok, "%s: verify must fail", what);
  for (auto const& n : needles) EXPECT(text.find(n) != std::string::npos, "%s: the report names '%s':\n%s", what, n.c_str(), text.c_str());
}

std::string coord(int64_t r, int64_t c) { return "(" + std::to_string(r) + "," + std::to_string(c) + ")"; }

// Two P records of thread `thread` swap their coordinates.
std::vector<std::string> plant_swap(verify::Trace& t, int64_t thread) {
  verify::Record *a = nullptr, *b = nullptr;
  for (auto& r : t.records)
    if (r.map == "mmaO.A" && r.thread == thread && (r.value == 0 || r.value == 9)) (r.value == 0 ? a : b) = &r;
  if (!a || !b) return {"(no such records)"};
  std::swap(a->row, b->row), std::swap(a->col, b->col);
  return {"mismatch thread " + std::to_string(thread) + " value 0: expected " + coord(b->row, b->col) + " got " + coord(a->row, a->col),
          "mismatch thread " + std::to_string(thread) + " value 9: expected " + coord(a->row, a->col) + " got " + coord(b->row, b->col)};
}
// An O record of thread `thread` attributed to thread + 1.
std::vector<std::string> plant_thread(verify::Trace& t, int64_t thread) {
  for (auto& r : t.records)
    if (r.map == "mmaO.C" && r.thread == thread && r.value == 3) {
      r.thread = thread + 1;
      return {"missing thread " + std::to_string(thread) + " value 3: expected " + coord(r.row, r.col) + ", never recorded",
              "thread " + std::to_string(thread + 1) + " value 3"};
    }
  return {"(no such record)"};
}

template <class Cfg>
void check_config(bool bf16, std::string* text_out = nullptr) {
  constexpr int D = Cfg::head_dim;
  const std::vector<int> records = host_trace<Cfg>();
  std::ostringstream os;
  write_attention_trace(os, bf16, D, records, Cfg::Consumers);
  const std::string name = std::string(bf16 ? "bf16" : "f16") + " D=" + std::to_string(D) + " consumers=" + std::to_string(Cfg::Consumers);
  const verify::Trace t = parse(os.str(), name);
  const verify::Report r = verify::verify(t);
  EXPECT(r.ok, "%s: the host trace verifies:\n%s", name.c_str(), verify::format_report(r).c_str());
  constexpr int64_t threads = 128 * Cfg::Consumers;
  const int64_t expected[] = {threads * Cfg::bN / 2, threads * Cfg::bN / 2, threads * D / 2};
  EXPECT(r.maps.size() == 3, "%s: three maps", name.c_str());
  for (std::size_t m = 0; m < r.maps.size() && m < 3; ++m)
    EXPECT(r.maps[m].matched == expected[m] && r.maps[m].expected == expected[m], "%s: map %s: %lld of %lld matched", name.c_str(),
           r.maps[m].map.c_str(), (long long)r.maps[m].matched, (long long)expected[m]);
  check_drawn_maps(t, bf16, D, Cfg::bN, Cfg::Consumers);
  {
    verify::Trace bad = t;
    expect_fails_naming(bad, plant_swap(bad, 37), (name + ": two P values swapped").c_str());
  }
  {
    verify::Trace bad = t;
    expect_fails_naming(bad, plant_thread(bad, 130), (name + ": an O value from the wrong thread").c_str());
  }
  if (text_out) *text_out = os.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, plant;
  if (argc == 3 && std::string(argv[1]) == "--trace") path = argv[2];
  else if (argc == 5 && std::string(argv[1]) == "--trace" && std::string(argv[3]) == "--plant" &&
           (std::string(argv[4]) == "swap" || std::string(argv[4]) == "thread"))
    path = argv[2], plant = argv[4];
  else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--trace FILE [--plant swap|thread]]\n", argv[0]);
    return 2;
  }
  std::string text;
  check_config<DefaultConfig<bfloat16_t, 128>>(true, &text);
  check_config<DefaultConfig<half_t, 128>>(false);
  check_config<DefaultConfig<bfloat16_t, 64>>(true);
  check_config<DefaultConfig<half_t, 64>>(false);
  check_config<AttentionConfig<bfloat16_t, 64, 128, 2>>(true);  // (Q tiles of 128 rows; not shipped)
  check_config<AttentionConfig<half_t, 64, 128, 2>>(false);
  // Head dim 256 (Q tiles of 128 rows, 80 keys): codes row + 128 column, O's 128 d exact in
  // bf16 for d < 256 (odd parts below 2^8), so both types trace.
  static_assert(trace_codes_exact<DefaultConfig<bfloat16_t, 256>>() && trace_codes_exact<DefaultConfig<half_t, 256>>());
  check_config<DefaultConfig<bfloat16_t, 256>>(true);
  check_config<DefaultConfig<half_t, 256>>(false);
  if (!path.empty()) {
    verify::Trace t = parse(text, "bf16 D=128");
    if (plant == "swap") plant_swap(t, 37);
    if (plant == "thread") plant_thread(t, 130);
    std::ofstream out(path);
    verify::write_trace(out, t);
    if (!out) {
      std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
      return 2;
    }
  }
  std::printf("%s\n", failures ? "FAILED" : "OK: the attention trace (S, P, O) of all eight configurations verifies on the host");
  return failures ? 1 : 0;
}
