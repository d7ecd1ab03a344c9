// The SM90 TMA-store epilogue's operands on the host (kernels/collective/sm90_epilogue_operands.hpp):
// which problems TMA stores D for and, with beta != 0, loads C for, and the tensor-map
// arguments of D and C that the device layer encodes (the staging tile's boxes rebound to D's
// and C's strides: tma::rebind_gmem over the same prototype as sm90_gemm.cuh).
//  - the rule on generated problems, against its statement, for kernels of either D major (a
//    row-major kernel D: the row-major staging's boxes over D's (ld, 1) strides);
//  - C's arguments: C's own ld and batch stride, D's extents; C aliasing D gives D's map;
//  - the refusals (C misaligned, ld or batch stride off 16 bytes, fused kernels and problems).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <string>

#include "collective/sm90_epilogue_operands.hpp"
#include "collective/sm90_epilogue_staging.hpp"
#include "tessera/atom/copy_sm90_tma.hpp"
#include "tessera/atom/gmma_layout.hpp"

using namespace tessera;
using namespace tessera::kernels;

namespace {
// The staging tile of CollectiveEpilogueSm90TmaStore (sm90_epilogue_tma.cuh: 16 KiB of
// 64-row columns, MN-major 128B GMMA atoms walking the columns first) and the prototype
// arguments over a column-major (rows, cols[, 2]) tensor, as CollectiveEpilogueSm90TmaStore::bind_tma.
template <int Bits>
tma::Arguments staging_prototype(bool batched) {
  constexpr int Cols = 16 * 1024 * 8 / Bits / 64;
  constexpr auto staging = GMMA::make_smem_layout<Bits, GMMA::Major::MN, 128>(make_shape(_64{}, C<Cols>{}), tuple<_2, _1>{});
  constexpr int MaxBoxes = 64 * Bits / 8 / 128;
  tma::Arguments a;
  const int64_t rows = 1024, cols = 1024;
  if (batched)
    (void)make_tma_copy<SM90_TMA_STORE, MaxBoxes, Bits>(
        a, make_layout(make_shape(rows, cols, int64_t(2)), make_stride(int64_t(1), rows, rows * cols)), staging);
  else
    (void)make_tma_copy<SM90_TMA_STORE, MaxBoxes, Bits>(a, make_layout(make_shape(rows, cols), make_stride(int64_t(1), rows)),
                                                         staging);
  return a;
}
// The same over a tensor of D's major, from the epilogue's staging (EpilogueStaging) for a
// 256-column tile.
template <int Bits>
tma::Arguments staging_prototype(bool batched, Major d_major) {
  if (d_major == Major::Col) return staging_prototype<Bits>(batched);
  using S = sm90::EpilogueStaging<Bits, 256, 2, 1, Major::Row>;
  tma::Arguments a;
  const int64_t rows = 1024, cols = 1024;
  if (batched)
    (void)make_tma_copy<SM90_TMA_STORE, S::boxes, Bits>(
        a, make_layout(make_shape(rows, cols, int64_t(2)), make_stride(cols, int64_t(1), rows * cols)), S::staging);
  else
    (void)make_tma_copy<SM90_TMA_STORE, S::boxes, Bits>(a, make_layout(make_shape(rows, cols), make_stride(cols, int64_t(1))),
                                                         S::staging);
  return a;
}

// A column-major D (and C) problem in 16-bit elements at 16-byte aligned addresses.
alignas(16) unsigned char arena[1 << 12];
GemmArguments problem(int64_t m, int64_t n, int64_t batch, float beta) {
  GemmArguments g;
  g.m = m, g.n = n, g.k = 64, g.batch = batch;
  g.element = Element::BF16;
  g.c.major = Major::Col;
  g.d = arena;
  g.ldd = m;
  g.batch_stride_d = m * n;
  g.beta = beta;
  g.c.ptr = beta != 0 ? arena + 1024 : nullptr;
  g.c.ld = m;
  g.c.batch_stride = m * n;
  return g;
}

// The TMA dim of `a` that is gmem mode `mode`.
int dim_of_mode(tma::Arguments const& a, int mode) {
  for (int d = 0; d < a.rank; ++d)
    if (a.mode_of_dim[d] == mode) return d;
  return -1;
}
}  // namespace

TEST_CASE("sm90 epilogue operands: the rule on generated problems") {
  rc::prop("TMA stores D where it has the kernel's major and is 16-byte aligned; C comes by TMA for beta != 0 where it is too", [] {
    const int64_t m = *rc::gen::inRange<int64_t>(1, 5000), n = *rc::gen::inRange<int64_t>(1, 5000);
    const int64_t batch = *rc::gen::inRange<int64_t>(1, 4);
    const bool bf16_d = *rc::gen::arbitrary<bool>();
    const int bytes = bf16_d ? 2 : 4;
    const int64_t per16 = 16 / bytes;
    GemmArguments g = problem(m, n, batch, *rc::gen::element(0.0f, 1.0f, -0.5f));
    if (!bf16_d) g.epilogue.output = Element::F32;
    g.c.major = *rc::gen::element(Major::Col, Major::Col, Major::Row);
    const Major kernel_major = *rc::gen::element(Major::Col, Major::Row);  // the kernel's D (its staging's)
    const bool row = g.c.major == Major::Row;
    const int64_t extent = row ? n : m;  // D's contiguous extent
    g.ldd = extent + *rc::gen::inRange<int64_t>(0, 17);
    g.batch_stride_d = g.ldd * n + *rc::gen::inRange<int64_t>(0, 9);
    g.d = arena + 2 * *rc::gen::inRange<int>(0, 16);
    const bool alias = *rc::gen::arbitrary<bool>();
    if (g.beta != 0) {
      if (alias) {
        g.c.ptr = g.d, g.c.ld = g.ldd, g.c.batch_stride = g.batch_stride_d;
      } else {
        g.c.ptr = arena + 2048 + 2 * *rc::gen::inRange<int>(0, 16);
        g.c.ld = extent + *rc::gen::inRange<int64_t>(0, 17);
        g.c.batch_stride = g.c.ld * n + *rc::gen::inRange<int64_t>(0, 9);
      }
    }
    const bool fused_problem = *rc::gen::element(false, false, true);
    if (fused_problem) g.epilogue.activation = Activation::ReLU;
    const bool fused_instance = *rc::gen::element(false, false, true);
    const auto o = sm90::sm90_epilogue_operands(g, bytes, fused_instance, kernel_major);

    auto aligned = [&](const void* p, int64_t ld, int64_t bs) {
      return reinterpret_cast<std::uintptr_t>(p) % 16 == 0 && ld % per16 == 0 && (batch == 1 || bs % per16 == 0);
    };
    // (and D's contiguous extent whole 16 bytes: a TMA store writes whole 16-byte chunks)
    const bool d_ok = g.c.major == kernel_major && aligned(g.d, g.ldd, g.batch_stride_d) && extent % per16 == 0;
    const bool c_ok = g.beta == 0 || (!fused_instance && !fused_problem && aligned(g.c.ptr, g.c.ld, g.c.batch_stride));
    RC_ASSERT(bool(o.status) == (d_ok && c_ok));
    if (!o.status) {
      RC_ASSERT(o.status.status == GemmStatus::Unsupported);
      RC_ASSERT(!o.load_c);
      return;
    }
    RC_ASSERT(o.load_c == (g.beta != 0));
    RC_ASSERT(o.modes == (batch > 1 ? 3 : 2));
    RC_ASSERT(o.extent[0] == m && o.extent[1] == n && o.extent[2] == batch);
    // (the ld strides the mode across D's contiguous one: N of a column-major D, M of a row-major)
    const int strided = row ? 0 : 1;
    RC_ASSERT(o.d_stride[strided] == g.ldd && o.d_stride[1 - strided] == 1 && o.d_stride[2] == g.batch_stride_d);
    // The tensor maps: the staging boxes over D's and C's strides, as the device layer encodes them.
    const tma::Arguments proto = bf16_d ? staging_prototype<16>(batch > 1, kernel_major) : staging_prototype<32>(batch > 1, kernel_major);
    RC_ASSERT(proto.rule == tma::Rule::ok);
    const tma::Arguments d = tma::rebind_gmem(proto, o.modes, o.extent, o.d_stride);
    RC_ASSERT(d.rule == tma::Rule::ok);
    RC_ASSERT(d.global_dim[dim_of_mode(d, 1)] == n);
    RC_ASSERT(d.global_dim[dim_of_mode(d, 0)] == m);
    RC_ASSERT(d.global_stride_bytes[dim_of_mode(d, strided)] == g.ldd * bytes);
    RC_ASSERT(d.mode_of_dim[0] == 1 - strided);  // TMA's innermost dim: D's contiguous mode
    if (o.load_c) {
      RC_ASSERT(o.c_stride[strided] == g.c.ld && o.c_stride[1 - strided] == 1 && o.c_stride[2] == g.c.batch_stride);
      const tma::Arguments c = tma::rebind_gmem(proto, o.modes, o.extent, o.c_stride);
      RC_ASSERT(c.rule == tma::Rule::ok);
      // C's map: D's boxes and extents (C is read where D is written), C's strides.
      for (int q = 0; q < c.rank; ++q) {
        RC_ASSERT(c.box_dim[q] == d.box_dim[q]);
        RC_ASSERT(c.global_dim[q] == d.global_dim[q]);
        RC_ASSERT(c.swizzle == d.swizzle);
      }
      RC_ASSERT(c.global_stride_bytes[dim_of_mode(c, strided)] == g.c.ld * bytes);
      if (batch > 1) RC_ASSERT(c.global_stride_bytes[dim_of_mode(c, 2)] == g.c.batch_stride * bytes);
      if (alias)
        for (int q = 0; q < c.rank; ++q) RC_ASSERT(c.global_stride_bytes[q] == d.global_stride_bytes[q]);
    }
  });
}

TEST_CASE("sm90 epilogue operands: C's tensor-map arguments") {
  // 1032 x 2056 x 3 bf16, C with its own ld (1040) and batch stride: TMA dims M (64-row
  // boxes, 128 B swizzled), N, L; C's strides 2080 B and 1040 * 2056 * 2 B.
  GemmArguments g = problem(1032, 2056, 3, 0.5f);
  g.c.ld = 1040;
  g.c.batch_stride = 1040 * 2056;
  const auto o = sm90::sm90_epilogue_operands(g, 2, false);
  REQUIRE(o.status);
  REQUIRE(o.load_c);
  const tma::Arguments proto = staging_prototype<16>(true);
  const tma::Arguments c = tma::rebind_gmem(proto, o.modes, o.extent, o.c_stride);
  REQUIRE(c.rule == tma::Rule::ok);
  REQUIRE(c.rank == 3);
  CHECK(c.mode_of_dim[0] == 0);
  CHECK(c.global_dim[0] == 1032);
  CHECK(c.box_dim[0] == 64);
  CHECK(c.swizzle == tma::Swizzle::b128);
  CHECK(c.global_dim[dim_of_mode(c, 1)] == 2056);
  CHECK(c.global_stride_bytes[dim_of_mode(c, 1)] == 2080);
  CHECK(c.global_dim[dim_of_mode(c, 2)] == 3);
  CHECK(c.global_stride_bytes[dim_of_mode(c, 2)] == int64_t(1040) * 2056 * 2);
  // beta == 0: C is not read, whatever it is.
  g.beta = 0;
  g.c.ld = 1031;
  CHECK(sm90::sm90_epilogue_operands(g, 2, true).status);
  CHECK(!sm90::sm90_epilogue_operands(g, 2, true).load_c);
}

TEST_CASE("sm90 epilogue operands: refusals") {
  const GemmArguments base = problem(1032, 2056, 2, 1.0f);
  REQUIRE(sm90::sm90_epilogue_operands(base, 2, false).load_c);
  auto refused = [](GemmArguments const& g, bool fused_instance, const char* words) {
    const auto o = sm90::sm90_epilogue_operands(g, 2, fused_instance);
    return !o.status && !o.load_c && o.status.status == GemmStatus::Unsupported && o.status.message.find(words) != std::string::npos;
  };
  GemmArguments g = base;
  g.c.ptr = arena + 1026;  // 2 bytes off 16
  CHECK(refused(g, false, "16-byte aligned C"));
  g = base;
  g.c.ld = 1036;  // 2072 bytes
  CHECK(refused(g, false, "16-byte aligned C"));
  g = base;
  g.c.batch_stride = 1032 * 2056 + 4;
  CHECK(refused(g, false, "16-byte aligned C"));
  g = base;
  g.c.ptr = nullptr;
  CHECK(refused(g, false, "without C"));
  CHECK(refused(base, true, "fused TMA-store kernel"));
  g = base;
  g.epilogue.bias = Bias::PerRow;
  CHECK(refused(g, false, "no bias or activation"));
  g = base;
  g.c.major = Major::Row;
  CHECK(refused(g, false, "column-major D"));
  // A kernel built with a row-major D refuses a column-major one (its staging is row-major).
  CHECK(!sm90::sm90_epilogue_operands(base, 2, false, Major::Row).status);
  CHECK(sm90::sm90_epilogue_operands(base, 2, false, Major::Row).status.message.find("row-major D") != std::string::npos);
  g = base;
  g.ldd = 1033;
  CHECK(refused(g, false, "16-byte aligned D"));
  // D's contiguous extent not whole 16 bytes: a TMA store would write past it, into ld's
  // padding (the drawn GPU problems found 16-bit Ds of M = 1 .. 2369 and N = 2 .. 258 padded
  // that way; the direct epilogue runs them).
  g = problem(1001, 40, 1, 0.0f);
  g.ldd = 1008;
  CHECK(refused(g, false, "M is not a multiple of 16 bytes"));
  g.m = 1000;
  CHECK(sm90::sm90_epilogue_operands(g, 2, false).status);
  g = problem(1009, 10, 1, 0.0f);
  g.c.major = Major::Row;
  g.ldd = 16;
  CHECK(!sm90::sm90_epilogue_operands(g, 2, false, Major::Row).status);
  CHECK(sm90::sm90_epilogue_operands(g, 2, false, Major::Row).status.message.find("N is not a multiple of 16 bytes") != std::string::npos);
  g.n = 8;
  CHECK(sm90::sm90_epilogue_operands(g, 2, false, Major::Row).status);
  g = problem(1002, 40, 1, 0.0f);  // (an f32 D: 4 elements in 16 bytes)
  g.ldd = 1004;
  CHECK(!sm90::sm90_epilogue_operands(g, 4, false).status);
  g.m = 1004;
  CHECK(sm90::sm90_epilogue_operands(g, 4, false).status);
  // The same C batch stride off 16 bytes is fine without batches.
  g = problem(1032, 2056, 1, 1.0f);
  g.c.batch_stride = 7;
  CHECK(sm90::sm90_epilogue_operands(g, 2, false).load_c);
}
