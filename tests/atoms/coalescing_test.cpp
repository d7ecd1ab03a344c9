// Global-memory coalescing (gmem_sectors.hpp, coalescing_analysis.hpp, tessera/analysis/coalescing.hpp):
// known answers (row-major 128-bit loads along rows: the minimum; a warp down a column of a
// row-major fp32 matrix: 32 sectors for 128 bytes; a start 16 bytes into a sector: one excess
// sector, from the first and last 4 lanes; negative strides; broadcast), the static tier, the
// errors, and generated cases against a brute-force count that enumerates every byte.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "tessera/analysis/coalescing.hpp"
#include "tessera/analysis/coalescing_analysis.hpp"
#include "tessera/analysis/gmem_sectors.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/tiled_copy.hpp"

using namespace tessera;

namespace {

rt::IntTuple tup(std::vector<rt::IntTuple> v) { return rt::IntTuple::tuple(std::move(v)); }

std::int64_t fdiv(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Brute force for one instruction: every requested byte in a std::set; sectors and lines are
// the sets of byte / 32 and byte / 128; a lane causes excess when one of its bytes lies in a
// sector holding fewer than 32 requested bytes while the instruction is over its minimum.
struct BruteInstruction {
  std::int64_t requested = 0;
  std::vector<std::int64_t> sectors, lines;
  std::uint32_t excess_lanes = 0, excess_line_lanes = 0;
};
BruteInstruction brute_instruction(const std::vector<std::int64_t>& addr, const std::vector<bool>& active, int width) {
  BruteInstruction b;
  std::set<std::int64_t> bytes;
  for (std::size_t l = 0; l < addr.size(); ++l)
    if (active[l])
      for (int k = 0; k < width; ++k) bytes.insert(addr[l] + k);
  std::map<std::int64_t, int> in_sector;
  std::set<std::int64_t> lines;
  for (std::int64_t x : bytes) {
    ++in_sector[fdiv(x, 32)];
    lines.insert(fdiv(x, 128));
  }
  b.requested = std::int64_t(bytes.size());
  for (auto [s, n] : in_sector) b.sectors.push_back(s);
  b.lines.assign(lines.begin(), lines.end());
  if (std::int64_t(b.sectors.size()) > (b.requested + 31) / 32)
    for (std::size_t l = 0; l < addr.size(); ++l)
      if (active[l])
        for (int k = 0; k < width; ++k)
          if (in_sector[fdiv(addr[l] + k, 32)] < 32) b.excess_lanes |= std::uint32_t(1) << l;
  // The same for lines: bytes per line, counted from the set.
  std::map<std::int64_t, int> in_line;
  for (std::int64_t x : bytes) ++in_line[fdiv(x, 128)];
  if (std::int64_t(b.lines.size()) > (b.requested + 127) / 128)
    for (std::size_t l = 0; l < addr.size(); ++l)
      if (active[l])
        for (int k = 0; k < width; ++k)
          if (in_line[fdiv(addr[l] + k, 128)] < 128) b.excess_line_lanes |= std::uint32_t(1) << l;
  return b;
}

// A row-major (M,N) matrix of fp32: (m,n) -> 32m + n; rows of 32 floats are 128-byte lines.
rt::Layout row_major(std::int64_t m, std::int64_t n) { return rt::Layout(tup({m, n}), tup({n, 1})); }

analysis::CoalescingAnalysis analyze(const rt::Layout& gmem, const rt::Layout& tv, int vec, int bits,
                                     std::int64_t base = 0) {
  const auto g = analysis::gmem_tile(gmem);
  return analysis::analyze_coalescing(g, analysis::gmem_access_of_tv(tv, g.rows(), g.cols(), vec), bits, base);
}

}  // namespace

TEST_CASE("one warp: sectors, lines and the minimum from byte addresses", "[analysis][gmem]") {
  std::int64_t addr[32];
  SECTION("32 consecutive floats: 4 sectors, 1 line, the minimum") {
    for (int l = 0; l < 32; ++l) addr[l] = 4 * l;
    const auto r = analysis::analyze_warp_sectors(addr, 32, 4);
    REQUIRE(r.ok());
    CHECK(r.sectors.count == 4);
    CHECK(r.lines.count == 1);
    CHECK(r.requested_bytes == 128);
    CHECK(r.coalesced());
    CHECK(r.excess_lanes == 0);
  }
  SECTION("the same 16 bytes into a sector: 5 sectors for 4, lanes 0-3 and 28-31 in partly used sectors") {
    for (int l = 0; l < 32; ++l) addr[l] = 16 + 4 * l;
    const auto r = analysis::analyze_warp_sectors(addr, 32, 4);
    CHECK(r.sectors.count == 5);
    CHECK(r.min_sectors() == 4);
    CHECK(r.excess_sectors() == 1);
    CHECK(r.lines.count == 2);
    CHECK(r.excess_lines() == 1);
    CHECK(r.excess_lanes == 0xF000000Fu);
    CHECK(r.sectors.used[0] == 16);
    CHECK(r.sectors.used[4] == 16);
  }
  SECTION("a 128-byte stride: one sector per lane") {
    for (int l = 0; l < 32; ++l) addr[l] = 128 * l;
    const auto r = analysis::analyze_warp_sectors(addr, 32, 4);
    CHECK(r.sectors.count == 32);
    CHECK(r.lines.count == 32);
    CHECK(r.min_sectors() == 4);
    CHECK(r.min_lines() == 1);
    CHECK(r.excess_lanes == 0xFFFFFFFFu);
  }
  SECTION("broadcast: every lane reads the same 16 bytes") {
    for (int l = 0; l < 32; ++l) addr[l] = 64;
    const auto r = analysis::analyze_warp_sectors(addr, 32, 16);
    CHECK(r.sectors.count == 1);
    CHECK(r.requested_bytes == 16);
    CHECK(r.coalesced());
  }
  SECTION("inactive lanes request nothing") {
    bool act[32] = {};
    for (int l = 0; l < 32; ++l) { addr[l] = 128 * l; act[l] = l < 8; }
    const auto r = analysis::analyze_warp_sectors(addr, 32, 16, act);
    CHECK(r.active_threads == 8);
    CHECK(r.sectors.count == 8);
    CHECK(r.requested_bytes == 128);
  }
  SECTION("errors") {
    for (int l = 0; l < 32; ++l) addr[l] = 16 * l;
    CHECK(analysis::analyze_warp_sectors(addr, 32, 12).error == analysis::GmemError::bad_width);
    CHECK(analysis::analyze_warp_sectors(addr, 33, 16).error == analysis::GmemError::too_many_threads);
    addr[5] = 8;
    const auto m = analysis::analyze_warp_sectors(addr, 32, 16);
    CHECK(m.error == analysis::GmemError::misaligned);
    CHECK(m.error_thread == 5);
    addr[5] = std::numeric_limits<std::int64_t>::max() - 15;  // a multiple of 16 whose last byte would overflow
    CHECK(analysis::analyze_warp_sectors(addr, 32, 16).error == analysis::GmemError::address_overflow);
  }
}

TEST_CASE("known layouts: rows coalesce, columns take 32 sectors, a misaligned start costs a sector",
          "[analysis][gmem]") {
  SECTION("128-bit loads along the rows of a 32x64 fp16 row-major tile (UniversalCopy_128, 8 threads a row)") {
    const rt::CopyAtomView atom = rt::copy_atom_view(*rt::find_copy("UniversalCopy<uint128_t>"), 16);
    const rt::TiledCopy c =
        rt::make_tiled_copy(atom, rt::Layout(tup({16, 8}), tup({8, 1})), rt::Layout::column_major(tup({1, 8})));
    const auto g = analysis::gmem_tile(rt::Layout(tup({32, 64}), tup({64, 1})));
    const auto a = analysis::analyze_coalescing(g, analysis::gmem_access_of_copy(c, true), 16);
    CHECK(a.summary.instructions == 2 * 4);  // two 16x64 copy tiles, 4 warps each
    CHECK(a.summary.sectors == 8 * 16);
    CHECK(a.summary.lines == 8 * 4);
    CHECK(a.summary.coalesced());
    CHECK(a.summary.excess_lines() == 0);
    CHECK(a.sector_efficiency() == 1.0);
    for (auto n : a.cell_accesses) CHECK(n == 1);
    // cp.async's destination is shared memory; ldmatrix never touches global memory.
    const rt::CopyAtomView cp = rt::copy_atom_view(*rt::find_copy("SM80_CP_ASYNC_CACHEALWAYS<16>"), 16);
    const rt::TiledCopy cc =
        rt::make_tiled_copy(cp, rt::Layout(tup({16, 8}), tup({8, 1})), rt::Layout::column_major(tup({1, 8})));
    CHECK(analysis::analyze_coalescing(g, analysis::gmem_access_of_copy(cc, true), 16).summary.coalesced());
    CHECK_THROWS_WITH(analysis::gmem_access_of_copy(cc, false), Catch::Contains("source"));
    const rt::CopyAtomView ld = rt::copy_atom_view(*rt::find_copy("SM75_U32x4_LDSM_N"), 16);
    const rt::TiledCopy lc =
        rt::make_tiled_copy(ld, rt::Layout(tup({32, 1}), tup({1, 0})), rt::Layout::column_major(tup({1, 8})));
    CHECK_THROWS_WITH(analysis::gmem_access_of_copy(lc, true), Catch::Contains("no global-memory side"));
  }
  SECTION("a warp down a column of a 32x32 fp32 row-major matrix: 32 sectors and lines for 128 bytes") {
    // (thread t, value v) -> (m, n) = (t, v): lane t reads row t.
    const auto a = analyze(row_major(32, 32), rt::Layout(tup({32, 32}), tup({1, 32})), 1, 32);
    CHECK(a.summary.instructions == 32);
    CHECK(a.summary.sectors == 32 * 32);
    CHECK(a.summary.min_sectors == 32 * 4);
    CHECK(a.summary.lines == 32 * 32);
    CHECK(a.summary.min_lines == 32);
    CHECK(a.summary.excess_instructions == 32);
    CHECK(a.sector_efficiency() == 0.125);
    for (const auto& in : a.instructions) CHECK(in.excess_lanes == 0xFFFFFFFFu);
    for (bool e : a.cell_excess) CHECK(e);
    // The transposed access, lane t reading column t along a row: the minimum.
    const auto rows = analyze(row_major(32, 32), rt::Layout(tup({32, 32}), tup({32, 1})), 1, 32);
    CHECK(rows.summary.sectors == 32 * 4);
    CHECK(rows.summary.coalesced());
    for (bool e : rows.cell_excess) CHECK(!e);
  }
  SECTION("rows 16 bytes past a sector boundary: 5 sectors and 2 lines for each 128-byte row") {
    const auto a = analyze(row_major(32, 32), rt::Layout(tup({32, 32}), tup({32, 1})), 1, 32, 16);
    CHECK(a.summary.sectors == 32 * 5);
    CHECK(a.summary.excess_sectors() == 32);
    CHECK(a.summary.lines == 32 * 2);
    CHECK(a.instructions[0].sectors == std::vector<std::int64_t>{0, 1, 2, 3, 4});
    CHECK(a.instructions[1].sectors == std::vector<std::int64_t>{4, 5, 6, 7, 8});
    CHECK(a.instructions[0].excess_lanes == 0xF000000Fu);
    // 16-byte vectors from a start 8 bytes in: misaligned, located at thread 0 value 0.
    CHECK_THROWS_WITH(analyze(row_major(32, 32), rt::Layout(tup({8, 4}), tup({1, 32})), 4, 32, 8),
                      Catch::Contains("not a multiple of the access width") && Catch::Contains("thread 0, value 0"));
  }
  SECTION("negative strides: addresses below the origin, sectors by floor division") {
    // 32 floats at offsets 0, -1, ..., -31: bytes -124..3 touch sectors -4..0 and lines -1, 0.
    const auto a = analyze(rt::Layout(tup({32, 1}), tup({-1, 0})), rt::Layout(tup({32, 1}), tup({1, 0})), 1, 32);
    REQUIRE(a.instructions.size() == 1);
    CHECK(a.instructions[0].sectors == std::vector<std::int64_t>{-4, -3, -2, -1, 0});
    CHECK(a.instructions[0].lines == std::vector<std::int64_t>{-1, 0});
    CHECK(a.summary.min_sectors == 4);
    // With --base 4 the same bytes are 0..127: the minimum.
    CHECK(analyze(rt::Layout(tup({32, 1}), tup({-1, 0})), rt::Layout(tup({32, 1}), tup({1, 0})), 1, 32, 124)
              .summary.coalesced());
  }
  SECTION("stride 0: the whole warp reads one element") {
    const auto a = analyze(rt::Layout(tup({32, 1}), tup({0, 0})), rt::Layout(tup({32, 1}), tup({1, 0})), 1, 64);
    CHECK(a.summary.sectors == 1);
    CHECK(a.summary.requested_bytes == 8);
    CHECK(a.cell_accesses[0] == 1);  // 32 rows, one access each
  }
  SECTION("element widths: 8-bit elements one per lane fill one sector; 128-bit elements 16") {
    CHECK(analyze(rt::Layout(tup({1, 32}), tup({0, 1})), rt::Layout(tup({32, 1}), tup({1, 0})), 1, 8).summary.sectors == 1);
    const auto w = analyze(rt::Layout(tup({1, 32}), tup({0, 1})), rt::Layout(tup({32, 1}), tup({1, 0})), 1, 128);
    CHECK(w.summary.sectors == 16);
    CHECK(w.summary.lines == 4);
    CHECK(w.summary.coalesced());
  }
}

TEST_CASE("the static tier gives the runtime tier's answers", "[analysis][gmem]") {
  auto gmem = make_layout(make_shape(_32{}, _32{}), LayoutRight{});
  auto column = make_layout(make_shape(_32{}, _32{}), make_stride(_1{}, _32{}));
  constexpr auto col = analysis::analyze_gmem_access(decltype(gmem){}, decltype(column){}, 32, 32, 32, 1);
  static_assert(col.ok() && col.instructions == 32 && col.sectors == 32 * 32 && col.min_sectors == 32 * 4);
  constexpr auto shifted = analysis::analyze_gmem_access(decltype(gmem){}, decltype(column){}, 32, 32, 32, 1, 16);
  static_assert(shifted.sectors == 32 * 32 && shifted.min_sectors == 32 * 4);
  auto rows = make_layout(make_shape(_32{}, _32{}), make_stride(_32{}, _1{}));
  constexpr auto r = analysis::analyze_gmem_access(decltype(gmem){}, decltype(rows){}, 32, 32, 32, 1, 16);
  static_assert(r.sectors == 32 * 5 && r.min_sectors == 32 * 4 && r.lines == 64);
  // A static tiled copy: 128-bit loads, 8 threads a row of a 32x64 fp16 row-major tile.
  auto tc = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                            make_layout(make_shape(_16{}, _8{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  const auto s = analysis::analyze_tiled_copy_gmem<true>(make_layout(make_shape(_32{}, _64{}), LayoutRight{}), tc, 16);
  CHECK(s.ok());
  CHECK(s.instructions == 8);
  CHECK(s.sectors == 8 * 16);
  CHECK(s.coalesced());
  // The runtime tier's answer for the same access.
  const auto rt_col = analyze(row_major(32, 32), rt::Layout(tup({32, 32}), tup({1, 32})), 1, 32);
  CHECK(rt_col.summary.sectors == col.sectors);
  CHECK(rt_col.summary.lines == col.lines);
}

TEST_CASE("bad accesses are reported with the thread and value", "[analysis][gmem]") {
  const rt::Layout rm = row_major(8, 64);
  CHECK_THROWS_WITH(analyze(rm, rt::Layout(tup({32, 16}), tup({16, 1})), 8, 16),
                    Catch::Contains("not consecutive") && Catch::Contains("thread 0, value 1"));
  CHECK_THROWS_WITH(analyze(rm, rt::Layout(tup({32, 32}), tup({1, 32})), 1, 16), Catch::Contains("outside its tile"));
  CHECK_THROWS_WITH(analyze(rm, rt::Layout(tup({8, 8}), tup({1, 8})), 3, 16), Catch::Contains("6 bytes"));
  CHECK_THROWS_WITH(analyze(rm, rt::Layout(tup({8, 64}), tup({64, 1})), 1, 24), Catch::Contains("3 bytes"));
  CHECK_THROWS_WITH(analyze(rm, rt::Layout(tup({8, 64}), tup({64, 1})), 1, 12), Catch::Contains("multiple of 8"));
  const auto g = analysis::gmem_tile(rm);
  CHECK_THROWS_WITH(analysis::analyze_coalescing(g, analysis::gmem_access_of_tv(rt::Layout(tup({8, 8}), tup({1, 8})), 16, 64, 1), 16),
                    Catch::Contains("not a whole number"));
  // Overflow: offsets near 2^62 times 4 bytes do not fit in 64 bits.
  const std::int64_t big = std::int64_t(1) << 62;
  CHECK_THROWS_AS(analyze(rt::Layout(tup({2, 1}), tup({big, 0})), rt::Layout(tup({2, 1}), tup({1, 0})), 1, 32),
                  rt::OverflowError);
  CHECK_THROWS_AS(analyze(rm, rt::Layout(tup({8, 64}), tup({64, 1})), 1, 16, std::numeric_limits<std::int64_t>::max()),
                  rt::OverflowError);
  CHECK_THROWS_WITH(analysis::gmem_tile(rt::Layout(tup({2, 2, 2}), tup({1, 2, 4}))), Catch::Contains("rank 3"));
}

TEST_CASE("one warp's sectors agree with a brute-force byte count on generated addresses", "[analysis][gmem][property]") {
  rc::prop("analyze_warp_sectors == brute force", [] {
    const int width = 1 << *rc::gen::inRange(0, 5);
    const int n = *rc::gen::inRange(0, 33);
    // Addresses in a few lines around 0 (negative ones too), some repeated; a far-off one at times.
    const std::int64_t far = *rc::gen::element<std::int64_t>(0, 0, 0, std::int64_t(1) << 40, -(std::int64_t(1) << 50));
    std::vector<std::int64_t> addr(std::size_t(n) + 1);
    std::vector<bool> active(std::size_t(n) + 1);
    bool act[32] = {};
    for (int l = 0; l < n; ++l) {
      addr[std::size_t(l)] = width * std::int64_t(*rc::gen::inRange(-40, 40)) + (l % 7 == 6 ? far : 0);
      active[std::size_t(l)] = act[l] = *rc::gen::inRange(0, 8) != 0;
    }
    addr.resize(std::size_t(n));
    active.resize(std::size_t(n));
    const auto got = analysis::analyze_warp_sectors(addr.data(), n, width, act);
    RC_ASSERT(got.ok());
    const BruteInstruction want = brute_instruction(addr, active, width);
    RC_ASSERT(got.requested_bytes == want.requested);
    RC_ASSERT(std::vector<std::int64_t>(got.sectors.index, got.sectors.index + got.sectors.count) == want.sectors);
    RC_ASSERT(std::vector<std::int64_t>(got.lines.index, got.lines.index + got.lines.count) == want.lines);
    RC_ASSERT(got.excess_lanes == want.excess_lanes);
    RC_ASSERT(got.excess_line_lanes == want.excess_line_lanes);
    RC_ASSERT(got.sectors.count >= got.min_sectors());
    RC_ASSERT(got.lines.count >= got.min_lines());
  });
}

TEST_CASE("generated layouts and accesses agree with a brute-force byte count", "[analysis][gmem][property]") {
  rc::prop("analyze_coalescing == brute force", [] {
    const int bits = *rc::gen::element(8, 16, 32, 64, 128);
    const int ebytes = bits / 8;
    const int vec = 1 << *rc::gen::inRange(0, 5);  // at times wider than 16 bytes: an error both sides see
    // The copy tile (TM, TN) with TN = vec * NB: a tile index m + TM*(vec*nb + j) is element j
    // of a vector. Threads and values walk m and nb with random (also zero) strides.
    const std::int64_t t1 = *rc::gen::inRange(1, 9), t2 = *rc::gen::inRange(1, 9), r = *rc::gen::inRange(1, 4);
    const std::int64_t a1 = *rc::gen::inRange(0, 4), b2 = *rc::gen::inRange(0, 3), br = *rc::gen::inRange(0, 3);
    const std::int64_t TM = (t1 - 1) * a1 + *rc::gen::inRange(1, 4);
    const std::int64_t NB = (t2 - 1) * b2 + (r - 1) * br + *rc::gen::inRange(1, 3);
    const std::int64_t TN = vec * NB;
    // The gmem tile: (TM*RM, (vec, NB*RN)) : (sm, (d, sn)); d = 1 keeps a vector contiguous.
    const std::int64_t RM = *rc::gen::inRange(1, 3), RN = *rc::gen::inRange(1, 3);
    const std::int64_t d = *rc::gen::element<std::int64_t>(1, 1, 1, 1, 1, 1, 1, 0, -1, 2);
    // At times swizzled, with non-negative strides then: Sw<B,M,S> with 2^M >= vec keeps aligned vectors whole.
    const bool swizzled = *rc::gen::inRange(0, 4) == 0;
    const int lo = swizzled ? 0 : -20;
    const std::int64_t sm = vec * std::int64_t(*rc::gen::inRange(lo, 21)) + (*rc::gen::inRange(0, 10) == 0 ? 1 : 0);
    const std::int64_t sn = vec * std::int64_t(*rc::gen::inRange(lo, 21));
    const rt::Layout plain(tup({TM * RM, tup({vec, NB * RN})}), tup({sm, tup({d, sn})}));
    int vb = 0;
    while ((1 << vb) < vec) ++vb;
    const int sw_b = *rc::gen::inRange(1, 4), sw_m = *rc::gen::inRange(vb, vb + 3), sw_s = *rc::gen::inRange(sw_b, 7);
    const rt::SwizzledLayout swz{rt::Swizzle(sw_b, sw_m, sw_s), plain};
    auto gmem = [&](std::int64_t i) { return swizzled ? swz(i) : plain(i); };
    RC_CLASSIFY(swizzled, "swizzled gmem");
    const rt::Layout tv(tup({tup({t1, t2}), tup({vec, r})}), tup({tup({a1, TM * vec * b2}), tup({TM, TM * vec * br})}));
    const std::int64_t base = ebytes * vec * std::int64_t(*rc::gen::inRange(-8, 9)) + (*rc::gen::inRange(0, 10) == 0 ? ebytes : 0);
    RC_TAG(vec * ebytes <= 16 ? "valid width" : "too wide");

    // Brute force: the instructions in the analysis' order (tile repeats column-major, steps,
    // warps), each thread's bytes enumerated; any rule broken is an expected error.
    const std::int64_t T = t1 * t2, V = vec * r, width = std::int64_t(vec) * ebytes;
    bool expect_error = width > 16;
    std::vector<BruteInstruction> want;
    for (std::int64_t rep = 0; rep < RM * RN && !expect_error; ++rep)
      for (std::int64_t s = 0; s < r && !expect_error; ++s)
        for (std::int64_t w = 0; w * 32 < T && !expect_error; ++w) {
          std::vector<std::int64_t> addr;
          for (std::int64_t t = 32 * w; t < std::min<std::int64_t>(T, 32 * w + 32); ++t) {
            std::vector<std::int64_t> off;
            for (int j = 0; j < vec; ++j) {
              const std::int64_t x = tv(t + T * (s * vec + j));
              const std::int64_t m = (rep % RM) * TM + x % TM, n = (rep / RM) * TN + x / TM;
              off.push_back(gmem(m + TM * RM * n));
            }
            for (int j = 1; j < vec; ++j) expect_error |= off[std::size_t(j)] != off[0] + j;
            const std::int64_t a = off[0] * ebytes + base;
            expect_error |= fdiv(a, width) * width != a;
            addr.push_back(a);
          }
          want.push_back(brute_instruction(addr, std::vector<bool>(addr.size(), true), int(width)));
        }
    const auto g = swizzled ? analysis::gmem_tile(swz) : analysis::gmem_tile(plain);
    const auto access = analysis::gmem_access_of_tv(tv, TM, TN, vec);
    RC_CLASSIFY(expect_error, "an error both sides see");
    if (expect_error) {
      RC_ASSERT_THROWS_AS(analysis::analyze_coalescing(g, access, bits, base), rt::Error);
      return;
    }
    const auto got = analysis::analyze_coalescing(g, access, bits, base);
    RC_ASSERT(got.instructions.size() == want.size());
    std::int64_t sectors = 0, min_sectors = 0, lines = 0, requested = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      const auto& in = got.instructions[i];
      RC_ASSERT(in.sectors == want[i].sectors);
      RC_ASSERT(in.lines == want[i].lines);
      RC_ASSERT(in.requested_bytes == want[i].requested);
      RC_ASSERT(in.excess_lanes == want[i].excess_lanes);
      sectors += std::int64_t(want[i].sectors.size());
      min_sectors += (want[i].requested + 31) / 32;
      lines += std::int64_t(want[i].lines.size());
      requested += want[i].requested;
    }
    RC_ASSERT(got.summary.sectors == sectors);
    RC_ASSERT(got.summary.min_sectors == min_sectors);
    RC_ASSERT(got.summary.lines == lines);
    RC_ASSERT(got.summary.requested_bytes == requested);
    RC_ASSERT(got.sector_efficiency() <= 1.0);
  });
}
