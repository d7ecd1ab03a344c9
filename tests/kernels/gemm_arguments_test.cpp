// Argument checks of the GEMM host API: no GPU needed.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>

#include "tessera/kernels/gemm_arguments.hpp"

using namespace tessera::kernels;

namespace {

alignas(16) unsigned char storage[4096];

// A valid TN problem: A row-major MxK, B column-major KxN, D column-major MxN.
GemmArguments valid(std::int64_t m = 64, std::int64_t n = 48, std::int64_t k = 32,
                    Element e = Element::BF16) {
  GemmArguments g;
  g.m = m; g.n = n; g.k = k;
  g.element = e;
  g.a = {storage, Major::Row, k, 0};
  g.b = {storage + 256, Major::Col, k, 0};
  g.c = {nullptr, Major::Col, m, 0};
  g.d = storage + 512;
  g.ldd = m;
  return g;
}

bool mentions(const GemmResult& r, const char* text) { return r.message.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("valid arguments pass and pick a kernel by element type and alignment") {
  auto g = valid();
  auto r = check_arguments(g);
  CHECK(r);
  CHECK(r.message.empty());
  CHECK(select_kernel(g) == GemmKernel::TensorOpVec8);
  g.element = Element::F32;
  CHECK(select_kernel(g) == GemmKernel::SimtF32);
  g = valid(64, 48, 30);  // K = 30: a K-major vector of 8 would straddle the edge
  CHECK(check_arguments(g));
  CHECK(select_kernel(g) == GemmKernel::TensorOpScalar);
  g = valid();
  g.a.ptr = storage + 2;  // element-aligned, not 16-byte aligned
  CHECK(check_arguments(g));
  CHECK(select_kernel(g) == GemmKernel::TensorOpScalar);
}

TEST_CASE("sizes must be positive") {
  for (auto field : {&GemmArguments::m, &GemmArguments::n, &GemmArguments::k, &GemmArguments::batch}) {
    for (std::int64_t bad : {0LL, -1LL, -1000LL}) {
      auto g = valid();
      g.*field = bad;
      auto r = check_arguments(g);
      CHECK(r.status == GemmStatus::InvalidSize);
      CHECK(mentions(r, std::to_string(bad).c_str()));
    }
  }
  auto g = valid();
  g.batch = 70000;
  CHECK(check_arguments(g).status == GemmStatus::InvalidSize);
}

TEST_CASE("K is bounded by the mainloops' 32-bit counters") {
  auto g = valid();
  g.k = (std::int64_t(1) << 31) - 63;
  g.a.ld = g.a.major == Major::Row ? g.k : g.a.ld;
  g.b.ld = g.b.major == Major::Col ? g.k : g.b.ld;
  const auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::InvalidSize);
  CHECK(mentions(r, std::to_string(g.k).c_str()));
  g.k = (std::int64_t(1) << 31) - 64;  // the largest K: passes the size check
  CHECK(check_arguments(g).status != GemmStatus::InvalidSize);
}

TEST_CASE("null pointers are named") {
  auto g = valid();
  g.a.ptr = nullptr;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "A"));
  g = valid();
  g.b.ptr = nullptr;
  CHECK(check_arguments(g).status == GemmStatus::NullPointer);
  g = valid();
  g.d = nullptr;
  CHECK(mentions(check_arguments(g), "D"));
  // C may be null only while beta == 0.
  g = valid();
  g.beta = 0.5f;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "beta"));
  g.c.ptr = storage + 1024;
  CHECK(check_arguments(g));
}

TEST_CASE("leading dimensions must cover the contiguous extent") {
  auto g = valid(64, 48, 32);
  g.a.ld = 31;  // row-major A: lda >= K
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::InvalidLeadingDim);
  CHECK(mentions(r, "ldA = 31"));
  CHECK(mentions(r, "K = 32"));
  g = valid(64, 48, 32);
  g.a.major = Major::Col;  // column-major A: lda >= M = 64
  g.a.ld = 32;
  CHECK(check_arguments(g).status == GemmStatus::InvalidLeadingDim);
  g.a.ld = 64;
  CHECK(check_arguments(g));
  g = valid();
  g.b.ld = 0;
  CHECK(check_arguments(g).status == GemmStatus::InvalidLeadingDim);
  g = valid();
  g.ldd = 63;
  CHECK(mentions(check_arguments(g), "ldD"));
}

TEST_CASE("pointers must be aligned to the element size") {
  auto g = valid();
  g.b.ptr = storage + 257;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "B"));
  g = valid(64, 48, 32, Element::F32);
  g.d = storage + 514;  // 2-byte aligned, f32 needs 4
  CHECK(check_arguments(g).status == GemmStatus::Misaligned);
}

TEST_CASE("batch strides: non-negative, output batches must not overlap, no overflow") {
  auto g = valid();
  g.batch = 4;
  g.a.batch_stride = 64 * 32;
  g.b.batch_stride = 0;  // broadcasting an input is fine
  g.batch_stride_d = 64 * 48;
  CHECK(check_arguments(g));
  g.a.batch_stride = -1;
  CHECK(check_arguments(g).status == GemmStatus::InvalidBatchStride);
  g.a.batch_stride = 64 * 32;
  g.batch_stride_d = 64 * 48 - 1;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::InvalidBatchStride);
  CHECK(mentions(r, "overlap"));
  g.batch_stride_d = INT64_MAX / 2;
  CHECK(check_arguments(g).status == GemmStatus::Overflow);
  g = valid();
  g.a.ld = INT64_MAX / 8;
  CHECK(check_arguments(g).status == GemmStatus::Overflow);
}

TEST_CASE("status names are distinct") {
  CHECK(std::string(to_string(GemmStatus::Success)) == "success");
  CHECK(std::string(to_string(GemmStatus::Misaligned)) != to_string(GemmStatus::Overflow));
}

// Property: check_arguments accepts exactly the argument sets that satisfy the documented rules.
TEST_CASE("check_arguments agrees with the rules on generated arguments") {
  rc::prop("accept iff sizes > 0, ld >= contiguous extent, output batches disjoint", [] {
    const auto m = *rc::gen::inRange<std::int64_t>(-2, 300);
    const auto n = *rc::gen::inRange<std::int64_t>(-2, 300);
    const auto k = *rc::gen::inRange<std::int64_t>(-2, 300);
    const auto l = *rc::gen::inRange<std::int64_t>(1, 5);
    const bool a_row = *rc::gen::arbitrary<bool>(), b_row = *rc::gen::arbitrary<bool>(),
               d_row = *rc::gen::arbitrary<bool>();
    const auto slack = [] { return *rc::gen::inRange<std::int64_t>(-3, 9); };
    GemmArguments g;
    g.m = m; g.n = n; g.k = k; g.batch = l;
    g.element = Element::F16;
    const std::int64_t ca = a_row ? k : m, cb = b_row ? n : k, cd = d_row ? n : m;
    g.a = {storage, a_row ? Major::Row : Major::Col, ca + slack(), 0};
    g.b = {storage + 16, b_row ? Major::Row : Major::Col, cb + slack(), 0};
    g.c = {nullptr, d_row ? Major::Row : Major::Col, 0, 0};
    g.d = storage + 32;
    g.ldd = cd + slack();
    const std::int64_t rows_d = d_row ? m : n;
    const std::int64_t span_d = (rows_d - 1) * g.ldd + cd;
    g.batch_stride_d = span_d + *rc::gen::inRange<std::int64_t>(-2, 3);
    const bool sizes_ok = m > 0 && n > 0 && k > 0;
    const bool ld_ok = g.a.ld >= ca && g.b.ld >= cb && g.ldd >= cd;
    const bool batch_ok = l == 1 || g.batch_stride_d >= span_d;
    const auto r = check_arguments(g);
    RC_ASSERT(bool(r) == (sizes_ok && ld_ok && batch_ok));
    RC_ASSERT(bool(r) == r.message.empty());
    if (!sizes_ok) RC_ASSERT(r.status == GemmStatus::InvalidSize);
    else if (!ld_ok) RC_ASSERT(r.status == GemmStatus::InvalidLeadingDim);
    else if (!batch_ok) RC_ASSERT(r.status == GemmStatus::InvalidBatchStride);
  });
}

TEST_CASE("the split-K workspace: a size needs a pointer, and the pointer 16-byte alignment") {
  GemmArguments g = valid();
  g.workspace_bytes = 1024;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "workspace"));
  g.workspace = storage + 8;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "16-byte"));
  g.workspace = storage + 1024;
  CHECK(check_arguments(g));
  g.workspace_bytes = 0;  // a pointer without bytes is allowed: nothing is split
  CHECK(check_arguments(g));
}

TEST_CASE("the fused epilogue: bias pointer and mode go together, enumerators are checked") {
  auto g = valid();
  CHECK(!is_fused(g));
  CHECK(output_element(g) == Element::BF16);
  g.epilogue.bias = Bias::PerRow;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "bias"));
  CHECK(mentions(r, "M elements"));
  g.epilogue.bias = Bias::PerColumn;
  CHECK(mentions(check_arguments(g), "N elements"));
  g.epilogue.bias_ptr = storage + 2048;
  CHECK(check_arguments(g));
  CHECK(is_fused(g));
  // A pointer without a mode is a mistake, not a silent no-op.
  g = valid();
  g.epilogue.bias_ptr = storage + 2048;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "Bias::PerRow"));
  g = valid();
  g.epilogue.activation = static_cast<Activation>(17);
  CHECK(mentions(check_arguments(g), "not an Activation"));
  g = valid();
  g.epilogue.bias = static_cast<Bias>(9);
  CHECK(mentions(check_arguments(g), "not a Bias"));
  g = valid();
  g.epilogue.output = static_cast<Element>(5);
  CHECK(mentions(check_arguments(g), "not an Element"));
  for (auto a : {Activation::ReLU, Activation::GELU, Activation::GELUTanh, Activation::SiLU}) {
    g = valid();
    g.epilogue.activation = a;
    CHECK(check_arguments(g));
    CHECK(is_fused(g));
  }
}

TEST_CASE("the output element type sets C's, D's and the bias's alignment, not A's or B's") {
  auto g = valid();  // bf16 inputs
  g.epilogue.output = Element::F32;
  CHECK(output_element(g) == Element::F32);
  CHECK(is_fused(g));
  CHECK(check_arguments(g));
  g.d = storage + 514;  // 2-byte aligned: enough for bf16, not for the f32 output
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "D"));
  CHECK(mentions(r, "f32"));
  g = valid();
  g.epilogue.output = Element::F32;
  g.beta = 1.0f;
  g.c.ptr = storage + 1026;
  CHECK(mentions(check_arguments(g), "C = "));
  g = valid();
  g.epilogue.output = Element::F32;
  g.epilogue.bias = Bias::PerRow;
  g.epilogue.bias_ptr = storage + 2050;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "bias"));
  g.epilogue.bias_ptr = storage + 2052;
  CHECK(check_arguments(g));
  // A, B stay bf16: 2-byte aligned A is fine with an f32 output.
  g.a.ptr = storage + 2;
  CHECK(check_arguments(g));
  // The same type as the inputs, said explicitly, is not a fusion.
  g = valid();
  g.epilogue.output = Element::BF16;
  CHECK(!is_fused(g));
  g.epilogue.output = Element::F16;
  CHECK(is_fused(g));
}

namespace {
// A valid FP8 problem: TN, 16-byte aligned, leading dimensions multiples of 16 bytes.
GemmArguments valid_fp8(Element a = Element::E4M3, Element b = Element::E4M3) {
  GemmArguments g = valid(64, 48, 32, a);
  if (b != a) g.element_b = b;
  return g;
}
}  // namespace

TEST_CASE("FP8 inputs: element sizes, names, the default D, fusion") {
  CHECK(element_bytes(Element::E4M3) == 1);
  CHECK(element_bytes(Element::E5M2) == 1);
  CHECK(std::string(to_string(Element::E4M3)) == "e4m3");
  CHECK(std::string(to_string(Element::E5M2)) == "e5m2");
  CHECK(is_fp8(Element::E4M3));
  CHECK(!is_fp8(Element::BF16));
  auto g = valid_fp8();
  CHECK(check_arguments(g));
  CHECK(output_element(g) == Element::BF16);  // torch._scaled_mm's default
  CHECK(element_b(g) == Element::E4M3);
  CHECK(is_fused(g));  // D is never the inputs' type: the sm90 kernel alone runs it
  g.epilogue.output = Element::F32;
  CHECK(output_element(g) == Element::F32);
  CHECK(check_arguments(g));
  g = valid_fp8(Element::E4M3, Element::E5M2);
  CHECK(element_b(g) == Element::E5M2);
  CHECK(check_arguments(g));
  g = valid_fp8(Element::E5M2, Element::E4M3);
  CHECK(check_arguments(g));
}

TEST_CASE("FP8 inputs: what is refused, with the reason") {
  // D in e5m2 (e4m3 is the one FP8 D: next test case)
  auto g = valid_fp8();
  g.epilogue.output = Element::E5M2;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "epilogue.output = e5m2"));
  // Mixed types other than two FP8 ones
  g = valid();
  g.element_b = Element::F16;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "A is bf16 and B (element_b) f16"));
  g = valid_fp8(Element::E4M3, Element::BF16);
  CHECK(mentions(check_arguments(g), "two FP8 types"));
  g = valid_fp8();
  g.element_b = static_cast<Element>(7);
  CHECK(mentions(check_arguments(g), "element_b = 7 is not an Element"));
  // Scales belong to FP8 inputs
  alignas(4) static float scale = 2.0f;
  g = valid();
  g.scale_a = &scale;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "fold a scale into alpha"));
  g = valid_fp8();
  g.scale_a = &scale;
  g.scale_b = &scale;
  CHECK(check_arguments(g));
  g.scale_b = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(&scale) + 2);
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "scale_b"));
  // K-major A and B only (TN)
  g = valid_fp8();
  g.a = {storage, Major::Col, 64, 0};
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "A (e4m3) is column-major"));
  CHECK(mentions(r, "K-major"));
  g = valid_fp8(Element::E4M3, Element::E5M2);
  g.b = {storage + 256, Major::Row, 48, 0};
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "B (e5m2) is row-major"));
  // 16-byte pointers, leading dimensions and batch strides (bytes = elements)
  g = valid_fp8();
  g.a.ptr = storage + 8;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "A = "));
  CHECK(mentions(r, "16-byte"));
  g = valid(64, 48, 40, Element::E4M3);  // K = 40: lda = 40 bytes
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "ldA = 40"));
  g = valid(64, 48, 40, Element::E4M3);
  g.a.ld = 48;
  g.b.ld = 40;
  CHECK(mentions(check_arguments(g), "ldB = 40"));
  g.b.ld = 48;
  CHECK(check_arguments(g));  // K = 40 itself is fine: TMA fills the residue with zeros
  g.batch = 2;
  g.a.batch_stride = 64 * 48 + 8;
  g.b.batch_stride = 48 * 48;
  g.batch_stride_d = 64 * 48;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "batch_stride_A"));
  g.a.batch_stride = 64 * 48;
  CHECK(check_arguments(g));
  // B's alignment is its own element's: a 1-byte B is fine at any address for element
  // alignment, but a 2-byte B (bf16 inputs) is not.
  g = valid();
  g.b.ptr = storage + 257;
  CHECK(mentions(check_arguments(g), "2-byte bf16"));
}

TEST_CASE("e4m3 D with scale_d and amax_d: what is admitted, what is refused, with the reason") {
  alignas(16) static float f32s[4] = {};
  auto g = valid_fp8();
  g.epilogue.output = Element::E4M3;
  CHECK(check_arguments(g));  // scale_d and amax_d are optional (1, none)
  CHECK(output_element(g) == Element::E4M3);
  CHECK(is_fused(g));
  g.scale_a = f32s;
  g.scale_b = f32s + 1;
  g.scale_d = f32s + 2;
  g.amax_d = f32s + 3;
  CHECK(check_arguments(g));
  // C in D's type (1 byte: any address), beta, batches, a row-major D
  g.beta = 0.5f;
  g.c = {storage + 3, Major::Row, 48, 0};
  g.d = storage + 1;
  g.ldd = 48;
  CHECK(check_arguments(g));
  g.c.major = Major::Col;
  g.c.ld = 64;
  g.ldd = 64;
  CHECK(check_arguments(g));
  // a misaligned scale_d or amax_d
  g = valid_fp8();
  g.epilogue.output = Element::E4M3;
  g.scale_d = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(f32s) + 2);
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "scale_d = "));
  g.scale_d = f32s;
  g.amax_d = reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(f32s) + 1);
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "amax_d = "));
  // amax_d must not be a scale the kernel reads after the library zeroes *amax_d
  g.amax_d = f32s;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "amax_d is scale_d"));
  g.scale_d = nullptr;
  g.scale_a = f32s;
  CHECK(mentions(check_arguments(g), "amax_d is scale_a"));
  g.scale_a = nullptr;
  CHECK(check_arguments(g));
  // e4m3 D needs FP8 inputs
  g = valid();  // bf16 inputs
  g.epilogue.output = Element::E4M3;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "epilogue.output = e4m3 needs FP8 inputs"));
  CHECK(mentions(r, "A is bf16"));
  g = valid(64, 48, 32, Element::F32);
  g.epilogue.output = Element::E4M3;
  CHECK(mentions(check_arguments(g), "A is f32"));
  // per-tensor scales only
  g = valid_fp8();
  g.epilogue.output = Element::E4M3;
  g.scale_mode = ScaleMode::Rowwise;
  g.scale_a = f32s;
  g.scale_b = f32s;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "per-tensor scales only (scale_mode = rowwise)"));
  g.scale_mode = ScaleMode::Block;
  CHECK(mentions(check_arguments(g), "scale_mode = block"));
  // no bias, no activation
  g = valid_fp8();
  g.epilogue.output = Element::E4M3;
  g.epilogue.bias = Bias::PerColumn;
  g.epilogue.bias_ptr = storage;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "no bias or activation"));
  g = valid_fp8();
  g.epilogue.output = Element::E4M3;
  g.epilogue.activation = Activation::ReLU;
  CHECK(mentions(check_arguments(g), "no bias or activation"));
  // scale_d and amax_d quantize an e4m3 D only: refused with bf16 / f32 D and with 16-bit inputs
  for (Element out : {Element::BF16, Element::F16, Element::F32}) {
    g = valid_fp8();
    g.epilogue.output = out;
    g.amax_d = f32s;
    r = check_arguments(g);
    CHECK(r.status == GemmStatus::Unsupported);
    CHECK(mentions(r, "scale_d/amax_d quantize an e4m3 D"));
    CHECK(mentions(r, (std::string("D here is ") + to_string(out)).c_str()));
    g.amax_d = nullptr;
    g.scale_d = f32s;
    CHECK(mentions(check_arguments(g), "scale_d/amax_d quantize an e4m3 D"));
  }
  g = valid_fp8();  // D unset: bf16
  g.scale_d = f32s;
  CHECK(mentions(check_arguments(g), "D here is bf16"));
  g = valid();
  g.amax_d = f32s;
  CHECK(check_arguments(g).status == GemmStatus::Unsupported);
}

TEST_CASE("FP8 scale modes: rowwise and block scales, what each needs, with the reason") {
  alignas(16) static float scales[64] = {};
  // Rowwise: both vectors, FP8 inputs, no block leading dimension.
  auto g = valid_fp8();
  g.scale_mode = ScaleMode::Rowwise;
  auto r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "scale_a is a null pointer while scale_mode = rowwise"));
  CHECK(mentions(r, "vector of M"));
  g.scale_a = scales;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "scale_b"));
  g.scale_b = scales + 1;  // 4-byte alignment is enough for vectors read by the epilogue
  CHECK(check_arguments(g));
  g.epilogue.output = Element::F32;  // any D type, any D major, batches: the epilogue applies them
  g.c.major = Major::Row;
  g.ldd = 48;
  CHECK(check_arguments(g));
  g.ld_scale_a = 64;
  CHECK(mentions(check_arguments(g), "ld_scale_a = 64 is set while scale_mode = rowwise"));
  g = valid();
  g.scale_mode = ScaleMode::Rowwise;
  g.scale_a = scales;
  g.scale_b = scales;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "dequantize FP8 inputs"));
  g = valid_fp8();
  g.scale_mode = static_cast<ScaleMode>(5);
  CHECK(mentions(check_arguments(g), "scale_mode = 5 is not a ScaleMode"));

  // Block: e4m3 x e4m3 to bf16, D row-major, one batch, scale_a 16-byte aligned with a
  // leading dimension >= M, a multiple of 4 (0: M rounded up to 4).
  auto block = [&] {
    GemmArguments b = valid_fp8();
    b.scale_mode = ScaleMode::Block;
    b.scale_a = scales;
    b.scale_b = scales + 32;
    b.c.major = Major::Row;
    b.ldd = 48;
    return b;
  };
  g = block();
  CHECK(check_arguments(g));
  CHECK(block_scale_ld(g) == 64);
  g.m = 62;
  g.ldd = 48;
  CHECK(block_scale_ld(g) == 64);  // M rounded up to 16 bytes of f32
  g = block();
  g.scale_b = nullptr;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::NullPointer);
  CHECK(mentions(r, "ceil(N/128) x ceil(K/128)"));
  g = block();
  g.c.major = Major::Col;
  g.ldd = 64;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Unsupported);
  CHECK(mentions(r, "row-major D"));
  g = block();
  g.element_b = Element::E5M2;
  CHECK(mentions(check_arguments(g), "e4m3 x e4m3 only"));
  g = block();
  g.epilogue.output = Element::F16;
  CHECK(mentions(check_arguments(g), "bf16 only"));
  g = block();
  g.batch = 2;
  g.a.batch_stride = 64 * 32;
  g.b.batch_stride = 48 * 32;
  g.batch_stride_d = 64 * 48;
  CHECK(mentions(check_arguments(g), "one batch"));
  g = block();
  g.ld_scale_a = 60;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::InvalidLeadingDim);
  CHECK(mentions(r, "ld_scale_a = 60 is smaller than M = 64"));
  g.ld_scale_a = 66;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "multiple of 4"));
  g = block();
  g.scale_a = scales + 1;
  r = check_arguments(g);
  CHECK(r.status == GemmStatus::Misaligned);
  CHECK(mentions(r, "16-byte aligned"));
  g = block();
  g.ld_scale_a = std::int64_t(1) << 62;
  g.k = 1024;
  g.a.ld = 1024;
  g.b.ld = 1024;
  CHECK(check_arguments(g).status == GemmStatus::Overflow);
}
