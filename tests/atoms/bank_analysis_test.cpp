// Bank analysis of TV accesses over shared-memory tiles (bank_analysis.hpp, tessera/analysis/banks.hpp):
// known answers (ldmatrix rows over an 8x64 fp16 tile: 8-way; under Sw<3,3,3>: conflict-free),
// the static tier on tiled copies, and generated cases (2000) against a brute-force
// simulation that serves one word per bank per wavefront until every request is served.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "tessera/analysis/banks.hpp"
#include "tessera/analysis/bank_analysis.hpp"
#include "tessera/swizzle.hpp"
#include "tessera/tiled_copy.hpp"

using namespace tessera;

namespace {

rt::IntTuple tup(std::vector<rt::IntTuple> v) { return rt::IntTuple::tuple(std::move(v)); }

// ldmatrix x4 reading rows: lane t addresses row t%8 of matrix t/8 (columns 8*(t/8)..+7);
// the second instruction covers columns 32..63. (thread, value) -> m + 8n.
rt::Layout ldsm_rows_tv() { return rt::Layout(tup({tup({8, 4}), tup({8, 2})}), tup({tup({1, 64}), tup({8, 256})})); }

struct Brute {
  int64_t instructions = 0, wavefronts = 0, ideal = 0;
  int max_degree = 0;
};

// Independent count: enumerate instructions, then serve each phase's requests wavefront by
// wavefront (each bank serves one word per wavefront, to every thread asking for it).
Brute brute_force(const analysis::SmemTile& smem, const rt::Layout& tv, int64_t tm, int64_t tn, int vec, int bits) {
  Brute b;
  const int64_t T = tv.mode(0).size(), V = tv.mode(1).size();
  const int64_t M = smem.rows(), N = smem.cols();
  const int bytes = vec * bits / 8;
  const int per_phase = bytes <= 4 ? 32 : 128 / bytes;
  for (int64_t rn = 0; rn < N / tn; ++rn)
    for (int64_t rm = 0; rm < M / tm; ++rm)
      for (int64_t s = 0; s < V / vec; ++s)
        for (int64_t w = 0; w * 32 < T; ++w) {
          ++b.instructions;
          const int64_t n_thr = std::min<int64_t>(32, T - 32 * w);
          for (int64_t p0 = 0; p0 < n_thr; p0 += per_phase) {
            std::set<int64_t> words;  // distinct words requested in this phase
            for (int64_t l = p0; l < std::min<int64_t>(n_thr, p0 + per_phase); ++l) {
              const int64_t x = tv((32 * w + l) + T * (s * vec));
              const int64_t i = (rm * tm + x % tm) + M * (rn * tn + x / tm);
              const int64_t addr = smem.offset(i) * bits / 8;
              for (int64_t wd = addr / 4; wd <= (addr + bytes - 1) / 4; ++wd) words.insert(wd);
            }
            if (words.empty()) continue;
            ++b.ideal;
            int rounds = 0;
            while (!words.empty()) {
              std::set<int64_t> served_banks;
              for (auto it = words.begin(); it != words.end();) {
                if (served_banks.insert(*it % 32).second) it = words.erase(it);
                else ++it;
              }
              ++rounds;
            }
            b.wavefronts += rounds;
            b.max_degree = std::max(b.max_degree, rounds);
          }
        }
  return b;
}

}  // namespace

TEST_CASE("ldmatrix rows over an 8x64 fp16 row-major tile: 8-way; under Sw<3,3,3>: conflict-free", "[atoms][banks]") {
  const rt::Layout row_major(tup({8, 64}), tup({64, 1}));
  SECTION("runtime") {
    auto plain = analysis::analyze_banks(analysis::smem_tile(row_major), analysis::access_of_tv(ldsm_rows_tv(), 8, 64, 8), 16);
    CHECK(plain.summary.instructions == 2);
    CHECK(plain.summary.max_degree == 8);
    CHECK(plain.summary.wavefronts == 64);
    CHECK(plain.summary.ideal_wavefronts == 8);
    CHECK(plain.summary.extra_wavefronts() == 56);
    CHECK(plain.conflict_factor() == 8.0);
    for (int d : plain.cell_degree) CHECK(d == 8);
    auto swz = analysis::analyze_banks(analysis::smem_tile(rt::SwizzledLayout{rt::Swizzle(3, 3, 3), row_major}),
                                    analysis::access_of_tv(ldsm_rows_tv(), 8, 64, 8), 16);
    CHECK(swz.summary.conflict_free());
    CHECK(swz.summary.wavefronts == 8);
    CHECK(swz.summary.extra_wavefronts() == 0);
    for (int d : swz.cell_degree) CHECK(d == 1);
  }
  SECTION("static tier, same answer") {
    auto smem = make_layout(make_shape(_8{}, _64{}), LayoutRight{});
    auto tv = make_layout(make_shape(make_shape(_8{}, _4{}), make_shape(_8{}, _2{})),
                          make_stride(make_stride(_1{}, _64{}), make_stride(_8{}, _256{})));
    constexpr auto plain = analysis::analyze_smem_access(decltype(smem){}, decltype(tv){}, 8, 64, 16, 8);
    static_assert(plain.ok() && plain.max_degree == 8 && plain.extra_wavefronts() == 56);
    auto swz = composition(Swizzle<3, 3, 3>{}, smem);
    const auto s = analysis::analyze_smem_access(swz, tv, 8, 64, 16, 8);
    CHECK(s.conflict_free());
    CHECK(s.wavefronts == 8);
  }
}

TEST_CASE("static tiled copies: ldmatrix for an MMA's A, cp.async stores", "[atoms][banks]") {
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm);  // tile 32 x 16 (M,K)
  auto row_major = make_layout(make_shape(_32{}, _64{}), LayoutRight{});
  const auto plain = analysis::analyze_tiled_copy<true>(row_major, tc, 16);
  REQUIRE(plain.ok());
  CHECK(plain.instructions == 4 * 4);  // 4 warps x 4 repeats of the 32x16 tile over 32x64
  CHECK(plain.max_degree == 8);
  CHECK(plain.extra_wavefronts() == 16 * (32 - 4));
  const auto swz = analysis::analyze_tiled_copy<true>(composition(Swizzle<3, 3, 3>{}, row_major), tc, 16);
  REQUIRE(swz.ok());
  CHECK(swz.conflict_free());
  CHECK(swz.wavefronts == 16 * 4);
  // ldmatrix x1: lanes 8..31 give no address, one phase per instruction.
  auto x1 = make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, half_t>{}, make_layout(make_shape(_32{}, _1{})),
                            make_layout(make_shape(_1{}, _2{})));
  // Its tile is (32 lanes, 2 values); row-major, lane r's 8-element source row is contiguous.
  const auto r1 = analysis::analyze_tiled_copy<true>(make_layout(make_shape(_32{}, _2{}), LayoutRight{}), x1, 16);
  REQUIRE(r1.ok());
  CHECK(r1.instructions == 1);
  CHECK(r1.ideal_wavefronts == 1);
  CHECK(r1.wavefronts == 1);
  // cp.async 16B stores of a 32x64 row-major tile, 4 threads per row: 2 rows per phase share banks.
  auto cp = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<16>, half_t>{},
                            make_layout(make_shape(_32{}, _4{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  const auto st = analysis::analyze_tiled_copy<false>(row_major, cp, 16);
  REQUIRE(st.ok());
  CHECK(st.max_degree == 2);
  CHECK(st.extra_wavefronts() == st.ideal_wavefronts);
}

TEST_CASE("bad accesses are reported with the thread and value", "[atoms][banks]") {
  const rt::Layout row_major(tup({8, 64}), tup({64, 1}));
  // (32,16):(16,1): thread t's values run down a column -> not consecutive in smem.
  CHECK_THROWS_WITH(analysis::analyze_banks(analysis::smem_tile(row_major),
                                         analysis::access_of_tv(rt::Layout(tup({32, 16}), tup({16, 1})), 8, 64, 8), 16),
                    Catch::Contains("not consecutive") && Catch::Contains("thread 0, value 1"));
  CHECK_THROWS_WITH(analysis::analyze_banks(analysis::smem_tile(row_major),
                                         analysis::access_of_tv(rt::Layout(tup({32, 32}), tup({1, 32})), 8, 64, 1), 16),
                    Catch::Contains("outside its tile"));
  CHECK_THROWS_WITH(analysis::analyze_banks(analysis::smem_tile(row_major), analysis::access_of_tv(ldsm_rows_tv(), 8, 64, 3), 16),
                    Catch::Contains("6 bytes"));
  CHECK_THROWS_WITH(analysis::analyze_banks(analysis::smem_tile(row_major), analysis::access_of_tv(ldsm_rows_tv(), 16, 64, 8), 16),
                    Catch::Contains("not a whole number"));
  // Misaligned: 16-byte accesses starting at odd elements (padding of one element per row).
  const rt::Layout padded(tup({8, 64}), tup({65, 1}));
  CHECK_THROWS_WITH(analysis::analyze_banks(analysis::smem_tile(padded), analysis::access_of_tv(ldsm_rows_tv(), 8, 64, 8), 16),
                    Catch::Contains("multiple of the access width"));
}

TEST_CASE("generated accesses over (swizzled, padded) tiles agree with a brute-force count", "[atoms][banks][property]") {
  rc::prop("analyze_banks == brute force", [] {
    const int bits = *rc::gen::element(8, 16, 32, 64, 128);
    // vec = 2^vb values per access (at most 16 bytes), picked first so wide accesses are common
    const int max_vb = [&] { int v = 0; while ((2 << v) * bits <= 128) ++v; return v; }();
    const int vb = *rc::gen::inRange(0, max_vb + 1);
    const int a = *rc::gen::inRange(0, 6), b = *rc::gen::inRange(vb, 7);  // M = 2^a, N = 2^b
    const int rm = *rc::gen::inRange(0, a + 1), rn = *rc::gen::inRange(0, b - vb + 1);  // copy tile 2^(a-rm) x 2^(b-rn)
    const int vec = 1 << vb;
    const int64_t M = int64_t(1) << a, N = int64_t(1) << b, tm = M >> rm, tn = N >> rn;
    const int64_t pad = vec * *rc::gen::inRange(0, 3);
    const rt::Layout base(tup({M, N}), tup({N + pad, 1}));
    analysis::SmemTile smem;
    if (*rc::gen::arbitrary<bool>()) {
      const int sb = *rc::gen::inRange(0, 4), sm = *rc::gen::inRange(vb, vb + 3), ss = *rc::gen::inRange(std::max(sb, 1), 7);
      smem = analysis::smem_tile(rt::SwizzledLayout{rt::Swizzle(sb, sm, ss), base});
    } else {
      smem = analysis::smem_tile(base);
    }
    // TV over the copy tile: the first vb value bits walk n (tile index stride tm), the
    // other index bits are shuffled between threads and values.
    const int tile_bits = (a - rm) + (b - rn);
    std::vector<int> rest;
    for (int i = 0; i < tile_bits; ++i)
      if (!(i >= a - rm && i < a - rm + vb)) rest.push_back(i);
    const auto order = *rc::gen::container<std::vector<int>>(rest.size(), rc::gen::inRange(0, 1000));
    std::vector<int> perm(rest.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = int(i);
    std::sort(perm.begin(), perm.end(), [&](int x, int y) { return order[x] != order[y] ? order[x] < order[y] : x < y; });
    const int tb = *rc::gen::inRange(0, int(rest.size()) + 1);
    std::vector<rt::IntTuple> ts, tst, vs, vst;
    for (int i = 0; i < tb; ++i) { ts.push_back(2); tst.push_back(int64_t(1) << rest[perm[i]]); }
    for (int i = 0; i < vb; ++i) { vs.push_back(2); vst.push_back(int64_t(1) << (a - rm + i)); }
    for (std::size_t i = tb; i < rest.size(); ++i) { vs.push_back(2); vst.push_back(int64_t(1) << rest[perm[i]]); }
    if (ts.empty()) { ts.push_back(1); tst.push_back(0); }
    if (vs.empty()) { vs.push_back(1); vst.push_back(0); }
    const rt::Layout tv(tup({tup(ts), tup(vs)}), tup({tup(tst), tup(vst)}));
    RC_TAG(vec);
    const auto got = analysis::analyze_banks(smem, analysis::access_of_tv(tv, tm, tn, vec), bits);
    const Brute want = brute_force(smem, tv, tm, tn, vec, bits);
    RC_ASSERT(got.summary.instructions == want.instructions);
    RC_ASSERT(got.summary.wavefronts == want.wavefronts);
    RC_ASSERT(got.summary.ideal_wavefronts == want.ideal);
    RC_ASSERT(got.summary.max_degree == want.max_degree);
    int64_t sum = 0;
    for (const auto& in : got.instructions) sum += in.report.wavefronts;
    RC_ASSERT(sum == want.wavefronts);
  });
}

// (Here because this TU already instantiates the tiled MMA and copy above.)
TEST_CASE("partition_A/C and partition_S/D of tensors hold the TV maps' elements", "[atoms][tiled_mma][tiled_copy]") {
  auto tm = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(make_shape(_2{}, _2{}, _1{})));
  auto tc = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tm);
  std::vector<int> a(32 * 16), c(32 * 16);
  for (int i = 0; i < 32 * 16; ++i) a[i] = c[i] = i;  // element = its column-major index
  auto ta = make_tensor(a.data(), make_layout(make_shape(_32{}, _16{})));
  auto tcn = make_tensor(c.data(), make_layout(make_shape(_32{}, _16{})));
  auto a_tv = tm.get_layoutA_TV();
  auto c_tv = tm.get_layoutC_TV();
  auto s_tv = tc.get_layoutS_TV();
  int bad = 0;
  for (int t = 0; t < 128; ++t) {
    auto pa = tm.get_slice(t).partition_A(ta);
    auto pc = tm.get_slice(t).partition_C(tcn);
    auto ps = tc.get_slice(t).partition_S(ta);
    auto pd = tc.get_slice(t).partition_D(ta);
    for (int v = 0; v < int(size(pa.layout())); ++v) bad += pa[v] != a_tv(t, v);
    for (int v = 0; v < int(size(pc.layout())); ++v) bad += pc[v] != c_tv(t, v);
    for (int v = 0; v < int(size(ps.layout())); ++v) bad += ps[v] != s_tv(t, v);
    for (int v = 0; v < int(size(pd.layout())); ++v) bad += pd[v] != a_tv(t, v);
  }
  CHECK(bad == 0);
}
