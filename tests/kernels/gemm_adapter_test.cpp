// The SIMT and SM80 kernels' contracts and their device adapter's host logic
// (kernels/collective/sm80_contract.hpp, kernels/kernel/sm80_kernel_contract.hpp,
// kernels/device/gemm_adapter.hpp), without a GPU: on generated arguments each kernel admits
// exactly what a model of its copies, epilogue and grid allows and refuses the rest with a reason
// naming the offending field; the kernel's contract is its collectives' composed; the adapter's
// answers are the kernel contract's; the split-K workspace against the plan's definition.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "device/gemm_adapter.hpp"

using namespace tessera;
using namespace tessera::kernels;

namespace {
// The library's kernels' contracts, as the builders make the kernels (device/launch.cuh).
template <class B, class ElementD, int AlignD, class Scheduler>
using ContractOfBuild =
    gemm_kernel_contract_t<GemmProblemShape, typename B::CollectiveOp, typename CollectiveEpilogueBuilder<B, ElementD, AlignD>::CollectiveOp,
                           Scheduler>;
using BF16TN = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                                 tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using F16NTScalar = CollectiveBuilder<arch::Sm80, OpClassTensorOp, half_t, MNMajor, 1, half_t, MNMajor, 1, float,
                                      tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
using SimtTT = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, MNMajor, 1, float, tuple<_128, _128, _8>,
                                 tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
using BF16TNKernel = ContractOfBuild<BF16TN, bfloat16_t, 8, SplitKRasterization<8>>;
using F16NTScalarKernel = ContractOfBuild<F16NTScalar, half_t, 1, SplitKRasterization<8>>;
using SimtTTKernel = ContractOfBuild<SimtTT, float, 1, GroupedRasterization<8>>;

static_assert(BF16TNKernel::Splits && F16NTScalarKernel::Splits && !SimtTTKernel::Splits);

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

bool same(const GemmResult& x, const GemmResult& y) { return x.status == y.status && x.message == y.message; }
bool same(const MatrixArg& x, const MatrixArg& y) {
  return x.ptr == y.ptr && x.ld == y.ld && x.batch_stride == y.batch_stride && x.row == y.row;
}
bool same(const Problem& x, const Problem& y) {
  return x.m == y.m && x.n == y.n && x.k == y.k && x.batch == y.batch && same(x.a, y.a) && same(x.b, y.b) && same(x.c, y.c) &&
         same(x.d, y.d) && x.alpha == y.alpha && x.beta == y.beta && x.d_vector_ok == y.d_vector_ok && x.trace == y.trace &&
         x.split_k.whole == y.split_k.whole && x.split_k.split == y.split_k.split && x.partials == y.partials &&
         x.arrivals == y.arrivals;
}

// ---- a model of what a kernel takes, written from its definition (not from its code): the
// input element and majors it was built for; with `vector`-element copies, every vector of A
// and B inside its operand and aligned (pointer, ld, contiguous extent, batch stride with
// L > 1); D in the inputs' type without bias or activation; the tiles of a batch within
// gridDim.x. The first broken rule, in that order, and the field its reason names.
struct KernelModel {
  Element element;
  bool a_k, b_k;
  int vector, bm, bn;
};
struct Verdict {
  GemmStatus status = GemmStatus::Success;
  std::string field;  // what the reason must name
};
Verdict model_verdict(const GemmArguments& g, const KernelModel& k) {
  if (g.element != k.element) return {GemmStatus::Unsupported, "element = " + std::string(to_string(g.element))};
  if ((g.a.major == Major::Row) != k.a_k) return {GemmStatus::Unsupported, "A.major"};
  if ((g.b.major == Major::Col) != k.b_k) return {GemmStatus::Unsupported, "B.major"};
  if (k.vector > 1) {
    const std::int64_t v = k.vector, bytes = 16;
    struct Op {
      const char* name;
      const Operand& o;
      std::int64_t contiguous;
      const char* extent;
    };
    const Op ops[] = {{"A", g.a, g.a.major == Major::Row ? g.k : g.m, g.a.major == Major::Row ? "K" : "M"},
                      {"B", g.b, g.b.major == Major::Row ? g.n : g.k, g.b.major == Major::Row ? "N" : "K"}};
    for (const Op& op : ops) {
      if (reinterpret_cast<std::uintptr_t>(op.o.ptr) % bytes != 0) return {GemmStatus::Misaligned, std::string(op.name) + " = "};
      if (op.o.ld % v != 0) return {GemmStatus::Misaligned, "ld" + std::string(op.name) + " = " + std::to_string(op.o.ld)};
      if (op.contiguous % v != 0)
        return {GemmStatus::Misaligned, std::string(op.extent) + " = " + std::to_string(op.contiguous) + ", the contiguous extent of " + op.name};
      if (g.batch > 1 && op.o.batch_stride % v != 0)
        return {GemmStatus::Misaligned, "batch_stride_" + std::string(op.name) + " = " + std::to_string(op.o.batch_stride)};
    }
  }
  if (is_fused(g)) return {GemmStatus::Unsupported, "epilogue:"};
  const std::int64_t tiles_m = (g.m + k.bm - 1) / k.bm, tiles_n = (g.n + k.bn - 1) / k.bn;
  if (tiles_n > 0 && tiles_m > 0x7fffffffLL / tiles_n) return {GemmStatus::InvalidSize, "M = " + std::to_string(g.m)};
  return {};
}
constexpr KernelModel bf16_tn{Element::BF16, true, true, 8, 128, 256};
constexpr KernelModel f16_nt_scalar{Element::F16, false, false, 1, 128, 256};
constexpr KernelModel simt_tt{Element::F32, true, false, 1, 128, 128};

// Random valid arguments around a kernel's rules: sizes with residues and 1, every major, the
// inputs' element type mostly the kernel's, pointers and leading dimensions aligned or off by a
// few elements, batches with strides aligned or not, sometimes C, a workspace, a fused epilogue.
GemmArguments generated(Element kernel_element) {
  GemmArguments g;
  auto extent = [] {
    return *rc::gen::oneOf(rc::gen::element<std::int64_t>(1, 7, 8, 9, 16, 60, 64, 128, 129, 255, 256, 1000),
                           rc::gen::inRange<std::int64_t>(1, 3000));
  };
  g.m = extent(), g.n = extent(), g.k = extent();
  g.batch = *rc::gen::element<std::int64_t>(1, 1, 1, 2, 3);
  g.element = *rc::gen::weightedElement<Element>({{6, kernel_element}, {1, Element::F32}, {1, Element::F16}, {1, Element::BF16}});
  const int bytes = element_bytes(g.element);
  auto major = [] { return *rc::gen::element(Major::Row, Major::Col); };
  auto pad = [] { return *rc::gen::element<std::int64_t>(0, 0, 0, 1, 3, 8, 16); };
  // A pointer: 256-byte aligned, or off by a few elements (never below the element's alignment).
  auto pointer = [&](std::uintptr_t base) { return at(base + std::uintptr_t(bytes) * *rc::gen::element<std::uintptr_t>(0, 0, 0, 1, 2, 4, 8)); };
  auto operand = [&](std::uintptr_t base, std::int64_t rows, std::int64_t cols) {
    Operand o;
    o.major = major();
    o.ld = (o.major == Major::Row ? cols : rows) + pad();
    o.ptr = pointer(base);
    o.batch_stride = (o.major == Major::Row ? rows : cols) * o.ld + pad();
    return o;
  };
  g.a = operand(0x10000000, g.m, g.k);
  g.b = operand(0x40000000, g.k, g.n);
  const Operand d = operand(0x80000000, g.m, g.n);
  g.d = const_cast<void*>(d.ptr);
  g.ldd = d.ld;
  g.batch_stride_d = d.batch_stride;
  g.c = {nullptr, d.major, d.ld, 0};
  if (*rc::gen::element(false, true)) {
    g.beta = 0.5f;
    g.c = {pointer(0xC0000000), d.major, d.ld + *rc::gen::element<std::int64_t>(0, 0, 1), d.batch_stride};
  }
  if (*rc::gen::weightedElement<int>({{5, 0}, {1, 1}, {1, 2}}) == 1) g.epilogue.activation = Activation::ReLU;
  else if (*rc::gen::weightedElement<int>({{8, 0}, {1, 1}}) == 1) g.epilogue.output = Element::F32;
  if (*rc::gen::element(false, true)) {
    g.workspace = const_cast<void*>(at(0xF0000000));
    g.workspace_bytes = *rc::gen::element<std::size_t>(16, std::size_t(1) << 20, std::size_t(1) << 30);
  }
  return g;
}

// The property every kernel keeps on generated arguments (those check_arguments passes): its
// contract's verdict is the model's, the reason names the field; the kernel's contract is the
// composition of its collectives'; the adapter answers as the kernel's contract.
template <class Kernel>
void check_contract(const GemmArguments& g, const KernelModel& model, int slots) {
  using M = typename Kernel::MainloopContract;
  using E = typename Kernel::EpilogueContract;
  RC_PRE(bool(check_arguments(g)));
  const auto args = Kernel::arguments_of(g);
  const GemmResult r = Kernel::can_implement(args);
  const Verdict want = model_verdict(g, model);

  RC_ASSERT(r.status == want.status);
  if (!r) {
    RC_ASSERT(r.message.find(want.field) != std::string::npos);
  } else {
    RC_ASSERT(r.message.empty());
  }

  // The composition: the mainloop's refusal, else the epilogue's, else the grid's.
  const GemmResult rm = M::can_implement(args.problem, args.mainloop), re = E::can_implement(args.problem, args.epilogue);
  if (!rm) RC_ASSERT(same(r, rm));
  else if (!re) RC_ASSERT(same(r, re));
  else RC_ASSERT((r || (r.status == GemmStatus::InvalidSize && r.message.find("too many output tiles") != std::string::npos)));

  // The adapter asks the shared checks, then the kernel's contract, nothing else.
  RC_ASSERT(same(device::adapter_can_implement<Kernel>(g), r));
  const Sm80HardwareInfo hw{slots};
  if (!r) {
    RC_ASSERT(device::adapter_workspace_size<Kernel>(g, hw) == 0u);
    return;
  }
  const std::size_t ws = Kernel::get_workspace_size(args, hw);
  RC_ASSERT(device::adapter_workspace_size<Kernel>(g, hw) == ws);
  // The collectives need none; the kernel's is its split plan's.
  RC_ASSERT(M::get_workspace_size(args.problem, args.mainloop) == 0u);
  RC_ASSERT(E::get_workspace_size(args.problem, args.epilogue) == 0u);
  RC_ASSERT(ws == Kernel::split_bytes(args.problem, hw));
  if (!Kernel::Splits || g.batch > 1 || slots == 0) RC_ASSERT(ws == 0u);

  // The Params: the collectives' parts of the Problem, computed on the host.
  GemmResult status;
  const std::size_t bytes = g.workspace != nullptr ? g.workspace_bytes : 0;
  const Problem p = Kernel::to_underlying_arguments(args, g.workspace, bytes, hw, status);
  RC_ASSERT(bool(status));
  GemmResult ignored;
  const auto ml = M::to_underlying_arguments(args.problem, args.mainloop, g.workspace, ignored);
  const auto ep = E::to_underlying_arguments(args.problem, args.epilogue, g.workspace, ignored);
  RC_ASSERT((p.m == g.m && p.n == g.n && p.k == g.k && p.batch == g.batch && p.trace == nullptr));
  RC_ASSERT((same(p.a, ml.a) && same(p.b, ml.b) && same(p.c, ep.c) && same(p.d, ep.d)));
  RC_ASSERT((p.alpha == ep.alpha && p.beta == ep.beta && p.d_vector_ok == ep.d_vector_ok));
  // ... which read the arguments: the operands as given, C only where beta != 0, and the
  // vector stores exactly where D (and a read C) start, step and end on whole 16 bytes.
  RC_ASSERT((p.a.ptr == g.a.ptr && p.a.ld == g.a.ld && p.a.batch_stride == g.a.batch_stride && p.a.row == (g.a.major == Major::Row)));
  RC_ASSERT((p.b.ptr == g.b.ptr && p.b.ld == g.b.ld && p.b.batch_stride == g.b.batch_stride && p.b.row == (g.b.major == Major::Row)));
  RC_ASSERT((p.d.ptr == g.d && p.d.ld == g.ldd && p.d.batch_stride == g.batch_stride_d && p.d.row == (g.c.major == Major::Row)));
  RC_ASSERT((p.c.ptr == (g.beta != 0.0f ? g.c.ptr : nullptr)));
  const std::int64_t v = 16 / element_bytes(g.element), contiguous = g.c.major == Major::Row ? g.n : g.m;
  auto vectors = [&](const void* ptr, std::int64_t ld, std::int64_t bs) {
    return reinterpret_cast<std::uintptr_t>(ptr) % 16 == 0 && ld % v == 0 && contiguous % v == 0 && (g.batch == 1 || bs % v == 0);
  };
  RC_ASSERT(p.d_vector_ok == (vectors(g.d, g.ldd, g.batch_stride_d) && (p.c.ptr == nullptr || vectors(g.c.ptr, g.c.ld, g.c.batch_stride))));
  // The split: planned exactly where the workspace holds the plan's partials and counters.
  const SplitPlan plan = Kernel::split_plan(args.problem, hw);
  const bool splits = ws != 0 && g.workspace != nullptr && bytes >= ws;
  RC_ASSERT((p.arrivals != nullptr) == splits);

  const std::int64_t tiles = Kernel::tile_count(args.problem);
  if (splits) {
    RC_ASSERT((p.split_k.whole == plan.whole && p.split_k.split == plan.split && plan.split >= 2));
    RC_ASSERT((p.partials == g.workspace));
    const std::size_t counters = std::size_t(tiles - plan.whole) * sizeof(unsigned);
    RC_ASSERT(Kernel::counters_bytes(p) == counters);
    RC_ASSERT((reinterpret_cast<const unsigned char*>(p.arrivals) + counters == static_cast<const unsigned char*>(g.workspace) + ws));
    RC_ASSERT(Kernel::grid_size(p) == plan.whole + (tiles - plan.whole) * plan.split);
  } else {
    RC_ASSERT((p.split_k.split == 1 && p.partials == nullptr && Kernel::counters_bytes(p) == 0u));
    RC_ASSERT(Kernel::grid_size(p) == tiles);
  }
  device::AdapterLaunch launch;
  RC_ASSERT(bool(device::adapter_initialize_admitted<Kernel>(g, hw, launch)));
  RC_ASSERT((same(launch.params, p) && launch.ctas == Kernel::grid_size(p)));
}

struct Case {
  const char* what;
  GemmArguments args;
  GemmStatus status;
  const char* says;  // part of the message
};
template <class Kernel>
void check_cases(std::initializer_list<Case> cases) {
  for (const auto& c : cases) {
    INFO(c.what);
    const GemmResult r = device::adapter_can_implement<Kernel>(c.args);
    CHECK(r.status == c.status);
    INFO(r.message);
    CHECK(r.message.find(c.says) != std::string::npos);
    if (c.status != GemmStatus::Success) CHECK(!r.message.empty());
  }
}
}  // namespace

TEST_CASE("a kernel's contract: refusals with the reason naming the field", "[kernels]") {
  auto with = [](GemmArguments g, auto f) {
    f(g);
    return g;
  };
  check_cases<BF16TNKernel>({
      {"bf16 TN, aligned", tn(Element::BF16, 4096, 4096, 4096), GemmStatus::Success, ""},
      {"sizes of 1 (element copies are not needed: 8 | K)", tn(Element::BF16, 1, 1, 8), GemmStatus::Success, ""},
      {"element type", tn(Element::F16, 256, 256, 64), GemmStatus::Unsupported, "element = f16: this kernel takes bf16 inputs, not f16"},
      {"f32 on a tensor-op kernel", tn(Element::F32, 256, 256, 64), GemmStatus::Unsupported, "takes bf16 inputs, not f32"},
      {"A's major", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.a.major = Major::Col, g.a.ld = 256; }),
       GemmStatus::Unsupported, "A.major: this kernel reads A K-major (row-major); A is column-major"},
      {"B's major", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.b.major = Major::Row, g.b.ld = 256; }),
       GemmStatus::Unsupported, "B.major: this kernel reads B K-major (column-major); B is row-major"},
      {"A not 16-byte aligned", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.a.ptr = at(0x100008); }),
       GemmStatus::Misaligned, "A = 1048584 is not 16-byte aligned"},
      {"B not 16-byte aligned", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.b.ptr = at(0x200002); }),
       GemmStatus::Misaligned, "B = 2097154 is not 16-byte aligned"},
      {"ldb not a multiple of 8", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.b.ld = 68; }),
       GemmStatus::Misaligned, "ldB = 68 is not a multiple of 8"},
      {"K straddles vectors", with(tn(Element::BF16, 256, 256, 60), [](auto& g) { g.a.ld = g.b.ld = 64; }),
       GemmStatus::Misaligned, "K = 60, the contiguous extent of A, is not a multiple of 8"},
      {"batch stride", with(tn(Element::BF16, 256, 256, 64), [](auto& g) {
         g.batch = 2, g.a.batch_stride = 256 * 64 + 4, g.b.batch_stride = 256 * 64, g.batch_stride_d = 256 * 256;
       }), GemmStatus::Misaligned, "batch_stride_A = 16388 is not a multiple of 8"},
      {"an unaligned batch stride of one batch is never used", with(tn(Element::BF16, 256, 256, 64), [](auto& g) {
         g.a.batch_stride = 3;
       }), GemmStatus::Success, ""},
      {"fused epilogue", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.epilogue.activation = Activation::ReLU; }),
       GemmStatus::Unsupported, "epilogue: this kernel runs no fused epilogue (bias none, activation relu"},
      {"D in another type", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.epilogue.output = Element::F32; }),
       GemmStatus::Unsupported, "D in f32; it writes D in bf16"},
      {"invalid arguments first", tn(Element::BF16, 0, 256, 64), GemmStatus::InvalidSize, "sizes must be positive"},
  });
  check_cases<F16NTScalarKernel>({
      {"f16 NT, odd sizes, element copies", with(tn(Element::F16, 1001, 999, 37), [](auto& g) {
         g.a.major = Major::Col, g.a.ld = 1001, g.b.major = Major::Row, g.b.ld = 999, g.a.ptr = at(0x100002);
       }), GemmStatus::Success, ""},
      {"too many tiles for one grid", with(tn(Element::F16, std::int64_t(1) << 38, std::int64_t(1) << 20, 8), [](auto& g) {
         g.a.major = Major::Col, g.a.ld = std::int64_t(1) << 38, g.b.major = Major::Row, g.b.ld = std::int64_t(1) << 20;
       }), GemmStatus::InvalidSize, "M = 274877906944, N = 1048576: too many output tiles for one grid: ceil(M / 128) * ceil(N / 256)"},
  });
  check_cases<SimtTTKernel>({
      {"f32 on the SIMT kernel, any f32 address", with(tn(Element::F32, 300, 200, 100), [](auto& g) {
         g.b.major = Major::Row, g.b.ld = 201, g.a.ptr = at(0x100004), g.batch = 2, g.a.batch_stride = 300 * 100 + 1,
         g.b.batch_stride = 100 * 201 + 3, g.batch_stride_d = 300 * 200;
       }), GemmStatus::Success, ""},
      {"SIMT B's major", tn(Element::F32, 256, 256, 64), GemmStatus::Unsupported, "B.major: this kernel reads B N-major (row-major)"},
      {"bf16 on the SIMT kernel", with(tn(Element::BF16, 256, 256, 64), [](auto& g) { g.b.major = Major::Row, g.b.ld = 256; }),
       GemmStatus::Unsupported, "element = bf16: this kernel takes f32 inputs"},
  });
}

// Generated arguments, every major, sizes with residues and 1, misaligned pointers, leading
// dimensions and batch strides, C or not, workspaces of several sizes and GPUs of several
// widths: each library kernel (a 16-byte-copy, an element-copy and the SIMT kernel) admits
// exactly what its model allows; its contract is its collectives' composed; the adapter's
// answers (verdict, workspace, Params, grid) are the kernel contract's.
TEST_CASE("a kernel's contract on generated arguments: the model's verdict, its collectives' composition, the adapter's answer",
          "[kernels]") {
  const auto slots = [] { return *rc::gen::element(0, 1, 132, 264); };
  rc::prop("bf16 TN, 16-byte copies, split-K", [&] {
    GemmArguments g = generated(Element::BF16);
    // (as often as not the kernel's majors, so that the alignment rules are reached)
    if (*rc::gen::element(false, true)) {
      // (and K, the leading dimensions, pointers and batch strides mostly whole vectors)
      if (*rc::gen::weightedElement<int>({{3, 1}, {1, 0}}) == 1) g.k = (g.k + 7) / 8 * 8;
      auto off = [](std::int64_t bad) { return *rc::gen::element<std::int64_t>(0, 0, 0, 8, bad); };
      g.a.major = Major::Row, g.a.ld = g.k + off(3);
      g.b.major = Major::Col, g.b.ld = g.k + off(5);
      g.a.ptr = at(0x10000000 + 2 * std::uintptr_t(off(1)));
      g.b.ptr = at(0x40000000 + 2 * std::uintptr_t(off(4)));
      g.a.batch_stride = g.m * g.a.ld + off(2);
      g.b.batch_stride = g.n * g.b.ld + off(6);
    }
    check_contract<BF16TNKernel>(g, bf16_tn, slots());
  });
  rc::prop("f16 NT, element copies, split-K", [&] {
    GemmArguments g = generated(Element::F16);
    if (*rc::gen::element(false, true)) {
      g.a.major = Major::Col, g.a.ld = g.m + *rc::gen::element<std::int64_t>(0, 1);
      g.b.major = Major::Row, g.b.ld = g.n + *rc::gen::element<std::int64_t>(0, 1);
      g.a.batch_stride = g.k * g.a.ld, g.b.batch_stride = g.k * g.b.ld;
    }
    check_contract<F16NTScalarKernel>(g, f16_nt_scalar, slots());
  });
  rc::prop("SIMT f32 TT, whole tiles", [&] {
    GemmArguments g = generated(Element::F32);
    if (*rc::gen::element(false, true)) {
      g.a.major = Major::Row, g.a.ld = g.k + *rc::gen::element<std::int64_t>(0, 1);
      g.b.major = Major::Row, g.b.ld = g.n + *rc::gen::element<std::int64_t>(0, 1);
      g.a.batch_stride = g.m * g.a.ld, g.b.batch_stride = g.k * g.b.ld;
    }
    check_contract<SimtTTKernel>(g, simt_tt, slots());
  });
}

// On valid 16-bit arguments, the 16-byte-copy kernel of the right majors admits exactly what
// select_kernel sends to TensorOpVec8 (one rule, detail::check_vectors); an element-copy kernel
// admits all of them.
TEST_CASE("the 16-byte-copy kernel admits what select_kernel sends it", "[kernels]") {
  using BF16TNScalar = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 1, bfloat16_t, KMajor, 1, float,
                                         tuple<_128, _256, _32>, tuple<_1, _1, _1>, StageCountAuto, ScheduleAuto>;
  using ScalarKernel = ContractOfBuild<BF16TNScalar, bfloat16_t, 1, SplitKRasterization<8>>;
  rc::prop("vec8 admitted iff select_kernel picks TensorOpVec8", [] {
    const auto pick = [](std::int64_t base) { return *rc::gen::element(base, base + 1, base + 7, base + 8, base + 64); };
    GemmArguments g = tn(Element::BF16, pick(64), pick(64), pick(64));
    g.a.ld = g.k + *rc::gen::element<std::int64_t>(0, 1, 8, 13);
    g.b.ld = g.k + *rc::gen::element<std::int64_t>(0, 3, 16);
    g.a.ptr = at(0x100000 + 2 * *rc::gen::element<std::uintptr_t>(0, 1, 4, 8));
    g.b.ptr = at(0x9000000 + 2 * *rc::gen::element<std::uintptr_t>(0, 2, 8));
    RC_PRE(bool(check_arguments(g)));
    const bool vec = select_kernel(g) == GemmKernel::TensorOpVec8;
    RC_ASSERT(bool(device::adapter_can_implement<BF16TNKernel>(g)) == vec);
    RC_ASSERT(bool(device::adapter_can_implement<ScalarKernel>(g)));
  });
}

// The workspace the kernel asks for is the split plan's, from the plan's definition: the tail
// wave's tiles (tiles mod slots) cut into s = min(slots / tail, 8, k_tiles / 4) slices when
// s >= 2, each slice an f32 tile of partials, plus a counter per split tile.
TEST_CASE("a splitting kernel's workspace is the split plan's partials and counters", "[kernels]") {
  auto workspace = [](const GemmArguments& g, int slots) { return device::adapter_workspace_size<BF16TNKernel>(g, Sm80HardwareInfo{slots}); };
  rc::prop("workspace of random problems and GPUs", [&] {
    const std::int64_t m = *rc::gen::inRange<std::int64_t>(1, 9000), n = *rc::gen::inRange<std::int64_t>(1, 12000);
    const std::int64_t k = 8 * *rc::gen::inRange<std::int64_t>(1, 2000);
    const int slots = *rc::gen::inRange(1, 300);
    GemmArguments g = tn(Element::BF16, m, n, k);
    const std::int64_t tiles = ((m + 127) / 128) * ((n + 255) / 256), k_tiles = (k + 31) / 32;
    const std::int64_t tail = tiles % slots;
    std::int64_t s = tail == 0 ? 1 : slots / tail;
    s = std::min({s, std::int64_t(8), k_tiles / 4});
    const std::size_t expect = s >= 2 ? std::size_t(tail * s * 128 * 256 * 4 + tail * 4) : 0;
    RC_ASSERT(workspace(g, slots) == expect);
    const SplitPlan plan = BF16TNKernel::split_plan(BF16TNKernel::arguments_of(g).problem, Sm80HardwareInfo{slots});
    RC_ASSERT(plan.split == (s >= 2 ? int(s) : 1));
    RC_ASSERT(plan.whole == (s >= 2 ? tiles - tail : tiles));
    // No split for batched problems, for kernels that do not split, on an unknown GPU.
    g.batch = 2, g.a.batch_stride = m * k, g.b.batch_stride = n * k, g.batch_stride_d = m * n;
    RC_ASSERT(workspace(g, slots) == 0u);
    GemmArguments f = tn(Element::F32, m, n, k);
    f.b.major = Major::Row, f.b.ld = n;
    RC_ASSERT(bool(device::adapter_can_implement<SimtTTKernel>(f)));
    RC_ASSERT(device::adapter_workspace_size<SimtTTKernel>(f, Sm80HardwareInfo{slots}) == 0u);
    RC_ASSERT(workspace(tn(Element::BF16, m, n, k), 0) == 0u);
  });
  // 4096x11008x4096 on a 132-SM H100, one CTA per SM: 1376 tiles, a 56-tile tail cut in 2.
  CHECK(workspace(tn(Element::BF16, 4096, 11008, 4096), 132) == 56u * 2 * 128 * 256 * 4 + 56 * 4);
  CHECK(workspace(tn(Element::BF16, 8192, 8192, 8192), 132) == 0u);  // 68 of 132 does not halve
}

TEST_CASE("the Problem of a launch", "[kernels]") {
  GemmArguments g = tn(Element::BF16, 300, 200, 64);
  g.beta = 0.5f;
  g.c = {at(0x400000), Major::Row, 200, 0};
  alignas(16) static float ws[4];
  g.workspace = ws, g.workspace_bytes = sizeof ws;
  auto problem = [](const GemmArguments& x) {
    REQUIRE(device::adapter_can_implement<BF16TNKernel>(x));
    device::AdapterLaunch l;
    REQUIRE(device::adapter_initialize_admitted<BF16TNKernel>(x, Sm80HardwareInfo{132}, l));
    return l;
  };
  const device::AdapterLaunch l = problem(g);
  const Problem& p = l.params;
  CHECK((p.m == 300 && p.n == 200 && p.k == 64 && p.batch == 1));
  CHECK((p.a.row && !p.b.row && p.d.row && p.c.ptr == g.c.ptr && p.d.ptr == g.d));
  CHECK((p.a.ld == 64 && p.b.ld == 64 && p.d.ld == 200));
  CHECK(p.d_vector_ok);  // 16-byte aligned C/D, ld 200 and N 200 multiples of 8
  CHECK((p.split_k.split == 1 && p.partials == nullptr && l.ctas == 3));  // 16 bytes hold no split
  g.ldd = 204;
  CHECK(!problem(g).params.d_vector_ok);
  g.beta = 0.0f;
  CHECK(problem(g).params.c.ptr == nullptr);  // C is not read when beta = 0
}
