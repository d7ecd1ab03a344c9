// The SM90 selection rule (kernels/device/gemm_selection.hpp) on the host: the choice is the
// model's best candidate (to the margin), never predicted slower than the default 128x256 tile (kSm90Default),
// takes the problem, and its data-parallel prediction is the closed-form wave quantization.
// The hidden case "[.table]" prints docs/scheduling.md's table of predicted efficiencies.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "device/gemm_selection.hpp"

using namespace tessera::kernels;
using namespace tessera::kernels::sm90;

namespace {
GemmShape bf16_tn(std::int64_t m, std::int64_t n, std::int64_t k) { return {m, n, k, 1, Element::BF16, Element::BF16, Major::Row, Major::Col}; }
}  // namespace

TEST_CASE("select_sm90: the model's best candidate, never worse than the default tile", "[kernels]") {
  rc::prop("generated problems, types, majors and SM counts", [] {
    GemmShape s;
    s.m = *rc::gen::inRange<std::int64_t>(1, 20000), s.n = *rc::gen::inRange<std::int64_t>(1, 20000);
    s.k = *rc::gen::inRange<std::int64_t>(1, 20000), s.batch = *rc::gen::inRange<std::int64_t>(1, 4);
    s.element = *rc::gen::element(Element::BF16, Element::F16, Element::F32, Element::E4M3, Element::E5M2);
    s.output = is_fp8(s.element) ? *rc::gen::element(Element::BF16, Element::F16, Element::F32)
                                 : *rc::gen::element(s.element, Element::F32);
    s.a = *rc::gen::element(Major::Row, Major::Col), s.b = *rc::gen::element(Major::Row, Major::Col);
    const int sms = *rc::gen::inRange(1, 265);
    const Sm90Choice c = select_sm90(s, sms);
    double best = 0;
    bool taken = false;
    for (const Candidate& cand : kSm90Candidates) {
      if (!candidate_takes(cand, s) || persistent_clusters(sms, cand.cluster) < 1) continue;
      for (bool sk : {false, true}) {  // (the schedulers its kernels run: the decode tiles' Stream-K only)
        if (cand.schedulers == (sk ? Schedulers::DataParallel : Schedulers::StreamK)) continue;
        const auto sched = scheduler_for(cand, s, sms, sk);
        // (a Stream-K-only tile whose plan shares nothing is no choice: its kernel declines)
        if (sk && sched.plan.kind == Decomposition::DataParallel) continue;
        taken = true;
        best = std::max(best, predict(cand, s, sms, sched).efficiency);
      }
    }
    RC_ASSERT(taken == (c.tile_m != 0));
    if (!taken) return;
    RC_ASSERT(c.efficiency * (1 + kSelectionMargin) >= best);
    // No schedule beats every SM busy at the fastest tile's rate (the 16-bit 128x256 tile's, twice it for FP8).
    RC_ASSERT(c.efficiency <= peak_rate(s.element) + 1e-9);
    // The choice names a candidate that takes the problem, and the plan of its scheduler.
    bool named = false;
    for (const Candidate& cand : kSm90Candidates)
      named = named || (cand.tile_m == c.tile_m && cand.tile_n == c.tile_n && cand.tile_k == c.tile_k &&
                        cand.cluster.m == c.cluster.m && cand.cluster.n == c.cluster.n && candidate_takes(cand, s));
    RC_ASSERT(named);
    RC_ASSERT(c.scheduler == c.plan.kind);
    RC_ASSERT(c.clusters * c.cluster.size() <= sms);
    // Today's tile (whole tiles) where it takes the problem: the choice predicts no worse.
    if (candidate_takes(kSm90Default, s) && sms >= 2) {
      const Sm90Choice dflt = predict(kSm90Default, s, sms, scheduler_for(kSm90Default, s, sms, false));
      RC_ASSERT(c.efficiency * (1 + kSelectionMargin) >= dflt.efficiency);
      // Data-parallel: the wave quantization in closed form, tiles / (waves x SMs), with padding.
      const std::int64_t tiles = ((s.m + 255) / 256) * ((s.n + 255) / 256) * s.batch;  // 2x1 clusters of 128x256
      const std::int64_t clusters = sms / 2, waves = (tiles + clusters - 1) / clusters;
      const double k_tiles = double((s.k + 63) / 64);
      const double want = double(s.m) * double(s.n) * double(s.k) * double(s.batch) /
                          (double(sms) * double(waves) * k_tiles * 128.0 * 256.0 * 64.0);
      RC_ASSERT(std::abs(dflt.efficiency - want) <= 1e-12 * want);
    }
  });
  // No candidate for f32 inputs that are not TN, nor for sizes <= 0.
  CHECK(select_sm90({1024, 1024, 1024, 1, Element::F32, Element::F32, Major::Col, Major::Col}, 132).tile_m == 0);
  CHECK(select_sm90(bf16_tn(0, 1024, 1024), 132).tile_m == 0);
  CHECK(select_sm90(bf16_tn(1024, 1024, 1024), 132, std::span<const Candidate>{}).tile_m == 0);
  // Only the candidates passed are considered (the dispatch passes the kernels it ships).
  const std::array<Candidate, 1> only_default = {kSm90Default};
  const Sm90Choice d = select_sm90(bf16_tn(1000, 1000, 1000), 132, only_default);
  CHECK((d.tile_m == 128 && d.tile_n == 256 && d.cluster.m == 2));
}

TEST_CASE("select_sm90: the problem as the kernel runs it", "[kernels]") {
  GemmArguments g;
  g.m = 100, g.n = 300, g.k = 50, g.batch = 2, g.element = Element::F16;
  g.epilogue.output = Element::F32;
  for (const Major a : {Major::Row, Major::Col})
    for (const Major b : {Major::Row, Major::Col}) {
      g.a.major = a, g.b.major = b;
      g.c.major = Major::Col;  // as given
      GemmShape s = shape_of(g);
      CHECK((s.m == 100 && s.n == 300 && s.k == 50 && s.batch == 2 && s.a == a && s.b == b));
      CHECK((s.element == Element::F16 && s.output == Element::F32));
      // Row-major D runs as D^T = B^T A^T: M and N swap, A's role goes to B^T. Its K-major-ness
      // is B's: B (K x N) is K-major when column-major, B^T (N x K) when row-major.
      g.c.major = Major::Row;
      s = shape_of(g);
      CHECK((s.m == 300 && s.n == 100));
      const bool a_k_major = a == Major::Row, b_k_major = b == Major::Col;
      CHECK((s.a == Major::Row) == b_k_major);
      CHECK((s.b == Major::Col) == a_k_major);
    }
}

TEST_CASE("select_sm90: the issue's shapes on a 132-SM H100/H200", "[kernels]") {
  // Where the default tile quantizes badly (under 80% of the SMs' rate) the rule moves away from it
  // and predicts better; elsewhere it keeps it.
  for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{512, 4096, 14336}, {3072, 3072, 3072}, {128, 8192, 8192},
                                {1000, 1000, 1000}, {4096, 4096, 4096}, {8192, 8192, 1024}, {8192, 8192, 8192}}) {
    const GemmShape s = bf16_tn(m, n, k);
    const Sm90Choice c = select_sm90(s, 132);
    const Sm90Choice dflt = predict(kSm90Default, s, 132, scheduler_for(kSm90Default, s, 132, false));
    INFO(m << "x" << n << "x" << k << ": " << c.tile_m << "x" << c.tile_n << " " << c.cluster.m << "x" << c.cluster.n << " "
           << to_string(c.scheduler) << " " << c.efficiency << " against " << dflt.efficiency);
    const bool kept = c.tile_m == 128 && c.tile_n == 256 && c.cluster.m == 2 && c.scheduler == Decomposition::DataParallel;
    CHECK(kept == (dflt.efficiency >= 0.8));
    CHECK(c.efficiency >= dflt.efficiency);
    if (!kept) CHECK(c.efficiency > (1 + kSelectionMargin) * dflt.efficiency);  // (replaced past the margin only)
  }
}

TEST_CASE("select_sm90: the documentation's table", "[.table]") {
  std::printf("| shape (bf16 TN) | 128x256 2x1 data-parallel (the default) | chosen | predicted |\n|---|---|---|---|\n");
  for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{512, 4096, 14336}, {3072, 3072, 3072}, {128, 8192, 8192},
                                {1000, 1000, 1000}, {4096, 4096, 4096}, {8192, 8192, 1024}, {8192, 8192, 8192}}) {
    const GemmShape s = bf16_tn(m, n, k);
    const auto dflt_sched = scheduler_for(kSm90Default, s, 132, false);
    const Sm90Choice dflt = predict(kSm90Default, s, 132, dflt_sched);
    const Sm90Choice c = select_sm90(s, 132);
    std::printf("| %lldx%lldx%lld | %.3f (%lld tiles, %lld waves of %lld) | %dx%d %dx%d %s (dp %lld, units %lld) | %.3f |\n",
                (long long)m, (long long)n, (long long)k, dflt.efficiency, (long long)dflt_sched.tile_count(),
                (long long)((dflt_sched.tile_count() + dflt_sched.clusters - 1) / dflt_sched.clusters),
                (long long)dflt_sched.clusters, c.tile_m, c.tile_n, c.cluster.m, c.cluster.n, to_string(c.scheduler),
                (long long)c.plan.dp_tiles, (long long)c.plan.sk_units, c.efficiency);
  }
}

// Rows off 32-byte sectors (GemmShape::rows_off_sectors, operand_rows_off_sectors): which
// problems have them, and what the model does with them: a candidate without a cluster runs its
// k-tiles at kOffSectorRate of its rate from kOffSectorMinKTiles k-tiles on; nothing else moves.
TEST_CASE("select_sm90: rows off 32-byte sectors slow the candidates without a cluster, and only those", "[kernels]") {
  rc::prop("operand_rows_off_sectors is ld (and batch stride) x element bytes mod 32", [] {
    GemmArguments g;
    g.element = *rc::gen::element(Element::BF16, Element::F16, Element::F32, Element::E4M3);
    if (is_fp8(g.element) && *rc::gen::arbitrary<bool>()) g.element_b = Element::E5M2;
    g.batch = *rc::gen::inRange<std::int64_t>(1, 4);
    g.a.ld = *rc::gen::inRange<std::int64_t>(0, 1 << 20), g.b.ld = *rc::gen::inRange<std::int64_t>(0, 1 << 20);
    g.a.batch_stride = *rc::gen::inRange<std::int64_t>(0, 1 << 30), g.b.batch_stride = *rc::gen::inRange<std::int64_t>(0, 1 << 30);
    const auto off = [&](std::int64_t elements, Element e) { return elements * element_bytes(e) % 32 != 0; };
    const bool want = off(g.a.ld, g.element) || off(g.b.ld, element_b(g)) ||
                      (g.batch > 1 && (off(g.a.batch_stride, g.element) || off(g.b.batch_stride, element_b(g))));
    RC_ASSERT(operand_rows_off_sectors(g) == want);
    RC_ASSERT(shape_of(g).rows_off_sectors == want);
    g.c.major = Major::Row;  // (the transposed view reads the same operands)
    RC_ASSERT(shape_of(g).rows_off_sectors == want);
  });
  // Huge strides: the remainders are taken first, nothing overflows.
  GemmArguments big;
  big.element = Element::F32;
  big.a.ld = (std::int64_t(1) << 62) + 4;  // x 4 bytes: 2^64 + 16 would wrap to 16
  CHECK(operand_rows_off_sectors(big));
  big.a.ld = std::int64_t(1) << 62;
  CHECK_FALSE(operand_rows_off_sectors(big));

  rc::prop("predict: time / kOffSectorRate for a cluster of one past the floor, the same otherwise", [] {
    GemmShape s;
    s.m = *rc::gen::inRange<std::int64_t>(1, 20000), s.n = *rc::gen::inRange<std::int64_t>(1, 20000);
    s.k = *rc::gen::inRange<std::int64_t>(1, 20000), s.batch = *rc::gen::inRange<std::int64_t>(1, 3);
    s.element = *rc::gen::element(Element::BF16, Element::F32, Element::E4M3);
    s.output = is_fp8(s.element) ? Element::BF16 : s.element;
    const int sms = *rc::gen::element(66, 114, 132);
    GemmShape off = s;
    off.rows_off_sectors = true;
    for (const Candidate& c : kSm90Candidates) {
      if (!candidate_takes(c, s)) continue;
      for (const bool sk : {false, true}) {
        const StreamKScheduler sched = scheduler_for(c, s, sms, sk);
        const double aligned = predict(c, s, sms, sched).predicted_time;
        const double slowed = predict(c, off, sms, sched).predicted_time;
        const bool pays = c.cluster.m * c.cluster.n == 1 && sched.k_tiles >= kOffSectorMinKTiles;
        if (!pays) {
          RC_ASSERT(slowed == aligned);
        } else if (sched.plan.kind == Decomposition::DataParallel) {
          RC_ASSERT(std::abs(slowed - aligned / kOffSectorRate) <= 1e-9 * aligned);
        } else {  // (Stream-K: the k-tiles slow down, the partials' fix-ups cost the same)
          RC_ASSERT(slowed > aligned);
          RC_ASSERT(slowed <= aligned / kOffSectorRate * (1 + 1e-9));
        }
      }
    }
  });
  // The floor: 1000^3 (16 k-tiles) predicts the same either way; K 16008 (251) does not.
  const Candidate pingpong = kSm90Candidates[8];
  REQUIRE((pingpong.tile_m == 64 && pingpong.tile_n == 128 && pingpong.cluster.m == 1));
  GemmShape cube = bf16_tn(1000, 1000, 1000), deep = bf16_tn(1000, 1000, 16008);
  for (GemmShape* s : {&cube, &deep}) {
    GemmShape off = *s;
    off.rows_off_sectors = true;
    const auto sched = scheduler_for(pingpong, *s, 132, false);
    const double ratio = predict(pingpong, off, 132, sched).predicted_time / predict(pingpong, *s, 132, sched).predicted_time;
    CHECK(ratio == Approx(s == &cube ? 1.0 : 1.0 / kOffSectorRate));
  }
}
