// The walk both memory analyses share (tessera/analysis/warp_accesses.hpp) against a plain
// enumeration of its definition on generated TV maps, memory maps and active lanes: the
// instructions in order (repeat, step, warp), each active lane's first offset, the first error
// where the walk meets it, and stopping when asked; and a tiled copy's side as an access
// (access_of_copy_side, tessera/analysis/memory_tile.hpp): ldmatrix .x1's silent lanes, and the
// same bank answers as the static tier's analyze_tiled_copy.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/analysis/bank_analysis.hpp"
#include "tessera/analysis/banks.hpp"
#include "tessera/analysis/memory_tile.hpp"
#include "tessera/analysis/warp_accesses.hpp"
#include "tessera/atom/copy.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/tiled_copy.hpp"

using namespace tessera;

namespace {

struct Seen {
  analysis::WarpInstruction in;
  int lanes;
  std::vector<bool> active;
  std::vector<std::int64_t> offset;
  bool operator==(const Seen& o) const {
    return in.index == o.in.index && in.tile == o.in.tile && in.step == o.in.step &&
           in.first_thread == o.in.first_thread && lanes == o.lanes && active == o.active && offset == o.offset;
  }
};

struct Case {
  analysis::TvAccessShape s;
  std::vector<std::int64_t> tv;      // (t + threads*v) -> copy-tile index, some out of range
  std::vector<std::int64_t> memory;  // memory-tile index -> offset
  std::vector<bool> active;          // per thread
};

// The definition, enumerated: repeats (column-major over the memory tile), steps, warps, lanes;
// an inactive lane is skipped; the first out-of-tile index or non-consecutive vector stops it.
std::pair<std::vector<Seen>, analysis::WalkResult> enumerate(const Case& c) {
  const auto& s = c.s;
  std::vector<Seen> out;
  const std::int64_t rm = s.memory_m / s.tile_m, rn = s.memory_n / s.tile_n;
  std::int64_t index = 0;
  for (std::int64_t rep = 0; rep < rm * rn; ++rep)
    for (std::int64_t step = 0; step < s.values / s.vec; ++step)
      for (std::int64_t first = 0; first < s.threads; first += 32) {
        Seen seen{{index++, rep, step, first}, int(std::min<std::int64_t>(32, s.threads - first)), {}, {}};
        seen.active.assign(32, false);
        seen.offset.assign(32, 0);
        for (int l = 0; l < seen.lanes; ++l) {
          const std::int64_t t = first + l;
          if (!c.active[std::size_t(t)]) continue;
          seen.active[std::size_t(l)] = true;
          std::vector<std::int64_t> offs;
          for (int j = 0; j < s.vec; ++j) {
            const std::int64_t v = step * s.vec + j, x = c.tv[std::size_t(t + s.threads * v)];
            if (x < 0 || x >= s.tile_m * s.tile_n) return {out, {analysis::WalkError::outside_tile, t, v}};
            const std::int64_t m = (rep % rm) * s.tile_m + x % s.tile_m, n = (rep / rm) * s.tile_n + x / s.tile_m;
            offs.push_back(c.memory[std::size_t(m + s.memory_m * n)]);
            if (j > 0 && offs[std::size_t(j)] != offs[0] + j) return {out, {analysis::WalkError::not_contiguous, t, v}};
          }
          seen.offset[std::size_t(l)] = offs[0];
        }
        out.push_back(seen);
      }
  return {out, {}};
}

std::pair<std::vector<Seen>, analysis::WalkResult> walk(const Case& c, std::int64_t stop_after = -1) {
  std::vector<Seen> out;
  const auto r = analysis::walk_warp_accesses(
      c.s, [&](std::int64_t t, std::int64_t v) { return c.tv[std::size_t(t + c.s.threads * v)]; },
      [&](std::int64_t i) { return c.memory[std::size_t(i)]; }, [&](std::int64_t t) { return bool(c.active[std::size_t(t)]); },
      [&](const analysis::WarpInstruction& in, const analysis::WarpLanes& w) {
        Seen seen{in, w.lanes, std::vector<bool>(w.active, w.active + 32),
                  std::vector<std::int64_t>(w.offset, w.offset + 32)};
        out.push_back(seen);
        return stop_after < 0 || std::int64_t(out.size()) < stop_after;
      });
  return {out, r};
}

// clean: vectors of one value inside the tile, so the walk meets no error.
rc::Gen<Case> cases(bool clean = false) {
  return rc::gen::exec([clean] {
    Case c;
    auto& s = c.s;
    s.threads = *rc::gen::inRange<std::int64_t>(1, 100);
    s.vec = clean ? 1 : *rc::gen::element(1, 2, 4);
    s.values = s.vec * *rc::gen::inRange<std::int64_t>(1, 4);
    s.tile_m = *rc::gen::inRange<std::int64_t>(1, 9);
    s.tile_n = *rc::gen::inRange<std::int64_t>(1, 9);
    s.memory_m = s.tile_m * *rc::gen::inRange<std::int64_t>(1, 3);
    s.memory_n = s.tile_n * *rc::gen::inRange<std::int64_t>(1, 3);
    const std::int64_t tile = s.tile_m * s.tile_n, cells = s.memory_m * s.memory_n;
    // Mostly in the tile (a rare index outside it); vectors often consecutive in memory: the
    // memory map is a run of consecutive offsets from a random start per cell, or random.
    const bool wild = !clean && *rc::gen::inRange(0, 20) == 0;
    for (std::int64_t i = 0; i < s.threads * s.values; ++i)
      c.tv.push_back(wild && *rc::gen::inRange(0, 50) == 0 ? *rc::gen::element<std::int64_t>(-1, tile)
                                                           : *rc::gen::inRange<std::int64_t>(0, tile));
    const bool linear = *rc::gen::arbitrary<bool>();
    for (std::int64_t i = 0; i < cells; ++i) c.memory.push_back(linear ? i : *rc::gen::inRange<std::int64_t>(-50, 50));
    // Consecutive values of a thread at consecutive tile indices make vectors in a linear memory.
    if (linear && *rc::gen::arbitrary<bool>() && s.memory_m == s.tile_m)
      for (std::int64_t t = 0; t < s.threads; ++t) {
        const std::int64_t start = s.vec * *rc::gen::inRange<std::int64_t>(0, std::max<std::int64_t>(1, tile / s.vec));
        for (std::int64_t v = 0; v < s.values; ++v)
          c.tv[std::size_t(t + s.threads * v)] = (start + v % s.vec + (v / s.vec) * s.vec) % tile;
      }
    for (std::int64_t t = 0; t < s.threads; ++t) c.active.push_back(*rc::gen::inRange(0, 5) != 0);
    return c;
  });
}

bool same(const analysis::WalkResult& a, const analysis::WalkResult& b) {
  return a.error == b.error && a.error_thread == b.error_thread && a.error_value == b.error_value;
}

}  // namespace

TEST_CASE("the walk visits what its definition enumerates, in order, and stops at the first error",
          "[analysis][walk]") {
  rc::prop("walk == enumeration", [] {
    const Case c = *cases();
    const auto [want, want_r] = enumerate(c);
    const auto [got, got_r] = walk(c);
    RC_CLASSIFY(!want_r.ok(), "stopped by an error");
    RC_ASSERT(same(got_r, want_r));
    RC_ASSERT(got == want);
  });
  rc::prop("on_warp returning false stops the walk after that instruction, with no error", [] {
    const Case c = *cases(true);
    const auto [all, r] = walk(c);
    RC_ASSERT(r.ok());
    RC_ASSERT(!all.empty());
    const auto k = *rc::gen::inRange<std::int64_t>(1, std::int64_t(all.size()) + 1);
    const auto [some, r2] = walk(c, k);
    RC_ASSERT(r2.ok());
    RC_ASSERT(std::int64_t(some.size()) == k);
    RC_ASSERT(std::equal(some.begin(), some.end(), all.begin()));
  });
}

TEST_CASE("known walks: a partial last warp, the repeats' order, an error's place", "[analysis][walk]") {
  Case c;
  c.s.threads = 40;  // warps of 32 and 8 lanes
  c.s.values = 2;
  c.s.vec = 1;
  c.s.tile_m = 40, c.s.tile_n = 2;
  c.s.memory_m = 80, c.s.memory_n = 4;  // 2 x 2 repeats
  for (std::int64_t v = 0; v < 2; ++v)
    for (std::int64_t t = 0; t < 40; ++t) c.tv.push_back(t + 40 * v);
  for (std::int64_t i = 0; i < 320; ++i) c.memory.push_back(i);
  c.active.assign(40, true);
  const auto [got, r] = walk(c);
  REQUIRE(r.ok());
  REQUIRE(got.size() == 4 * 2 * 2);
  CHECK(got[1].lanes == 8);
  CHECK(got[1].in.first_thread == 32);
  CHECK(got[2].in.step == 1);
  CHECK(got[4].in.tile == 1);
  CHECK(got[4].offset[0] == 40);    // repeat 1 starts at row 40 of column 0
  CHECK(got[8].offset[0] == 160);   // repeat 2: column 2 (column-major over the repeats)
  c.tv[std::size_t(5 + 40 * 1)] = 80;  // thread 5, value 1 outside the 40x2 tile
  const auto [some, bad] = walk(c);
  CHECK(bad.error == analysis::WalkError::outside_tile);
  CHECK(bad.error_thread == 5);
  CHECK(bad.error_value == 1);
  CHECK(some.size() == 2);  // step 0's two warps ran first
}

TEST_CASE("a tiled copy's side as an access: ldmatrix .x1's silent lanes, both tiers' banks agree",
          "[analysis][walk][banks]") {
  auto tup = [](std::vector<rt::IntTuple> v) { return rt::IntTuple::tuple(std::move(v)); };
  // ldmatrix .x1: lanes 0..7 give the 8 row addresses; lanes 8..31 repeat them and give none.
  const rt::CopyAtomView x1 = rt::copy_atom_view(*rt::find_copy("SM75_U32x1_LDSM_N"), 16);
  const rt::TiledCopy c1 = rt::make_tiled_copy(x1, rt::Layout(tup({32, 1}), tup({1, 0})), rt::Layout::column_major(tup({1, 2})));
  const analysis::TvAccess a1 = analysis::access_of_copy_side(c1, true);
  REQUIRE(a1.active);
  for (std::int64_t t = 0; t < 64; ++t) CHECK(a1.active(t) == (t % 32 < 8));
  CHECK(a1.vec == 8);
  CHECK(a1.text == "SM75_U32x1_LDSM_N source");
  const auto r1 = analysis::analyze_banks(analysis::smem_tile(rt::Layout(tup({32, 2}), tup({2, 1}))), a1, 16);
  auto sx1 = make_tiled_copy(Copy_Atom<SM75_U32x1_LDSM_N, half_t>{}, make_layout(make_shape(_32{}, _1{})),
                             make_layout(make_shape(_1{}, _2{})));
  const auto s1 = analysis::analyze_tiled_copy<true>(make_layout(make_shape(_32{}, _2{}), LayoutRight{}), sx1, 16);
  REQUIRE(s1.ok());
  CHECK(r1.summary.instructions == s1.instructions);
  CHECK(r1.summary.wavefronts == s1.wavefronts);
  CHECK(r1.summary.ideal_wavefronts == s1.ideal_wavefronts);
  // cp.async: one thread per atom, every lane active; the destination side is the access.
  const rt::CopyAtomView cp = rt::copy_atom_view(*rt::find_copy("SM80_CP_ASYNC_CACHEALWAYS<16>"), 16);
  const rt::TiledCopy cc = rt::make_tiled_copy(cp, rt::Layout(tup({32, 4}), tup({4, 1})), rt::Layout::column_major(tup({1, 8})));
  const analysis::TvAccess d = analysis::access_of_copy_side(cc, false);
  for (std::int64_t t = 0; t < 128; ++t) CHECK(d.active(t));
  CHECK(d.tile_m == 32);
  CHECK(d.tile_n == 32);
  const auto rd = analysis::analyze_banks(analysis::smem_tile(rt::Layout(tup({32, 64}), tup({64, 1}))), d, 16);
  auto scp = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<16>, half_t>{},
                             make_layout(make_shape(_32{}, _4{}), LayoutRight{}), make_layout(make_shape(_1{}, _8{})));
  const auto sd = analysis::analyze_tiled_copy<false>(make_layout(make_shape(_32{}, _64{}), LayoutRight{}), scp, 16);
  REQUIRE(sd.ok());
  CHECK(rd.summary.instructions == sd.instructions);
  CHECK(rd.summary.wavefronts == sd.wavefronts);
  CHECK(rd.summary.max_degree == sd.max_degree);
  CHECK(rd.summary.max_degree == 2);
}
