// The SM90 kernel's accumulator trace, on the host (no GPU): what `gemm_trace --sm90` records
// on the device, emulated from the PTX ISA's wgmma accumulator table (tests/atoms/
// isa_reference.hpp, written from the ISA, not from tessera's layouts): consumer thread t of
// warpgroup w = t / 128 holds d_i of its warpgroup's 64 x 256 slice, rows 64 w .. 64 w + 63;
// the coordinate code m + 256 n the traced run's inputs produce is decoded as the trace
// epilogue decodes it, and tessera::verify checks the records against the TiledMma's C map
// (the map gemm_trace writes). Wrong placements must be reported with their coordinates.
#include <catch2/catch.hpp>

#include <sstream>
#include <utility>

#include "../atoms/isa_reference.hpp"
#include "tessera/atom/numeric.hpp"
#include "trace_configs.hpp"
#include "trace_maps.hpp"

using namespace tessera;
using namespace tessera::kernels;
namespace tv = tessera::verify;

namespace {

// The records of a run in which thread t's accumulator i holds C(row, col) per the ISA;
// swap: exchange two registers' contents in one thread (a wrong fragment order).
// tf32: the f32 configuration's TiledMma (m64n256k8) and tf32-exact inputs.
tv::Trace emulated_trace(std::pair<int, int> swap = {-1, -1}, int swap_thread = -1, bool tf32 = false) {
  tv::Trace t;
  t.kernel = "emulated sm90 accumulators";
  t.maps = {tf32 ? trace::make_map<trace::Sm90TracedTileC>(trace::Map::mma_c, trace::Sm90TracedTiledMma<true>::get_layoutC_TV())
                 : trace::make_map<trace::Sm90TracedTileC>(trace::Map::mma_c, trace::Sm90TracedTiledMma<false>::get_layoutC_TV())};
  constexpr int values = 256 / 2;  // m64n256k16: 128 f32 accumulators per thread
  for (int thread = 0; thread < 256; ++thread) {
    float acc[values];
    for (int i = 0; i < values; ++i) {
      const isa::RC rc = isa::wgmma_m64nNk16_D(thread % 128, i);
      const int m = 64 * (thread / 128) + rc.row, n = rc.col;
      // The traced inputs: A(m, 0) = m, A(m, 1) = 1, B(n, 0) = 1, B(n, 1) = 256 n, in bf16 or
      // tf32 (10-bit mantissa): each of them exact in both.
      auto in = [&](float x) { return tf32 ? float(tfloat32_t(x)) : float(bfloat16_t(x)); };
      const float a0 = in(float(m)), a1 = in(1.0f), b0 = in(1.0f), b1 = in(float(trace::kAccumulatorRowSpan * n));
      acc[i] = a0 * b0 + a1 * b1;
    }
    if (thread == swap_thread) std::swap(acc[swap.first], acc[swap.second]);
    for (int i = 0; i < values; ++i) {
      const trace::Code c = trace::decode_accumulator(acc[i]);
      t.records.push_back({"mma.C", thread, i, c.row, c.col});
    }
  }
  return t;
}

}  // namespace

TEST_CASE("SM90 accumulator code: exact in bf16 inputs and f32 sums over the 128 x 256 tile") {
  for (int m = 0; m < 128; ++m)
    for (int n = 0; n < 256; ++n) {
      const float code = float(bfloat16_t(float(m))) + float(bfloat16_t(float(trace::kAccumulatorRowSpan * n)));
      const trace::Code c = trace::decode_accumulator(code);
      REQUIRE(c.row == m);
      REQUIRE(c.col == n);
    }
}

TEST_CASE("SM90 accumulators per the ISA verify against the TiledMma's C map") {
  const bool tf32 = GENERATE(false, true);
  INFO((tf32 ? "tf32" : "bf16"));
  const tv::Trace t = emulated_trace({-1, -1}, -1, tf32);
  CHECK(t.records.size() == 256u * 128u);
  const auto r = tv::verify(t);
  INFO(tv::format_report(r));
  CHECK(r.ok);
  REQUIRE(r.maps.size() == 1);
  CHECK(r.maps[0].findings == 0);
  // As a file and back: what `tessera verify` reads.
  std::ostringstream os;
  tv::write_trace(os, t);
  std::istringstream is(os.str());
  CHECK(tv::verify(tv::parse_trace(is, "sm90")).ok);
}

TEST_CASE("SM90 accumulator trace: a thread holding two values in the wrong registers is reported") {
  // Registers 0 and 2 of thread 130 (warpgroup 1, warp 0, lane 2): rows 64 + 0 and 64 + 8.
  const auto r = tv::verify(emulated_trace({0, 2}, 130));
  INFO(tv::format_report(r));
  CHECK_FALSE(r.ok);
  REQUIRE(r.maps.size() == 1);
  CHECK(r.maps[0].findings == 2);
  const std::string report = tv::format_report(r);
  CHECK(report.find("thread 130 value 0: expected (64,4) got (72,4)") != std::string::npos);
  CHECK(report.find("thread 130 value 2: expected (72,4) got (64,4)") != std::string::npos);
}
