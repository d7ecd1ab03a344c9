// The device adapter's host logic (kernels/device/gemm_adapter.hpp), without a GPU: what a
// kernel's contract accepts and refuses (with the reason), the split-K workspace against the
// plan's definition, and the Problem a launch carries.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "device/gemm_adapter.hpp"

using namespace tessera;
using namespace tessera::kernels;
using device::KernelContract;

namespace {
// The library's kernels, as the builders make them (device/launch.cuh's TensorOpBuild).
using BF16TN = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                                 tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using F16NTScalar = CollectiveBuilder<arch::Sm80, OpClassTensorOp, half_t, MNMajor, 1, half_t, MNMajor, 1, float,
                                      tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using SimtTT = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, MNMajor, 1, float, tuple<_128, _128, _8>,
                                 tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
constexpr KernelContract bf16_tn = device::kernel_contract<BF16TN::CollectiveOp, SplitKRasterization<8>>();
constexpr KernelContract f16_nt_scalar = device::kernel_contract<F16NTScalar::CollectiveOp, SplitKRasterization<8>>();
constexpr KernelContract simt_tt = device::kernel_contract<SimtTT::CollectiveOp, GroupedRasterization<8>>();

static_assert(bf16_tn.element == Element::BF16 && bf16_tn.a_k_major && bf16_tn.b_k_major && bf16_tn.vector == 8 &&
              bf16_tn.bm == 128 && bf16_tn.bn == 256 && bf16_tn.bk == 32 && bf16_tn.splits);
static_assert(f16_nt_scalar.element == Element::F16 && !f16_nt_scalar.a_k_major && !f16_nt_scalar.b_k_major &&
              f16_nt_scalar.vector == 1 && f16_nt_scalar.splits);
static_assert(simt_tt.element == Element::F32 && simt_tt.a_k_major && !simt_tt.b_k_major && simt_tt.vector == 1 &&
              simt_tt.bm == 128 && simt_tt.bn == 128 && simt_tt.bk == 8 && !simt_tt.splits);

// Fake, aligned device addresses (nothing is dereferenced).
const void* at(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }

// A valid problem of `element` with A row-major (M, K), B column-major (K, N), D row-major.
GemmArguments tn(Element e, std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmArguments g;
  g.m = m, g.n = n, g.k = k;
  g.element = e;
  g.a = {at(0x100000), Major::Row, k, 0};
  g.b = {at(0x200000), Major::Col, k, 0};
  g.c = {nullptr, Major::Row, n, 0};
  g.d = const_cast<void*>(at(0x300000));
  g.ldd = n;
  return g;
}

struct Case {
  const char* what;
  GemmArguments args;
  KernelContract kernel;
  GemmStatus status;
  const char* says;  // part of the message
};
}  // namespace

TEST_CASE("GemmAdapter::can_implement: the kernel's contract, refusals with the reason", "[kernels]") {
  auto with = [](GemmArguments g, auto f) {
    f(g);
    return g;
  };
  const Case cases[] = {
      {"bf16 TN, aligned", tn(Element::BF16, 4096, 4096, 4096), bf16_tn, GemmStatus::Success, ""},
      {"f16 NT, odd sizes, element copies", with(tn(Element::F16, 1001, 999, 37), [](auto& g) {
         g.a.major = Major::Col, g.a.ld = 1001, g.b.major = Major::Row, g.b.ld = 999;
       }), f16_nt_scalar, GemmStatus::Success, ""},
      {"f32 on the SIMT kernel", with(tn(Element::F32, 300, 200, 100), [](auto& g) { g.b.major = Major::Row, g.b.ld = 200; }),
       simt_tt, GemmStatus::Success, ""},
      {"element type", tn(Element::F16, 256, 256, 64), bf16_tn, GemmStatus::Unsupported, "takes bf16 inputs, not f16"},
      {"f32 on a tensor-op kernel", tn(Element::F32, 256, 256, 64), bf16_tn, GemmStatus::Unsupported, "takes bf16 inputs, not f32"},
      {"A's major", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.a.major = Major::Col, g.a.ld = 256; }), bf16_tn,
       GemmStatus::Unsupported, "reads A K-major (row-major); A is column-major"},
      {"B's major", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.b.major = Major::Row, g.b.ld = 256; }), bf16_tn,
       GemmStatus::Unsupported, "reads B K-major (column-major); B is row-major"},
      {"SIMT B's major", tn(Element::F32, 256, 256, 64), simt_tt, GemmStatus::Unsupported, "reads B N-major (row-major)"},
      {"A not 16-byte aligned", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.a.ptr = at(0x100008); }), bf16_tn,
       GemmStatus::Misaligned, "A is not 16-byte aligned"},
      {"ldb not a multiple of 8", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.b.ld = 68; }), bf16_tn,
       GemmStatus::Misaligned, "ldB = 68 is not a multiple of 8"},
      {"K straddles vectors", with(tn(Element::BF16, 256, 256, 60), [](auto& g) { g.a.ld = g.b.ld = 64; }), bf16_tn,
       GemmStatus::Misaligned,
       "K = 60, the contiguous extent of A, is not a multiple of 8"},
      {"batch stride", with(tn(Element::BF16, 256, 256, 64), [](auto& g) {
         g.batch = 2, g.a.batch_stride = 256 * 64 + 4, g.b.batch_stride = 256 * 64, g.batch_stride_d = 256 * 256;
       }), bf16_tn, GemmStatus::Misaligned, "batch_stride_A = 16388 is not a multiple of 8"},
      {"fused epilogue", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.epilogue.activation = Activation::ReLU; }), bf16_tn,
       GemmStatus::Unsupported, "runs no fused epilogue"},
      {"too many tiles for one grid", with(tn(Element::F16, std::int64_t(1) << 38, std::int64_t(1) << 20, 8), [](auto& g) {
         g.a.major = Major::Col, g.a.ld = std::int64_t(1) << 38, g.b.major = Major::Row, g.b.ld = std::int64_t(1) << 20;
       }), f16_nt_scalar, GemmStatus::InvalidSize, "too many output tiles for one grid"},
      {"invalid arguments first", tn(Element::BF16, 0, 256, 64), bf16_tn, GemmStatus::InvalidSize, "sizes must be positive"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const GemmResult r = device::can_implement_kernel(c.args, c.kernel);
    CHECK(r.status == c.status);
    CHECK(r.message.find(c.says) != std::string::npos);
    if (c.status != GemmStatus::Success) CHECK(!r.message.empty());
  }
}

// On valid 16-bit arguments, a 16-byte-copy kernel of the right majors accepts exactly what
// select_kernel sends to TensorOpVec8; an element-copy kernel accepts all of them.
TEST_CASE("GemmAdapter::can_implement agrees with select_kernel on vector alignment", "[kernels]") {
  rc::prop("vec8 accepted iff select_kernel picks TensorOpVec8", [] {
    const auto pick = [](std::int64_t base) { return *rc::gen::element(base, base + 1, base + 7, base + 8, base + 64); };
    GemmArguments g = tn(Element::BF16, pick(64), pick(64), pick(64));
    g.a.ld = g.k + *rc::gen::element<std::int64_t>(0, 1, 8, 13);
    g.b.ld = g.k + *rc::gen::element<std::int64_t>(0, 3, 16);
    g.a.ptr = at(0x100000 + 2 * *rc::gen::element<std::uintptr_t>(0, 1, 4, 8));
    g.b.ptr = at(0x9000000 + 2 * *rc::gen::element<std::uintptr_t>(0, 2, 8));
    RC_PRE(bool(check_arguments(g)));
    const bool vec = select_kernel(g) == GemmKernel::TensorOpVec8;
    RC_ASSERT(bool(device::can_implement_kernel(g, bf16_tn)) == vec);
    KernelContract scalar = bf16_tn;
    scalar.vector = 1;
    RC_ASSERT(bool(device::can_implement_kernel(g, scalar)));
  });
}

// The workspace the adapter asks for is the split plan's, from the plan's definition: the tail
// wave's tiles (tiles mod slots) cut into s = min(slots / tail, 8, k_tiles / 4) slices when
// s >= 2, each slice an f32 tile of partials, plus a counter per split tile.
TEST_CASE("GemmAdapter::get_workspace_size is the split plan's partials and counters", "[kernels]") {
  rc::prop("workspace of random problems and GPUs", [] {
    const std::int64_t m = *rc::gen::inRange<std::int64_t>(1, 9000), n = *rc::gen::inRange<std::int64_t>(1, 12000);
    const std::int64_t k = 8 * *rc::gen::inRange<std::int64_t>(1, 2000);
    const int slots = *rc::gen::inRange(1, 300);
    GemmArguments g = tn(Element::BF16, m, n, k);
    const std::int64_t tiles = ((m + 127) / 128) * ((n + 255) / 256), k_tiles = (k + 31) / 32;
    const std::int64_t tail = tiles % slots;
    std::int64_t s = tail == 0 ? 1 : slots / tail;
    s = std::min({s, std::int64_t(8), k_tiles / 4});
    const std::size_t expect = s >= 2 ? std::size_t(tail * s * 128 * 256 * 4 + tail * 4) : 0;
    RC_ASSERT(device::split_workspace_size(g, bf16_tn, slots) == expect);
    const SplitPlan plan = device::split_plan_for(g, bf16_tn, slots);
    RC_ASSERT(plan.split == (s >= 2 ? int(s) : 1));
    RC_ASSERT(plan.whole == (s >= 2 ? tiles - tail : tiles));
    // No split for batched problems, for kernels that do not split, on an unknown GPU.
    g.batch = 2, g.a.batch_stride = m * k, g.b.batch_stride = n * k, g.batch_stride_d = m * n;
    RC_ASSERT(device::split_workspace_size(g, bf16_tn, slots) == 0u);
    RC_ASSERT(device::split_workspace_size(tn(Element::F32, m, n, k), simt_tt, slots) == 0u);
    RC_ASSERT(device::split_workspace_size(tn(Element::BF16, m, n, k), bf16_tn, 0) == 0u);
  });
  // 4096x11008x4096 on a 132-SM H100, one CTA per SM: 1376 tiles, a 56-tile tail cut in 2.
  CHECK(device::split_workspace_size(tn(Element::BF16, 4096, 11008, 4096), bf16_tn, 132) == 56u * 2 * 128 * 256 * 4 + 56 * 4);
  CHECK(device::split_workspace_size(tn(Element::BF16, 8192, 8192, 8192), bf16_tn, 132) == 0u);  // 68 of 132 does not halve
}

TEST_CASE("the Problem of a launch", "[kernels]") {
  GemmArguments g = tn(Element::BF16, 300, 200, 64);
  g.beta = 0.5f;
  g.c = {at(0x400000), Major::Row, 200, 0};
  alignas(16) static float ws[4];
  g.workspace = ws, g.workspace_bytes = sizeof ws;
  const Problem p = device::to_problem(g);
  CHECK((p.m == 300 && p.n == 200 && p.k == 64 && p.batch == 1));
  CHECK((p.a.row && !p.b.row && p.d.row && p.c.ptr == g.c.ptr && p.d.ptr == g.d));
  CHECK((p.a.ld == 64 && p.b.ld == 64 && p.d.ld == 200));
  CHECK(p.d_vector_ok);  // 16-byte aligned C/D, ld 200 and N 200 multiples of 8
  CHECK((p.partials == ws && p.workspace_bytes == sizeof ws));
  CHECK(p.split_k.split == 1);  // the plan is initialize's
  g.ldd = 204;
  CHECK(!device::to_problem(g).d_vector_ok);
  g.beta = 0.0f;
  CHECK(device::to_problem(g).c.ptr == nullptr);  // C is not read when beta = 0
}
