// The SM90 dispatch's choice of schedule and tile (kernels/device/sm90_schedule.hpp), on the
// host: the rule on generated problems (against its statement: CTA counts computed here), and
// the benchmark's shapes on an H100 (132 SMs).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>

#include "device/sm90_schedule.hpp"

using namespace tessera::kernels;
using sm90::Schedule;

namespace {
GemmArguments problem(int64_t m, int64_t n, int64_t k, int64_t batch, Element e, Major a, Major b) {
  GemmArguments g;
  g.m = m, g.n = n, g.k = k, g.batch = batch;
  g.element = e;
  g.a.major = a;
  g.b.major = b;
  g.c.major = Major::Col;
  return g;
}
GemmArguments tn(int64_t m, int64_t n, int64_t k, int64_t batch = 1, Element e = Element::BF16) {
  return problem(m, n, k, batch, e, Major::Row, Major::Col);
}
}  // namespace

TEST_CASE("sm90 schedule: the rule on generated problems") {
  rc::prop("default tiles unless their CTAs fill at most half the SMs; then ping-pong for TN, 128x128 otherwise", [] {
    const int64_t m = *rc::gen::inRange<int64_t>(1, 20000), n = *rc::gen::inRange<int64_t>(1, 20000);
    const int64_t batch = *rc::gen::inRange<int64_t>(1, 5), k = *rc::gen::inRange<int64_t>(1, 9000);
    const Element e = *rc::gen::element(Element::BF16, Element::F16, Element::F32);
    const Major a = *rc::gen::element(Major::Row, Major::Col), b = *rc::gen::element(Major::Row, Major::Col);
    const int sms = *rc::gen::element(8, 66, 114, 132);
    GemmArguments g = problem(m, n, k, batch, e, a, b);
    const bool f32_d = *rc::gen::arbitrary<bool>();
    if (f32_d) g.epilogue.output = Element::F32;
    const Schedule s = sm90::choose_schedule(g, sms);
    // CTAs of 128 x 256 tiles, clusters of 2 along M (an odd M-tile count rounds up).
    const int64_t tm = (m + 127) / 128, ctas = (tm + tm % 2) * ((n + 255) / 256) * batch;
    const bool small = 2 * ctas <= sms && e != Element::F32 && !f32_d;
    if (!small) {
      RC_ASSERT(s == Schedule::Cooperative128x256);
    } else if (a == Major::Row && b == Major::Col) {
      RC_ASSERT(s == Schedule::Pingpong64x128);
    } else {
      RC_ASSERT(s == Schedule::Cooperative128x128);
    }
  });
}

TEST_CASE("sm90 schedule: the benchmark's shapes on an H100 (132 SMs)") {
  // 1000^3: 4 x 4 cluster tiles of 128 x 256 = 32 CTAs on 132 SMs: ping-pong 64 x 128 (128 tiles).
  CHECK(sm90::choose_schedule(tn(1000, 1000, 1000), 132) == Schedule::Pingpong64x128);
  CHECK(sm90::choose_schedule(tn(1000, 1000, 1000, 1, Element::F16), 132) == Schedule::Pingpong64x128);
  CHECK(sm90::cluster_ctas(tn(1000, 1000, 1000), 64, 128, 2) == 128);
  // MN-major operands and an f32 D at 1000^3: no ping-pong instance: 128 x 128 and the default.
  CHECK(sm90::choose_schedule(problem(1000, 1000, 1000, 1, Element::BF16, Major::Col, Major::Col), 132) == Schedule::Cooperative128x128);
  GemmArguments f32d = tn(1000, 1000, 1000);
  f32d.epilogue.output = Element::F32;
  CHECK(sm90::choose_schedule(f32d, 132) == Schedule::Cooperative128x256);
  // tf32: one kernel.
  CHECK(sm90::choose_schedule(tn(1000, 1000, 1000, 1, Element::F32), 132) == Schedule::Cooperative128x256);
  // 66 CTAs (half the SMs) still small; 68 not.
  CHECK(sm90::choose_schedule(tn(128 * 66, 256, 64), 132) == Schedule::Pingpong64x128);
  CHECK(sm90::choose_schedule(tn(128 * 68, 256, 64), 132) == Schedule::Cooperative128x256);
  // The large shapes keep the default.
  for (int64_t s : {4096, 8192}) CHECK(sm90::choose_schedule(tn(s, s, s), 132) == Schedule::Cooperative128x256);
  CHECK(sm90::choose_schedule(tn(4096, 11008, 4096), 132) == Schedule::Cooperative128x256);
  CHECK(sm90::choose_schedule(tn(8192, 8192, 1024), 132) == Schedule::Cooperative128x256);
  // Batches count: 1000^3 x 3 is 96 CTAs of the default tile.
  CHECK(sm90::choose_schedule(tn(1000, 1000, 1000, 3), 132) == Schedule::Cooperative128x256);
  CHECK(std::string(sm90::to_string(Schedule::Pingpong64x128)) == "ping-pong 64x128");
}

TEST_CASE("sm90 Stream-K choice: a shipped Stream-K kernel only where the wave model predicts it faster") {
  rc::prop("choose_stream_k against select_sm90's margin over the rule's whole tiles", [] {
    const int64_t m = *rc::gen::inRange<int64_t>(1, 9000), n = *rc::gen::inRange<int64_t>(1, 9000);
    const int64_t batch = *rc::gen::inRange<int64_t>(1, 4), k = *rc::gen::inRange<int64_t>(1, 20000);
    const Element e = *rc::gen::element(Element::BF16, Element::F16, Element::F32, Element::E4M3, Element::E5M2);
    // (FP8 is K-major only: TN)
    const Major a = is_fp8(e) ? Major::Row : *rc::gen::element(Major::Row, Major::Col);
    const Major b = is_fp8(e) ? Major::Col : *rc::gen::element(Major::Row, Major::Col);
    const int sms = *rc::gen::element(8, 66, 114, 132);
    GemmArguments g = problem(m, n, k, batch, e, a, b);
    if (*rc::gen::arbitrary<bool>()) g.epilogue.output = is_fp8(e) ? *rc::gen::element(Element::F16, Element::F32) : Element::F32;
    const auto sk = sm90::choose_stream_k(g, sms);
    const sm90::GemmShape shape = sm90::shape_of(g);
    const Schedule whole = sm90::choose_schedule(g, sms);
    const sm90::Candidate dp = sm90::candidate_of(whole, e, sm90::Schedulers::DataParallel);
    const double dp_eff = sm90::predict(dp, shape, sms, sm90::scheduler_for(dp, shape, sms, false)).efficiency;
    for (const Schedule s : {Schedule::Cooperative128x256, Schedule::Cooperative128x128}) {
      const sm90::Candidate c = sm90::candidate_of(s, e, sm90::Schedulers::StreamK);
      const auto sched = sm90::scheduler_for(c, shape, sms, true);
      const double eff = sm90::predict(c, shape, sms, sched).efficiency;
      const bool considered = sm90::stream_k_considered(s, g) && sched.plan.kind != Decomposition::DataParallel;
      if (sk == s) {
        // the kernel exists, its plan shares k-iterations, and it beats whole tiles past the margin
        RC_ASSERT(considered);
        RC_ASSERT(eff > dp_eff * (1 + sm90::kSelectionMargin));
      } else if (!sk && considered) {
        RC_ASSERT(eff <= dp_eff * (1 + sm90::kSelectionMargin));
      }
    }
    // Stream-K kernels (sm90_kernel_list.hpp): 16-bit inputs, D in their type, TN or NT (both
    // tiles); e4m3 x e4m3 to bf16, TN.
    const bool tn = a == Major::Row && b == Major::Col, nt = a == Major::Col && b == Major::Row;
    if (sk && is_fp8(e)) RC_ASSERT(e == Element::E4M3 && output_element(g) == Element::BF16 && tn);
    if (sk && !is_fp8(e)) RC_ASSERT(e != Element::F32 && output_element(g) == e && (tn || nt));
  });
}

TEST_CASE("sm90 Stream-K choice: the issue's shapes on 132 SMs") {
  // 3072^3: 144 cluster tiles on 66 clusters (73% busy): the last full wave and the tail shared.
  CHECK(sm90::choose_stream_k(tn(3072, 3072, 3072), 132) == Schedule::Cooperative128x256);
  CHECK(sm90::choose_stream_k(problem(3072, 3072, 3072, 1, Element::BF16, Major::Col, Major::Row), 132) ==
        Schedule::Cooperative128x256);
  // 512 x 4096 x 14336: 32 cluster tiles, long K: Stream-K 128x256 over the ping-pong's whole tiles.
  CHECK(sm90::choose_stream_k(tn(512, 4096, 14336), 132) == Schedule::Cooperative128x256);
  // 4096^3 (256 tiles: the last wave 58 of 66) and 1000^3 (ping-pong fills the GPU): whole tiles.
  CHECK(!sm90::choose_stream_k(tn(4096, 4096, 4096), 132));
  CHECK(!sm90::choose_stream_k(tn(1000, 1000, 1000), 132));
  // Decode-like (64 tokens through a 10240 x 8192 weight, as D^T: N = 64): 40 cluster tiles in
  // a single partial wave of 66 clusters, shared; the 128x128 tile wastes half as much of N.
  CHECK(sm90::choose_stream_k(tn(10240, 64, 8192), 132) == Schedule::Cooperative128x128);
  // 256 tokens: the TN 128x128 Stream-K kernel is not weighed; the ping-pong kernel's whole
  // tiles run.
  CHECK(!sm90::stream_k_considered(Schedule::Cooperative128x128, tn(4096, 256, 14336)));
  CHECK(!sm90::choose_stream_k(tn(4096, 256, 14336), 132));
  // 512 tokens through a 6144 x 4096 weight: 48 cluster tiles in one partial wave of 66, not
  // memory-bound: whole tiles, as CUTLASS's rule 3.
  CHECK(!sm90::choose_stream_k(tn(6144, 512, 4096), 132));
  // No Stream-K kernel for NN, TT, an f32 D or tf32.
  CHECK(!sm90::choose_stream_k(problem(3072, 3072, 3072, 1, Element::BF16, Major::Col, Major::Col), 132));
  GemmArguments f32d = tn(3072, 3072, 3072);
  f32d.epilogue.output = Element::F32;
  CHECK(!sm90::choose_stream_k(f32d, 132));
  CHECK(!sm90::choose_stream_k(tn(3072, 3072, 3072, 1, Element::F32), 132));
}
