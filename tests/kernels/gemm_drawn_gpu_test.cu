// tessera::gemm on drawn problems: shapes, layouts, types and epilogues no hand-written case
// names, each element checked against an FP64 reference with an error bound of its own.
//
// gemm_gpu_test and hopper_sm90_gemm_gpu_test run fixed cases chosen for what they exercise and
// compare ||D - R|| / ||R||, which one wrong element of a large D can pass. Here every problem is
// drawn from a seed: M, N, K from small, near-tile-multiple and log-uniform extents; A and B of
// any major; D row- or column-major; leading dimensions padded, aligned or not; batches; alpha,
// beta, C aliasing D; a bias and an activation; 16-bit, f32, TF32 and FP8 inputs (per-tensor,
// rowwise and block scales, every input pair and D type, the pairs and layouts the library
// refuses included); through the rule, the rule with its workspace, or a configuration of the
// kernel list forced (sm90::built_configs). Every D element is compared with
//   |D - R| <= eps_out |R| + eps_acc S + eps_act |Z| + floor
// where R is the FP64 result of the values the kernel read, Z its pre-activation value, S the
// sum of the magnitudes of every term (|alpha scale a b| over k, |beta C|, |bias|): D's rounding,
// f32 accumulation in any order (K u S), the tensor cores' reduced-precision FP8 sums and TF32's
// input rounding, the activation's approximate transcendental. Outside the logical D, the
// padding and the gaps between batches hold a sentinel that must survive; inside, D starts as
// NaN (or as C, where C is D). A refusal must name its reason, leave D's bytes as they were, and
// be one the arguments call for (FP8 not TN, misaligned for TMA, a pair or D type the list does
// not build, a block-scaled D not row-major; a forced configuration that does not take the
// problem); any other refusal fails. With a workspace (Stream-K) the call runs twice: the same
// bits (the fix-up's order is the problem's, not the timing's).
//
// TESSERA_SEED=s replays a run (printed first); TESSERA_DRAWN=n draws n problems (default 400);
// TESSERA_DRAWN_SECONDS=t stops drawing after t seconds (default 200); TESSERA_DRAWN_MAX_WORK=w
// draws problems of at most w multiply-adds (M N K L; default 3e9). A failure prints the
// problem's index, its arguments and the first element off its bound; TESSERA_DRAWN_ONLY=i runs
// problem i of the seed alone; TESSERA_DRAWN_LIST=1 prints the problems a seed draws (no GPU
// needed). Exits 77 (ctest's skip) without a CUDA device.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tessera/kernels/gemm.hpp"
#include "tessera/kernels/gemm_grouped.hpp"
#include "device/sm90_dispatch.hpp"
#include "device/sm90_schedule.hpp"
#include "../../tools/harness/drawn.hpp"
#include "../../tools/harness/harness.cuh"

namespace tk = tessera::kernels;
using tk::Element;

namespace {

constexpr int kSkip = 77;
constexpr float kSentinel = 12288.0f;  // 3 * 2^12: exact in f16, bf16 and f32

// ---- storage by element type (the test's own: any D type at run time)
__device__ float load(const void* p, std::int64_t i, Element e) {
  switch (e) {
    case Element::F32: return static_cast<const float*>(p)[i];
    case Element::F16: return __half2float(static_cast<const __half*>(p)[i]);
    case Element::BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    case Element::E4M3: return tessera::float_e4m3_t::from_bits(static_cast<const std::uint8_t*>(p)[i]).to_float();
    case Element::E5M2: return tessera::float_e5m2_t::from_bits(static_cast<const std::uint8_t*>(p)[i]).to_float();
  }
  return 0;
}
__device__ void store(void* p, std::int64_t i, Element e, float v) {
  switch (e) {
    case Element::F32: static_cast<float*>(p)[i] = v; break;
    case Element::F16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case Element::BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    default: break;  // (no FP8 D is drawn)
  }
}

// Element (r, c) of batch l at l bs + (row-major ? r ld + c : r + c ld).
struct Mat {
  bool row = true;
  std::int64_t rows = 0, cols = 0, ld = 0, bs = 0, batches = 1;
  __host__ __device__ std::int64_t at(std::int64_t l, std::int64_t r, std::int64_t c) const {
    return l * bs + (row ? r * ld + c : r + c * ld);
  }
  std::int64_t storage() const {  // elements from the first to one past the last of the last batch
    return (batches - 1) * bs + (row ? (rows - 1) * ld + cols : (cols - 1) * ld + rows);
  }
  // Whether storage index i is an element of the logical matrix (else padding or a gap).
  __host__ __device__ bool inside(std::int64_t i, std::int64_t& l, std::int64_t& r, std::int64_t& c) const {
    l = bs > 0 ? i / bs : 0;
    const std::int64_t off = bs > 0 ? i % bs : i, outer = off / ld, inner = off % ld;
    r = row ? outer : inner;
    c = row ? inner : outer;
    return l < batches && r < rows && c < cols;
  }
};

__global__ void decode(const void* p, Element e, std::int64_t n, float* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = load(p, i, e);
}

// D before the call: the sentinel outside the logical matrix; inside NaN, or C's values where C
// is D (the caller filled the storage with them).
__global__ void prepare_d(void* d, Element e, Mat m, std::int64_t n, bool keep_inside) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int64_t l, r, c;
    if (!m.inside(i, l, r, c)) store(d, i, e, kSentinel);
    else if (!keep_inside) store(d, i, e, NAN);
  }
}

__device__ double activate(tk::Activation a, double x) {
  switch (a) {
    case tk::Activation::ReLU: return x > 0 ? x : 0;
    case tk::Activation::GELU: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    case tk::Activation::GELUTanh: return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    case tk::Activation::SiLU: return x / (1 + exp(-x));
    default: return x;
  }
}

// What the reference needs of a problem, on the device.
struct RefProblem {
  std::int64_t M, N, K, L;
  Mat a, b, c, d;          // b: K x N
  const float *A, *B, *C;  // decoded, in their storage layouts (C null where beta = 0)
  const float* bias;       // decoded (null: none)
  tk::Bias bias_mode;
  tk::Activation act;
  double alpha, beta;
  tk::ScaleMode mode;
  const float *sa, *sb;  // null: 1 (per-tensor); rowwise M / N; block as docs/gemm.md's table
  std::int64_t ld_sa, kb;
};

// R = act(Z), Z = alpha sum(scales a b) + beta c + bias; S = the sum of the terms' magnitudes.
__global__ void reference(RefProblem p, double* R, double* Z, double* S) {
  const std::int64_t idx = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (idx >= p.M * p.N * p.L) return;
  const std::int64_t m = idx % p.M, n = (idx / p.M) % p.N, l = idx / (p.M * p.N);
  double sum = 0, mag = 0;
  if (p.mode == tk::ScaleMode::Block) {
    for (std::int64_t g = 0; g < p.kb; ++g) {
      const double scale = double(p.sa[g * p.ld_sa + m]) * double(p.sb[(n / 128) * p.kb + g]);
      double part = 0, part_mag = 0;
      for (std::int64_t k = g * 128; k < p.K && k < (g + 1) * 128; ++k) {
        const double t = double(p.A[p.a.at(l, m, k)]) * double(p.B[p.b.at(l, k, n)]);
        part += t;
        part_mag += fabs(t);
      }
      sum += scale * part;
      mag += fabs(scale) * part_mag;
    }
  } else {
    for (std::int64_t k = 0; k < p.K; ++k) {
      const double t = double(p.A[p.a.at(l, m, k)]) * double(p.B[p.b.at(l, k, n)]);
      sum += t;
      mag += fabs(t);
    }
    double scale = 1;
    if (p.mode == tk::ScaleMode::Rowwise) scale = double(p.sa[m]) * double(p.sb[n]);
    else scale = (p.sa ? double(p.sa[0]) : 1.0) * (p.sb ? double(p.sb[0]) : 1.0);
    sum *= scale;
    mag *= fabs(scale);
  }
  double z = p.alpha * sum, s = fabs(p.alpha) * mag;
  if (p.beta != 0) {
    const double c = p.beta * double(p.C[p.c.at(l, m, n)]);
    z += c;
    s += fabs(c);
  }
  if (p.bias_mode != tk::Bias::None) {
    const double b = p.bias[p.bias_mode == tk::Bias::PerRow ? m : n];
    z += b;
    s += fabs(b);
  }
  R[idx] = activate(p.act, z);
  Z[idx] = z;
  S[idx] = s;
}

struct Bound {
  double out, acc, act, floor;
};
struct Verdict {  // what check() found
  unsigned long long off, nonfinite, clobbered, first;  // first: the lowest storage index off its bound
  float worst;                                          // max |D - R| / bound
};

// Element `got` at storage index i against its reference r (pre-activation z, terms' magnitude s).
__device__ void judge(float got, std::int64_t i, double r, double z, double s, Bound b, Verdict* v) {
  if (!isfinite(got)) {
    atomicAdd(&v->nonfinite, 1ull);
    atomicMin(&v->first, (unsigned long long)i);
    return;
  }
  const double bound = b.out * fabs(r) + b.acc * s + b.act * fabs(z) + b.floor;
  const double err = fabs(double(got) - r);
  atomicMax(reinterpret_cast<int*>(&v->worst), __float_as_int(float(err / bound)));  // (non-negative floats order as ints)
  if (err > bound) {
    atomicAdd(&v->off, 1ull);
    atomicMin(&v->first, (unsigned long long)i);
  }
}

__global__ void check(const void* D, Element e, Mat d, std::int64_t n, const double* R, const double* Z, const double* S, Bound b,
                      Verdict* v) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const float got = load(D, i, e);
    std::int64_t l, r, c;
    if (!d.inside(i, l, r, c)) {
      if (got != kSentinel) atomicAdd(&v->clobbered, 1ull);
      continue;
    }
    judge(got, i, R[(l * d.cols + c) * d.rows + r], Z[(l * d.cols + c) * d.rows + r], S[(l * d.cols + c) * d.rows + r], b, v);
  }
}

// ---- drawing problems
enum class Family { Half16, F32, Tf32, Fp8, Fp8Block };
const char* to_string(Family f) {
  switch (f) {
    case Family::Half16: return "16-bit";
    case Family::F32: return "f32";
    case Family::Tf32: return "tf32";
    case Family::Fp8: return "fp8";
    case Family::Fp8Block: return "fp8-block";
  }
  return "?";
}
enum class Path { Rule, RuleWorkspace, Forced };

struct Drawn {
  Family family = Family::Half16;
  Element ea = Element::BF16, eb = Element::BF16, out = Element::BF16;
  std::int64_t m = 1, n = 1, k = 1, l = 1;
  Mat a, b, c, d;  // b: K x N
  float alpha = 1, beta = 0;
  bool c_is_d = false;
  tk::Activation act = tk::Activation::Identity;
  tk::Bias bias = tk::Bias::None;
  tk::ScaleMode mode = tk::ScaleMode::PerTensor;
  bool scales = false;  // per-tensor: scale pointers given (else null: 1)
  std::int64_t ld_sa = 0;
  Path path = Path::Rule;
  std::string expect_refusal;  // why the arguments call for a refusal (empty: none)
};

using Rng = tk::harness::drawn::Rng;

// An extent in [1, hi]: small, next to a multiple of 64 (the tiles' edges: 64, 128, 192, 256),
// or log-uniform.
std::int64_t draw_extent(Rng& r, std::int64_t hi) {
  std::int64_t x;
  const double u = std::uniform_real_distribution<double>(0, 1)(r.g);
  if (u < 0.2) x = r.uniform(1, 24);
  else if (u < 0.55) x = 64 * r.uniform(1, std::max<std::int64_t>(1, hi / 64)) + r.pick<std::int64_t>({-1, 0, 0, 0, 1, -8, 8, 16, 33, -63});
  else x = std::int64_t(std::exp(std::uniform_real_distribution<double>(0, std::log(double(hi)))(r.g)));
  return std::clamp<std::int64_t>(x, 1, hi);
}

// A leading dimension for a contiguous extent: aligned to `align` elements (TMA's 16 bytes) and
// padded, or (where `odd`) unaligned.
std::int64_t draw_ld(Rng& r, std::int64_t extent, std::int64_t align, bool odd) {
  if (odd) return extent + r.pick<std::int64_t>({1, 3, 5});
  return (extent + align - 1) / align * align + align * r.pick<std::int64_t>({0, 0, 0, 1, 3});
}

Mat draw_mat(Rng& r, bool row, std::int64_t rows, std::int64_t cols, std::int64_t batches, std::int64_t align, bool odd) {
  Mat m;
  m.row = row;
  m.rows = rows;
  m.cols = cols;
  m.batches = batches;
  m.ld = draw_ld(r, row ? cols : rows, align, odd);
  const std::int64_t span = (row ? rows : cols) * m.ld;
  m.bs = span + (odd ? r.pick<std::int64_t>({0, 1, 7}) : align * r.pick<std::int64_t>({0, 0, 2}));
  return m;
}

// The most multiply-adds a problem may take (M N K L; the FP64 reference runs them all):
// TESSERA_DRAWN_MAX_WORK, e.g. small under compute-sanitizer.
double max_work() { return tk::harness::drawn::max_work(3.0e9); }

Drawn draw(Rng& r) {
  Drawn p;
  const double u = std::uniform_real_distribution<double>(0, 1)(r.g);
  p.family = u < 0.45 ? Family::Half16 : u < 0.52 ? Family::F32 : u < 0.58 ? Family::Tf32 : u < 0.85 ? Family::Fp8 : Family::Fp8Block;
  const bool small = p.family == Family::F32 || p.family == Family::Tf32;
  p.m = draw_extent(r, small ? 700 : 2600);
  p.n = draw_extent(r, small ? 700 : 2600);
  p.k = draw_extent(r, small ? 900 : 4200);
  while (double(p.m) * p.n * p.k > max_work()) {
    if (p.k > 1) p.k = std::max<std::int64_t>(1, p.k / 2);
    else if (p.m >= p.n) p.m = std::max<std::int64_t>(1, p.m / 2);
    else p.n = std::max<std::int64_t>(1, p.n / 2);
  }
  p.l = p.family == Family::Fp8Block || r.chance(0.7) ? 1 : r.uniform(2, 3);
  while (p.l > 1 && double(p.m) * p.n * p.k * p.l > max_work()) --p.l;
  p.alpha = r.pick<float>({1.0f, 1.0f, -1.0f, 0.5f, 1.75f});
  p.beta = r.chance(0.55) ? 0.0f : r.pick<float>({1.0f, -0.5f, 0.25f});
  bool a_row = true, b_col = true, d_row = r.chance(0.5), odd = false;
  std::int64_t align = 8;
  switch (p.family) {
    case Family::Half16:
      p.ea = p.eb = r.pick({Element::BF16, Element::F16});
      p.out = r.chance(0.75) ? p.ea : Element::F32;
      a_row = r.chance(0.5), b_col = r.chance(0.5);
      odd = r.chance(0.12);
      break;
    case Family::F32:
    case Family::Tf32:
      p.ea = p.eb = p.out = Element::F32;
      a_row = r.chance(0.5), b_col = r.chance(0.5);
      align = 4;
      odd = r.chance(0.2);
      break;
    case Family::Fp8:
    case Family::Fp8Block: {
      const bool block = p.family == Family::Fp8Block;
      align = 16;
      if (block) {
        p.ea = p.eb = Element::E4M3;
        p.out = Element::BF16;
        p.mode = tk::ScaleMode::Block;
        d_row = !r.chance(0.08);
      } else {
        const double v = std::uniform_real_distribution<double>(0, 1)(r.g);
        p.ea = v < 0.85 ? Element::E4M3 : v < 0.92 ? Element::E5M2 : v < 0.97 ? Element::E4M3 : Element::E5M2;
        p.eb = v < 0.85 ? Element::E4M3 : v < 0.92 ? Element::E4M3 : Element::E5M2;
        p.out = r.pick({Element::BF16, Element::BF16, Element::F16, Element::F32});
        p.mode = r.chance(0.65) ? tk::ScaleMode::PerTensor : tk::ScaleMode::Rowwise;
        p.scales = p.mode == tk::ScaleMode::Rowwise || r.chance(0.6);
      }
      // (8-bit wgmma reads K-major operands only: a few of the other majors, to be refused)
      if (r.chance(0.05)) a_row = false;
      if (r.chance(0.05)) b_col = false;
      odd = r.chance(0.05);
      break;
    }
  }
  if (p.family != Family::Fp8Block && p.family != Family::F32 && p.family != Family::Tf32 && r.chance(0.3)) {
    p.act = r.pick({tk::Activation::Identity, tk::Activation::ReLU, tk::Activation::GELU, tk::Activation::GELUTanh, tk::Activation::SiLU});
    p.bias = r.pick({tk::Bias::None, tk::Bias::PerRow, tk::Bias::PerColumn});
  }
  p.a = draw_mat(r, a_row, p.m, p.k, p.l, align, odd && r.chance(0.5));
  p.b = draw_mat(r, !b_col, p.k, p.n, p.l, align, odd && r.chance(0.5));
  const std::int64_t out_align = 16 / tk::element_bytes(p.out);
  p.d = draw_mat(r, d_row, p.m, p.n, p.l, out_align, false);
  p.c_is_d = p.beta != 0 && r.chance(0.25);
  p.c = p.c_is_d ? p.d : draw_mat(r, d_row, p.m, p.n, p.l, out_align, false);
  if (p.mode == tk::ScaleMode::Block) {
    const std::int64_t lo = (p.m + 3) / 4 * 4;
    p.ld_sa = r.chance(0.5) ? 0 : lo + 4 * r.uniform(0, 3);
  }
  if (p.family == Family::F32 || p.family == Family::Tf32) p.path = Path::Rule;
  else {
    const double w = std::uniform_real_distribution<double>(0, 1)(r.g);
    p.path = w < 0.35 ? Path::Rule : w < 0.65 ? Path::RuleWorkspace : Path::Forced;
  }
  // The refusals these arguments call for (docs/gemm.md; check_arguments' reasons).
  const auto misaligned = [](const Mat& m, int bytes) { return m.ld * bytes % 16 != 0 || (m.batches > 1 && m.bs * bytes % 16 != 0); };
  const bool fused = p.act != tk::Activation::Identity || p.bias != tk::Bias::None || p.out != p.ea;
  if (p.family == Family::Half16 && fused && (misaligned(p.a, 2) || misaligned(p.b, 2)))
    p.expect_refusal = "a fused epilogue runs on the SM90 kernels, whose TMA copies need 16-byte-aligned operands";
  if (p.family == Family::Fp8 || p.family == Family::Fp8Block) {
    if (!a_row || !b_col) p.expect_refusal = "FP8 runs TN only";
    else if (misaligned(p.a, 1) || misaligned(p.b, 1)) p.expect_refusal = "FP8 operands must be 16-byte aligned for TMA";
    else if (p.ea == Element::E5M2 && p.eb == Element::E5M2) p.expect_refusal = "no e5m2 x e5m2 kernel";
    else if (p.ea != p.eb && p.out != Element::BF16) p.expect_refusal = "a mixed FP8 pair is built to bf16 only";
    else if (p.mode == tk::ScaleMode::Block && !d_row) p.expect_refusal = "block scales need a row-major D";
  }
  return p;
}

std::string describe(const Drawn& p) {
  char buf[512];
  auto major = [](const Mat& m) { return m.row ? "row" : "col"; };
  std::snprintf(buf, sizeof buf,
                "%s %s x %s -> %s M=%lld N=%lld K=%lld L=%lld A %s ld %lld bs %lld, B %s ld %lld bs %lld, D %s ld %lld bs %lld%s, "
                "alpha %g beta %g%s, act %s bias %s, scales %s%s",
                to_string(p.family), tk::to_string(p.ea), tk::to_string(p.eb), tk::to_string(p.out), (long long)p.m, (long long)p.n,
                (long long)p.k, (long long)p.l, major(p.a), (long long)p.a.ld, (long long)p.a.bs, major(p.b), (long long)p.b.ld,
                (long long)p.b.bs, major(p.d), (long long)p.d.ld, (long long)p.d.bs,
                p.beta != 0 && !p.c_is_d ? (" C ld " + std::to_string(p.c.ld)).c_str() : "", p.alpha, p.beta, p.c_is_d ? " C = D" : "",
                tk::to_string(p.act), tk::to_string(p.bias), tk::to_string(p.mode),
                p.mode == tk::ScaleMode::Block ? (" ld_scale_a " + std::to_string(p.ld_sa)).c_str()
                : p.mode == tk::ScaleMode::PerTensor && !p.scales ? " (null)"
                                                                   : "");
  return buf;
}

// The problem's arguments over the given buffers.
tk::GemmArguments arguments_of(const Drawn& p, void* A, void* B, void* C, void* D, void* bias, float* SA, float* SB) {
  tk::GemmArguments g;
  g.m = p.m, g.n = p.n, g.k = p.k, g.batch = p.l;
  g.element = p.ea;
  if (p.eb != p.ea) g.element_b = p.eb;
  auto major = [](const Mat& m) { return m.row ? tk::Major::Row : tk::Major::Col; };
  g.a = {A, major(p.a), p.a.ld, p.a.bs};
  g.b = {B, major(p.b), p.b.ld, p.b.bs};
  g.c = {C, major(p.c), p.c.ld, p.c.bs};
  g.d = D;
  g.ldd = p.d.ld;
  g.batch_stride_d = p.d.bs;
  g.alpha = p.alpha;
  g.beta = p.beta;
  g.scale_a = SA;
  g.scale_b = SB;
  g.scale_mode = p.mode;
  if (p.mode == tk::ScaleMode::Block) g.ld_scale_a = p.ld_sa;
  g.epilogue.activation = p.act;
  g.epilogue.bias = p.bias;
  g.epilogue.bias_ptr = bias;
  if (p.out != (tk::is_fp8(p.ea) ? Element::BF16 : p.ea)) g.epilogue.output = p.out;
  g.allow_tf32 = p.family == Family::Tf32;
  return g;
}

// ---- running one problem
struct Totals {
  int passed = 0, failed = 0, refused_as_expected = 0;
  std::map<std::string, int> runs;  // what ran: the SM90 configuration, or the fallback
} totals;

void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  TESSERA_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(bytes, 16)));
  return p;
}

void fill(void* p, Element e, std::int64_t n, std::uint64_t seed, float* decoded) {
  switch (e) {
    case Element::F32: tk::harness::fill_random(static_cast<float*>(p), n, seed); break;
    case Element::F16: tk::harness::fill_random(static_cast<__half*>(p), n, seed); break;
    case Element::BF16: tk::harness::fill_random(static_cast<__nv_bfloat16*>(p), n, seed); break;
    case Element::E4M3: tk::harness::fill_random_fp8(static_cast<std::uint8_t*>(p), nullptr, n, seed, false); break;
    case Element::E5M2: tk::harness::fill_random_fp8(static_cast<std::uint8_t*>(p), nullptr, n, seed, true); break;
  }
  decode<<<1024, 256>>>(p, e, n, decoded);
  TESSERA_CUDA_CHECK(cudaGetLastError());
}

bool run_one(int index, const Drawn& p, std::uint64_t seed, Rng& r) {
  const std::int64_t na = p.a.storage(), nb = p.b.storage(), nd = p.d.storage(), nc = p.c.storage();
  const int bin = tk::element_bytes(p.ea), bbn = tk::element_bytes(p.eb), bout = tk::element_bytes(p.out);
  std::vector<void*> owned;
  auto alloc = [&](std::size_t bytes) { return owned.emplace_back(device_alloc(bytes)); };
  void *A = alloc(na * bin), *B = alloc(nb * bbn), *D = alloc(nd * bout);
  float *Af = static_cast<float*>(alloc(na * 4)), *Bf = static_cast<float*>(alloc(nb * 4));
  fill(A, p.ea, na, seed * 16 + 1, Af);
  fill(B, p.eb, nb, seed * 16 + 2, Bf);
  void* C = nullptr;
  float* Cf = nullptr;
  if (p.c_is_d) {  // (D's storage holds C's values inside the logical matrix)
    Cf = static_cast<float*>(alloc(nd * 4));
    fill(D, p.out, nd, seed * 16 + 3, Cf);
    C = D;
  } else if (p.beta != 0) {
    C = alloc(nc * bout);
    Cf = static_cast<float*>(alloc(nc * 4));
    fill(C, p.out, nc, seed * 16 + 3, Cf);
  }
  prepare_d<<<1024, 256>>>(D, p.out, p.d, nd, p.c_is_d);
  TESSERA_CUDA_CHECK(cudaGetLastError());
  void* bias = nullptr;
  float* biasf = nullptr;
  if (p.bias != tk::Bias::None) {
    const std::int64_t nbias = p.bias == tk::Bias::PerRow ? p.m : p.n;
    bias = alloc(nbias * bout);
    biasf = static_cast<float*>(alloc(nbias * 4));
    fill(bias, p.out, nbias, seed * 16 + 4, biasf);
  }
  // Scales 2^e (1 + u), e in [-3, 2].
  float *SA = nullptr, *SB = nullptr;
  const std::int64_t kb = (p.k + 127) / 128, ld_sa = p.mode == tk::ScaleMode::Block ? (p.ld_sa != 0 ? p.ld_sa : (p.m + 3) / 4 * 4) : 0;
  if (p.scales || p.mode != tk::ScaleMode::PerTensor) {
    const std::int64_t n_sa = p.mode == tk::ScaleMode::Block ? ld_sa * kb : p.mode == tk::ScaleMode::Rowwise ? p.m : 1;
    const std::int64_t n_sb = p.mode == tk::ScaleMode::Block ? (p.n + 127) / 128 * kb : p.mode == tk::ScaleMode::Rowwise ? p.n : 1;
    std::vector<float> hsa(n_sa), hsb(n_sb);
    auto scale = [&] { return float(std::ldexp(1.0 + std::uniform_real_distribution<double>(0, 1)(r.g), int(r.uniform(-3, 2)))); };
    for (float& x : hsa) x = scale();
    for (float& x : hsb) x = scale();
    SA = static_cast<float*>(alloc(n_sa * 4));
    SB = static_cast<float*>(alloc(n_sb * 4));
    TESSERA_CUDA_CHECK(cudaMemcpy(SA, hsa.data(), n_sa * 4, cudaMemcpyHostToDevice));
    TESSERA_CUDA_CHECK(cudaMemcpy(SB, hsb.data(), n_sb * 4, cudaMemcpyHostToDevice));
  }

  tk::GemmArguments g = arguments_of(p, A, B, C, D, bias, SA, SB);

  // The path: the rule, the rule with the workspace it asks for, or a configuration of the list
  // forced (one of those built for the problem's types and majors, drawn).
  std::string runs;
  bool forced = false;
  tk::sm90::Sm90Config config;
  if (p.path == Path::Forced) {
    const std::vector<tk::sm90::Sm90Config> configs = tk::sm90::built_configs(g);
    if (!configs.empty()) {
      config = configs[std::size_t(r.uniform(0, std::int64_t(configs.size()) - 1))];
      forced = true;
    }
  }
  const bool workspace = p.path == Path::RuleWorkspace || (forced && config.stream_k);
  if (workspace && p.expect_refusal.empty()) {
    g.workspace_bytes = forced ? tk::device::sm90_workspace_size(g, config) : tk::gemm_workspace_size(g);
    if (g.workspace_bytes > 0) {
      g.workspace = alloc(g.workspace_bytes);
      // (stale contents must not matter: the launch's own tag marks what it wrote)
      TESSERA_CUDA_CHECK(cudaMemset(g.workspace, 0xa5, g.workspace_bytes));
    }
  }
  runs = forced ? "forced " + tk::sm90::to_string(config) : std::string(tk::device::sm90_schedule(g));
  if (runs == "none") runs = "not the SM90 kernels";
  auto launch = [&] { return forced ? tk::device::run_sm90(g, nullptr, config) : tk::gemm(g); };

  std::vector<unsigned char> before(std::size_t(nd) * bout), after(before.size());
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(before.data(), D, before.size(), cudaMemcpyDeviceToHost));
  const tk::GemmResult res = launch();
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(after.data(), D, after.size(), cudaMemcpyDeviceToHost));

  bool ok = true;
  std::string why;
  // (a forced configuration answers for its own kernel: its tile, alignment and epilogue)
  const auto status = tk::harness::drawn::judge_status(bool(res), tk::to_string(res.status), res.message, p.expect_refusal, before == after,
                                                       "D", forced);
  ok = status.ok;
  if (!status.ok) why = status.why;
  if (status.refused) ++totals.refused_as_expected, runs = "refused: " + res.message.substr(0, 90);
  if (res) {
    ++totals.runs[runs];
    // The same call again gives the same bits where a workspace was used (Stream-K's fix-up).
    if (g.workspace != nullptr && !p.c_is_d) {
      TESSERA_CUDA_CHECK(cudaMemcpy(D, before.data(), before.size(), cudaMemcpyHostToDevice));
      const tk::GemmResult again = launch();
      TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<unsigned char> second(after.size());
      TESSERA_CUDA_CHECK(cudaMemcpy(second.data(), D, second.size(), cudaMemcpyDeviceToHost));
      if (!again || second != after) ok = false, why += " the second launch with the workspace gave other bits;";
    }
    const std::int64_t total = p.m * p.n * p.l;
    double *R = static_cast<double*>(alloc(total * 8)), *Z = static_cast<double*>(alloc(total * 8)),
           *S = static_cast<double*>(alloc(total * 8));
    RefProblem rp{p.m, p.n, p.k, p.l, p.a, p.b, p.c, p.d, Af, Bf, Cf, biasf, p.bias, p.act, p.alpha, p.beta, p.mode, SA, SB, ld_sa, kb};
    reference<<<unsigned((total + 255) / 256), 256>>>(rp, R, Z, S);
    TESSERA_CUDA_CHECK(cudaGetLastError());
    // The bound (see the top of the file).
    Bound bound;
    bound.out = p.out == Element::BF16 ? std::ldexp(1.0, -8) : p.out == Element::F16 ? std::ldexp(1.0, -10) : std::ldexp(1.0, -21);
    bound.acc = std::max(std::ldexp(1.0, -20), double(p.k + 2) * std::ldexp(1.0, -24));
    if (p.family == Family::Tf32) bound.acc += std::ldexp(1.0, -9);
    if (p.family == Family::Fp8) bound.acc += std::ldexp(1.0, -11);
    if (p.family == Family::Fp8Block) bound.acc += std::ldexp(1.0, -12);
    bound.acc *= 1.25;  // (the activation's slope: at most 1.13 for GELU, 1.1 for SiLU)
    bound.act = p.act == tk::Activation::Identity || p.act == tk::Activation::ReLU ? 0.0 : std::ldexp(1.0, -9);
    bound.floor = p.out == Element::F16 ? 1e-7 : 1e-30;
    Verdict* v = static_cast<Verdict*>(alloc(sizeof(Verdict)));
    const Verdict zero{0, 0, 0, ~0ull, 0.0f};
    TESSERA_CUDA_CHECK(cudaMemcpy(v, &zero, sizeof zero, cudaMemcpyHostToDevice));
    check<<<1024, 256>>>(D, p.out, p.d, nd, R, Z, S, bound, v);
    TESSERA_CUDA_CHECK(cudaGetLastError());
    Verdict hv;
    TESSERA_CUDA_CHECK(cudaMemcpy(&hv, v, sizeof hv, cudaMemcpyDeviceToHost));
    if (hv.off || hv.nonfinite || hv.clobbered) {
      ok = false;
      char buf[400];
      std::snprintf(buf, sizeof buf, " %llu elements off their bound, %llu not finite, %llu pads clobbered (worst |D-R|/bound %.3g);",
                    hv.off, hv.nonfinite, hv.clobbered, double(hv.worst));
      why += buf;
      if (hv.first != ~0ull) {
        std::int64_t l, row, col;
        p.d.inside(std::int64_t(hv.first), l, row, col);
        const std::int64_t j = (l * p.n + col) * p.m + row;
        double ref = 0, zz = 0, ss = 0;
        TESSERA_CUDA_CHECK(cudaMemcpy(&ref, R + j, 8, cudaMemcpyDeviceToHost));
        TESSERA_CUDA_CHECK(cudaMemcpy(&zz, Z + j, 8, cudaMemcpyDeviceToHost));
        TESSERA_CUDA_CHECK(cudaMemcpy(&ss, S + j, 8, cudaMemcpyDeviceToHost));
        float got = 0;
        if (p.out == Element::F32) std::memcpy(&got, after.data() + hv.first * 4, 4);
        else {
          std::uint16_t h;
          std::memcpy(&h, after.data() + hv.first * 2, 2);
          got = p.out == Element::BF16 ? __bfloat162float(__nv_bfloat16_raw{h}) : __half2float(__half_raw{h});
        }
        std::snprintf(buf, sizeof buf, " first at batch %lld row %lld column %lld: got %.9g, reference %.9g (pre-activation %.9g, |terms| %.9g)",
                      (long long)l, (long long)row, (long long)col, double(got), ref, zz, ss);
        why += buf;
      }
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "worst |D-R|/bound %.3f", double(hv.worst));
      if (ok) why = buf;
    }
  }
  std::printf("%s #%d %s | %s | %s\n", ok ? "PASS" : "FAIL", index, describe(p).c_str(), runs.c_str(), why.c_str());
  for (void* q : owned) TESSERA_CUDA_CHECK(cudaFree(q));
  ok ? ++totals.passed : ++totals.failed;
  return ok;
}


// The share of drawn problems that are grouped GEMMs.
constexpr double kGroupedShare = 0.15;

// ---- grouped GEMM (tessera::gemm_grouped): both forms, empty groups, K_g = 0, groups the device
// leaves out (a leading dimension off 16 bytes), C aliasing D, fused epilogues, the refusals
struct GroupedDrawn {
  std::int64_t groups = 1;
  bool contiguous = false;
  Element e = Element::BF16;
  tk::Major b_major = tk::Major::Col;
  float alpha = 1, beta = 0;
  bool c_is_d = false;
  tk::Activation act = tk::Activation::Identity;
  tk::Bias bias = tk::Bias::None;
  // ptr-array: per group
  std::vector<tk::GemmGroupShape> shapes;
  std::vector<std::int64_t> lda, ldb, ldc, ldd;
  std::vector<bool> admissible, has_bias;
  // contiguous
  std::int64_t tokens = 0, n = 0, k = 0, c_lda = 0, c_ldc = 0, c_ldd = 0, bias_stride = 0;
  std::vector<std::int32_t> offs;
  std::string expect_refusal;
};

GroupedDrawn draw_grouped(Rng& r) {
  GroupedDrawn p;
  p.groups = r.pick<std::int64_t>({1, 2, 3, 5, 8, 17, 40, 64});
  p.contiguous = r.chance(0.5);
  p.e = r.chance(0.75) ? Element::BF16 : Element::F16;
  p.b_major = r.chance(0.7) ? tk::Major::Col : tk::Major::Row;
  p.alpha = r.pick<float>({1.0f, 1.0f, -1.0f, 0.5f});
  p.beta = r.chance(0.7) ? 0.0f : r.pick<float>({1.0f, -0.5f});
  p.c_is_d = p.beta != 0 && r.chance(0.3);
  if (r.chance(0.3)) {
    p.act = r.pick({tk::Activation::Identity, tk::Activation::ReLU, tk::Activation::GELU, tk::Activation::GELUTanh, tk::Activation::SiLU});
    p.bias = r.chance(0.7) ? tk::Bias::PerColumn : tk::Bias::None;
  }
  const double budget = max_work();
  const std::int64_t per16 = 8;
  auto ld = [&](std::int64_t row) { return (row + per16 - 1) / per16 * per16 + per16 * r.pick<std::int64_t>({0, 0, 1, 2}); };
  if (!p.contiguous) {
    double work = 0;
    for (std::int64_t g = 0; g < p.groups; ++g) {
      tk::GemmGroupShape sh;
      sh.m = std::int32_t(r.chance(0.1) ? 0 : draw_extent(r, 700));
      sh.n = std::int32_t(r.chance(0.05) ? 0 : draw_extent(r, 700));
      sh.k = std::int32_t(r.chance(0.05) ? 0 : draw_extent(r, 900));
      while (work + double(sh.m) * sh.n * sh.k > budget && sh.k > 1) sh.k /= 2;
      work += double(sh.m) * sh.n * sh.k;
      p.shapes.push_back(sh);
      p.lda.push_back(ld(sh.k));
      p.ldb.push_back(ld(p.b_major == tk::Major::Col ? sh.k : sh.n));
      p.ldd.push_back(ld(sh.n));
      p.ldc.push_back(p.c_is_d ? p.ldd.back() : ld(sh.n));
      // (a group whose A's rows are not whole 16 bytes: the device leaves it out, D_g untouched)
      const bool off16 = sh.m > 0 && sh.n > 0 && sh.k > 0 && r.chance(0.04);
      if (off16) p.lda.back() += 1;
      // (and one whose N is not whole 16 bytes: D's TMA stores would write past its rows)
      p.admissible.push_back(!off16 && (sh.m == 0 || sh.n % per16 == 0));
      p.has_bias.push_back(p.bias != tk::Bias::None && r.chance(0.85));
    }
  } else {
    p.n = draw_extent(r, 1600);
    p.k = r.chance(0.05) ? 0 : draw_extent(r, 2000);
    std::int64_t rows = 0;
    for (std::int64_t g = 0; g < p.groups; ++g) {
      rows += r.chance(0.12) ? 0 : draw_extent(r, 600);
      p.offs.push_back(std::int32_t(rows));
    }
    while (double(rows) * p.n * std::max<std::int64_t>(p.k, 1) > budget && p.k > 1) p.k /= 2;
    while (double(rows) * p.n * std::max<std::int64_t>(p.k, 1) > budget && p.n > 1) p.n /= 2;
    p.tokens = rows + (r.chance(0.3) ? r.uniform(1, 40) : 0);  // (rows past the last offset: not written)
    p.c_lda = r.chance(0.5) ? 0 : ld(p.k);
    p.c_ldd = r.chance(0.5) ? 0 : ld(p.n);
    p.c_ldc = p.c_is_d ? p.c_ldd : r.chance(0.5) ? 0 : ld(p.n);
    p.bias_stride = r.chance(0.6) ? 0 : p.n + 8 * r.uniform(0, 3);
    // (the weights' rows must be whole 16 bytes)
    if ((p.b_major == tk::Major::Col ? p.k : p.n) % per16 != 0) {
      if (p.b_major == tk::Major::Col) p.k = std::max<std::int64_t>(8, (p.k + 7) / 8 * 8);
      else p.n = (p.n + 7) / 8 * 8;
      if (p.bias_stride != 0) p.bias_stride = std::max(p.bias_stride, p.n);
      if (p.c_ldd != 0) p.c_ldd = std::max(p.c_ldd, ld(p.n));
      if (p.c_ldc != 0) p.c_ldc = p.c_is_d ? p.c_ldd : std::max(p.c_ldc, ld(p.n));
      if (p.c_lda != 0) p.c_lda = std::max(p.c_lda, ld(p.k));
    }
    // (a dense leading dimension, 0, is the row: whole 16 bytes only where the row is)
    if (p.c_lda == 0 && p.k % per16 != 0) p.c_lda = ld(p.k);
    if (p.c_ldd == 0 && p.n % per16 != 0) p.c_ldd = ld(p.n);
    if (p.c_is_d) p.c_ldc = p.c_ldd;
    else if (p.c_ldc == 0 && p.n % per16 != 0) p.c_ldc = ld(p.n);
  }
  const bool fused = p.act != tk::Activation::Identity || p.bias != tk::Bias::None;
  if (p.e == Element::F16 && p.b_major != tk::Major::Col) p.expect_refusal = "no f16 kernel for weights (G, K, N)";
  else if (p.contiguous && p.n % per16 != 0) p.expect_refusal = "N not whole 16 bytes: D's TMA stores would write past its rows";
  else if (fused && p.e != Element::BF16) p.expect_refusal = "the fused grouped kernels are bf16";
  else if (fused && p.b_major != tk::Major::Col) p.expect_refusal = "the fused grouped kernels take weights (G, N, K)";
  else if (fused && p.beta != 0) p.expect_refusal = "a fused grouped epilogue reads no C";
  return p;
}

std::string describe(const GroupedDrawn& p) {
  std::string s = std::string("grouped ") + (p.contiguous ? "contiguous" : "ptr-array") + " " + tk::to_string(p.e) + " G=" +
                  std::to_string(p.groups) + (p.b_major == tk::Major::Col ? " weights (G,N,K)" : " weights (G,K,N)") +
                  " alpha " + std::to_string(p.alpha).substr(0, 5) + " beta " + std::to_string(p.beta).substr(0, 5) +
                  (p.c_is_d ? " C = D" : "") + " act " + tk::to_string(p.act) + " bias " + tk::to_string(p.bias) + ":";
  if (p.contiguous) {
    s += " tokens " + std::to_string(p.tokens) + " N " + std::to_string(p.n) + " K " + std::to_string(p.k) + " lda/ldc/ldd " +
         std::to_string(p.c_lda) + "/" + std::to_string(p.c_ldc) + "/" + std::to_string(p.c_ldd) + " bias_stride " +
         std::to_string(p.bias_stride) + " offs";
    for (std::size_t g = 0; g < p.offs.size() && g < 12; ++g) s += " " + std::to_string(p.offs[g]);
    if (p.offs.size() > 12) s += " ...";
  } else {
    for (std::size_t g = 0; g < p.shapes.size() && g < 8; ++g)
      s += " " + std::to_string(p.shapes[g].m) + "x" + std::to_string(p.shapes[g].n) + "x" + std::to_string(p.shapes[g].k) +
           (p.admissible[g] ? "" : "(lda " + std::to_string(p.lda[g]) + ": left out)");
    if (p.shapes.size() > 8) s += " ...";
  }
  return s;
}

// Storage index -> what must hold there after the call: checked against R (1) or its bits as
// before the call (0).
__global__ void check_storage(const void* D, Element e, std::int64_t n, const unsigned char* kind, const void* before, const double* R,
                              const double* Z, const double* S, Bound b, Verdict* v) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    if (!kind[i]) {
      const int bytes = e == Element::F32 ? 4 : 2;
      const unsigned char *x = static_cast<const unsigned char*>(D) + i * bytes, *y = static_cast<const unsigned char*>(before) + i * bytes;
      bool same = true;
      for (int q = 0; q < bytes; ++q) same = same && x[q] == y[q];
      if (!same) atomicAdd(&v->clobbered, 1ull), atomicMin(&v->first, (unsigned long long)i);
      continue;
    }
    judge(load(D, i, e), i, R[i], Z[i], S[i], b, v);
  }
}
// One group's reference (dense (n, m) order) into the storage arrays at D_g's elements.
__global__ void scatter(std::int64_t M, std::int64_t N, std::int64_t d0, std::int64_t ldd, const double* r, const double* z, const double* s,
                        double* R, double* Z, double* S, unsigned char* kind) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t >= M * N) return;
  const std::int64_t m = t % M, n = t / M, i = d0 + m * ldd + n;
  R[i] = r[t], Z[i] = z[t], S[i] = s[t], kind[i] = 1;
}

bool run_grouped(int index, const GroupedDrawn& p, std::uint64_t seed) {
  std::vector<void*> owned;
  auto alloc = [&](std::size_t bytes) { return owned.emplace_back(device_alloc(bytes)); };
  const int eb = 2;
  const std::int64_t G = p.groups;
  // Per group: A_g, B_g, C_g, D_g as element offsets into one buffer each (16-byte aligned), and
  // their Mats (row-major A, C, D; B column-major for weights (N, K), row-major for (K, N)).
  struct GroupView {
    std::int64_t m = 0, n = 0, k = 0, a0 = 0, b0 = 0, c0 = 0, d0 = 0, bias0 = -1;
    Mat a, b, c, d;
    bool admissible = true;
  };
  std::vector<GroupView> v(G);
  std::int64_t na = 0, nb = 0, nc = 0, nd = 0, nbias = 0;
  auto round8 = [](std::int64_t x) { return (x + 7) / 8 * 8; };
  auto mat = [](bool row, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    Mat m;
    m.row = row, m.rows = rows, m.cols = cols, m.ld = ld, m.bs = 0, m.batches = 1;
    return m;
  };
  const bool col_w = p.b_major == tk::Major::Col;
  if (!p.contiguous) {
    for (std::int64_t g = 0; g < G; ++g) {
      GroupView& x = v[g];
      x.m = p.shapes[g].m, x.n = p.shapes[g].n, x.k = p.shapes[g].k, x.admissible = p.admissible[g];
      x.a = mat(true, x.m, x.k, p.lda[g]);
      x.b = col_w ? mat(false, x.k, x.n, p.ldb[g]) : mat(true, x.k, x.n, p.ldb[g]);
      x.d = mat(true, x.m, x.n, p.ldd[g]);
      x.c = mat(true, x.m, x.n, p.ldc[g]);
      x.a0 = na, na += round8(std::max<std::int64_t>(x.m, 1) * p.lda[g]) + 8;
      x.b0 = nb, nb += round8((col_w ? std::max<std::int64_t>(x.n, 1) : std::max<std::int64_t>(x.k, 1)) * p.ldb[g]) + 8;
      x.d0 = nd, nd += round8(std::max<std::int64_t>(x.m, 1) * p.ldd[g]) + 8;
      if (p.beta != 0 && !p.c_is_d) x.c0 = nc, nc += round8(std::max<std::int64_t>(x.m, 1) * p.ldc[g]) + 8;
      if (p.has_bias[g]) x.bias0 = nbias, nbias += round8(std::max<std::int64_t>(x.n, 1));
    }
  } else {
    const std::int64_t lda = p.c_lda ? p.c_lda : p.k, ldd = p.c_ldd ? p.c_ldd : p.n, ldc = p.c_ldc ? p.c_ldc : p.n;
    const std::int64_t bstride = p.bias_stride ? p.bias_stride : p.n;
    na = std::max<std::int64_t>(p.tokens, 1) * std::max<std::int64_t>(lda, 1);
    nb = G * std::max<std::int64_t>(p.n, 1) * std::max<std::int64_t>(p.k, 1);
    nd = std::max<std::int64_t>(p.tokens, 1) * ldd;
    nc = p.beta != 0 && !p.c_is_d ? std::max<std::int64_t>(p.tokens, 1) * ldc : 0;
    nbias = p.bias != tk::Bias::None ? G * bstride : 0;
    std::int64_t begin = 0;
    for (std::int64_t g = 0; g < G; ++g) {
      GroupView& x = v[g];
      const std::int64_t end = p.offs[g];
      x.m = std::max<std::int64_t>(end - begin, 0), x.n = p.n, x.k = p.k;
      x.a = mat(true, x.m, x.k, lda);
      x.b = col_w ? mat(false, x.k, x.n, std::max<std::int64_t>(p.k, 1)) : mat(true, x.k, x.n, std::max<std::int64_t>(p.n, 1));
      x.d = mat(true, x.m, x.n, ldd);
      x.c = mat(true, x.m, x.n, ldc);
      x.a0 = begin * lda, x.b0 = g * p.n * p.k, x.d0 = begin * ldd, x.c0 = begin * ldc;
      if (p.bias != tk::Bias::None) x.bias0 = g * bstride;
      begin = std::max(begin, end);
    }
  }
  void *A = alloc(na * eb), *B = alloc(nb * eb), *D = alloc(nd * eb), *C = nullptr, *Bias = nullptr;
  float *Af = static_cast<float*>(alloc(na * 4)), *Bf = static_cast<float*>(alloc(nb * 4)), *Cf = nullptr, *Biasf = nullptr;
  fill(A, p.e, na, seed * 16 + 1, Af);
  fill(B, p.e, nb, seed * 16 + 2, Bf);
  if (p.c_is_d) {
    Cf = static_cast<float*>(alloc(nd * 4));
    fill(D, p.e, nd, seed * 16 + 3, Cf);
    C = D;
  } else if (p.beta != 0) {
    C = alloc(nc * eb), Cf = static_cast<float*>(alloc(nc * 4));
    fill(C, p.e, nc, seed * 16 + 3, Cf);
  }
  if (nbias > 0) {
    Bias = alloc(nbias * eb), Biasf = static_cast<float*>(alloc(nbias * 4));
    fill(Bias, p.e, nbias, seed * 16 + 4, Biasf);
  }
  // D before the call: the sentinel, NaN at every group's elements (C's values where C is D).
  {
    std::vector<unsigned char> host(std::size_t(nd) * eb);
    TESSERA_CUDA_CHECK(cudaMemcpy(host.data(), D, host.size(), cudaMemcpyDeviceToHost));
    const std::uint16_t sentinel = p.e == Element::BF16 ? 0x4640 : 0x7200, nan = p.e == Element::BF16 ? 0x7fc0 : 0x7e00;
    std::vector<char> inside(std::size_t(nd), 0);
    for (const GroupView& x : v)
      for (std::int64_t m = 0; m < x.m; ++m)
        for (std::int64_t n = 0; n < x.n; ++n) inside[std::size_t(x.d0 + m * x.d.ld + n)] = 1;
    for (std::int64_t i = 0; i < nd; ++i)
      if (!inside[std::size_t(i)]) std::memcpy(host.data() + 2 * i, &sentinel, 2);
      else if (!p.c_is_d) std::memcpy(host.data() + 2 * i, &nan, 2);
    TESSERA_CUDA_CHECK(cudaMemcpy(D, host.data(), host.size(), cudaMemcpyHostToDevice));
  }
  auto at = [](void* base, std::int64_t elements) { return static_cast<void*>(static_cast<unsigned char*>(base) + 2 * elements); };
  tk::GemmGroupedArguments g;
  g.groups = G, g.element = p.e, g.b_major = p.b_major, g.alpha = p.alpha, g.beta = p.beta;
  g.activation = p.act, g.bias = p.bias;
  if (p.contiguous) {
    g.form = tk::GroupedForm::Contiguous;
    std::int32_t* offs = static_cast<std::int32_t*>(alloc(G * 4));
    TESSERA_CUDA_CHECK(cudaMemcpy(offs, p.offs.data(), G * 4, cudaMemcpyHostToDevice));
    g.contiguous = {p.tokens, p.n, p.k, offs, A, B, C, D, p.c_lda, p.c_ldc, p.c_ldd, Bias, p.bias_stride};
  } else {
    g.form = tk::GroupedForm::PtrArray;
    std::vector<const void*> ha(G), hb(G), hc(G), hbias(G);
    std::vector<void*> hd(G);
    for (std::int64_t q = 0; q < G; ++q) {
      ha[q] = at(A, v[q].a0), hb[q] = at(B, v[q].b0), hd[q] = at(D, v[q].d0);
      hc[q] = p.c_is_d ? hd[q] : C ? at(C, v[q].c0) : nullptr;
      hbias[q] = v[q].bias0 >= 0 ? at(Bias, v[q].bias0) : nullptr;
    }
    auto upload = [&](const void* src, std::size_t bytes) {
      void* d = alloc(bytes);
      TESSERA_CUDA_CHECK(cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice));
      return d;
    };
    g.ptr_array.shapes = static_cast<const tk::GemmGroupShape*>(upload(p.shapes.data(), G * sizeof(tk::GemmGroupShape)));
    g.ptr_array.a = static_cast<const void* const*>(upload(ha.data(), G * sizeof(void*)));
    g.ptr_array.b = static_cast<const void* const*>(upload(hb.data(), G * sizeof(void*)));
    g.ptr_array.d = static_cast<void* const*>(upload(hd.data(), G * sizeof(void*)));
    g.ptr_array.lda = static_cast<const std::int64_t*>(upload(p.lda.data(), G * 8));
    g.ptr_array.ldb = static_cast<const std::int64_t*>(upload(p.ldb.data(), G * 8));
    g.ptr_array.ldd = static_cast<const std::int64_t*>(upload(p.ldd.data(), G * 8));
    if (p.beta != 0) {
      g.ptr_array.c = static_cast<const void* const*>(upload(hc.data(), G * sizeof(void*)));
      g.ptr_array.ldc = static_cast<const std::int64_t*>(upload(p.ldc.data(), G * 8));
    }
    if (p.bias != tk::Bias::None) g.ptr_array.bias = static_cast<const void* const*>(upload(hbias.data(), G * sizeof(void*)));
  }
  g.workspace_bytes = tk::gemm_grouped_workspace_size(g);
  g.workspace = alloc(g.workspace_bytes);
  std::vector<unsigned char> before(std::size_t(nd) * eb), after(before.size());
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(before.data(), D, before.size(), cudaMemcpyDeviceToHost));
  const tk::GemmResult res = tk::gemm_grouped(g);
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(after.data(), D, after.size(), cudaMemcpyDeviceToHost));
  bool ok = true;
  std::string why;
  const auto status = tk::harness::drawn::judge_status(bool(res), tk::to_string(res.status), res.message, p.expect_refusal, before == after, "D");
  ok = status.ok, why = status.why;
  if (status.refused) ++totals.refused_as_expected;
  if (res && status.ok) {
    ++totals.runs["grouped"];
    double *R = static_cast<double*>(alloc(nd * 8)), *Z = static_cast<double*>(alloc(nd * 8)), *S = static_cast<double*>(alloc(nd * 8));
    unsigned char* kind = static_cast<unsigned char*>(alloc(nd));
    TESSERA_CUDA_CHECK(cudaMemset(kind, 0, nd));
    void* saved = alloc(before.size());
    TESSERA_CUDA_CHECK(cudaMemcpy(saved, before.data(), before.size(), cudaMemcpyHostToDevice));
    for (std::int64_t q = 0; q < G; ++q) {
      const GroupView& x = v[q];
      if (x.m == 0 || x.n == 0 || !x.admissible) continue;
      const std::int64_t t = x.m * x.n;
      double *r = static_cast<double*>(alloc(t * 8)), *z = static_cast<double*>(alloc(t * 8)), *s = static_cast<double*>(alloc(t * 8));
      const bool bias_here = x.bias0 >= 0;
      RefProblem rp{x.m, x.n, x.k, 1, x.a, x.b, x.c, x.d, Af + x.a0, Bf + x.b0,
                    p.beta != 0 ? (p.c_is_d ? Cf + x.d0 : Cf + x.c0) : nullptr, bias_here ? Biasf + x.bias0 : nullptr,
                    bias_here ? tk::Bias::PerColumn : tk::Bias::None, p.act, p.alpha, p.beta, tk::ScaleMode::PerTensor, nullptr, nullptr, 0, 0};
      reference<<<unsigned((t + 255) / 256), 256>>>(rp, r, z, s);
      scatter<<<unsigned((t + 255) / 256), 256>>>(x.m, x.n, x.d0, x.d.ld, r, z, s, R, Z, S, kind);
      TESSERA_CUDA_CHECK(cudaGetLastError());
    }
    Bound bound;
    bound.out = p.e == Element::BF16 ? std::ldexp(1.0, -8) : std::ldexp(1.0, -10);
    std::int64_t kmax = 1;
    for (const GroupView& x : v) kmax = std::max(kmax, x.k);
    bound.acc = std::max(std::ldexp(1.0, -20), double(kmax + 2) * std::ldexp(1.0, -24)) * 1.25;
    bound.act = p.act == tk::Activation::Identity || p.act == tk::Activation::ReLU ? 0.0 : std::ldexp(1.0, -9);
    bound.floor = p.e == Element::F16 ? 1e-7 : 1e-30;
    Verdict* vd = static_cast<Verdict*>(alloc(sizeof(Verdict)));
    const Verdict zero{0, 0, 0, ~0ull, 0.0f};
    TESSERA_CUDA_CHECK(cudaMemcpy(vd, &zero, sizeof zero, cudaMemcpyHostToDevice));
    check_storage<<<1024, 256>>>(D, p.e, nd, kind, saved, R, Z, S, bound, vd);
    TESSERA_CUDA_CHECK(cudaGetLastError());
    Verdict hv;
    TESSERA_CUDA_CHECK(cudaMemcpy(&hv, vd, sizeof hv, cudaMemcpyDeviceToHost));
    char buf[300];
    if (hv.off || hv.nonfinite || hv.clobbered) {
      ok = false;
      std::int64_t grp = -1, row = -1, col = -1;
      for (std::int64_t q = 0; q < G && hv.first != ~0ull; ++q) {
        const std::int64_t i = std::int64_t(hv.first) - v[q].d0;
        if (i >= 0 && v[q].d.ld > 0 && i / v[q].d.ld < std::max<std::int64_t>(v[q].m, 1) && i % v[q].d.ld < std::max<std::int64_t>(v[q].n, 1))
          grp = q, row = i / v[q].d.ld, col = i % v[q].d.ld;
      }
      std::snprintf(buf, sizeof buf, "%llu elements off their bound, %llu not finite, %llu elements that must stay as they were changed; first at "
                    "storage %llu (group %lld row %lld column %lld)", hv.off, hv.nonfinite, hv.clobbered, hv.first, (long long)grp,
                    (long long)row, (long long)col);
    } else {
      std::snprintf(buf, sizeof buf, "worst |D-R|/bound %.3f", double(hv.worst));
    }
    why = buf;
  }
  std::printf("%s #%d %s | %s\n", ok ? "PASS" : "FAIL", index, describe(p).c_str(), why.c_str());
  for (void* q : owned) TESSERA_CUDA_CHECK(cudaFree(q));
  ok ? ++totals.passed : ++totals.failed;
  return ok;
}
}  // namespace

int main() {
  const tk::harness::drawn::Options o = tk::harness::drawn::options(400, 200);
  // TESSERA_DRAWN_LIST=1: the problems a seed draws and what the host's argument checks say of
  // them over stand-in buffers (256-byte aligned, as cudaMalloc's), without a GPU.
  if (o.list) {
    void* fake = reinterpret_cast<void*>(std::uintptr_t(1) << 20);
    tk::harness::drawn::for_each(o, [&](int i, Rng& r, std::uint64_t) {
      std::string text, refusal;
      tk::GemmResult host;
      if (r.chance(kGroupedShare)) {
        const GroupedDrawn p = draw_grouped(r);
        tk::GemmGroupedArguments g;
        g.groups = p.groups, g.element = p.e, g.b_major = p.b_major, g.alpha = p.alpha, g.beta = p.beta, g.activation = p.act, g.bias = p.bias;
        if (p.contiguous) {
          g.form = tk::GroupedForm::Contiguous;
          g.contiguous = {p.tokens, p.n, p.k, static_cast<const std::int32_t*>(fake), fake, fake, p.beta != 0 ? fake : nullptr, fake,
                          p.c_lda, p.c_ldc, p.c_ldd, p.bias != tk::Bias::None ? fake : nullptr, p.bias_stride};
        } else {
          g.form = tk::GroupedForm::PtrArray;
          auto arr = static_cast<const void* const*>(fake);
          auto lds = static_cast<const std::int64_t*>(fake);
          g.ptr_array = {static_cast<const tk::GemmGroupShape*>(fake), arr, arr, p.beta != 0 ? arr : nullptr, static_cast<void* const*>(fake),
                         lds, lds, p.beta != 0 ? lds : nullptr, lds, p.bias != tk::Bias::None ? arr : nullptr};
        }
        g.workspace = fake, g.workspace_bytes = tk::gemm_grouped_workspace_size(g);
        host = tk::check_grouped_arguments(g);
        text = describe(p), refusal = p.expect_refusal;
      } else {
        const Drawn p = draw(r);
        float* fake_scale = (p.scales || p.mode != tk::ScaleMode::PerTensor) ? static_cast<float*>(fake) : nullptr;
        host = tk::check_arguments(arguments_of(p, fake, fake, p.beta != 0 ? fake : nullptr, fake, p.bias != tk::Bias::None ? fake : nullptr,
                                                fake_scale, fake_scale));
        text = describe(p), refusal = p.expect_refusal;
      }
      std::printf("#%d %s%s%s%s%s\n", i, text.c_str(), refusal.empty() ? "" : " | to be refused: ", refusal.c_str(),
                  host ? "" : " | the host checks refuse: ", host ? "" : host.message.c_str());
    });
    return 0;
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    std::printf("no CUDA device: skipping the drawn GEMM problems\n");
    return kSkip;
  }
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  if (major != 9) {
    // (FP8, the fused epilogues and the forced configurations are the SM90 kernels')
    std::printf("not an sm_90 GPU: the drawn problems need the SM90 kernels; skipping\n");
    return kSkip;
  }
  std::printf("seed %llu (TESSERA_SEED=%llu replays this run)\n", (unsigned long long)o.seed, (unsigned long long)o.seed);
  const int drawn = tk::harness::drawn::for_each(o, [&](int i, Rng& r, std::uint64_t stream) {
    if (r.chance(kGroupedShare)) run_grouped(i, draw_grouped(r), stream);
    else run_one(i, draw(r), stream, r);
  });
  std::printf("what ran:\n");
  for (const auto& [name, n] : totals.runs) std::printf("  %4d  %s\n", n, name.c_str());
  std::printf("%d problems: %d passed (%d refused as their arguments call for), %d failed (seed %llu)\n", drawn, totals.passed,
              totals.refused_as_expected, totals.failed, (unsigned long long)o.seed);
  return totals.failed == 0 ? 0 : 1;
}
