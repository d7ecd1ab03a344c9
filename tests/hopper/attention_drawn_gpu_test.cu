// tessera::attention on drawn problems: sizes, strides, layouts and options no hand-written case
// names, each element of O and each LSE checked against an FP64 reference with a bound of its own.
//
// hopper_attention_gpu_test runs fixed cases with the packed strides. Here every problem is
// drawn from a seed: bf16 or f16; head dim 64, 128 or 256; batch 1-4; heads 1-16 with a GQA
// ratio that divides them; query and key lengths apart (cross-attention: the causal mask's
// bottom-right corner then leaves rows that see no key) or equal, small, around the 64- and
// 128-row tiles, or long; varlen batches with empty sequences; each of Q, K, V and O laid out
// (batch, seq, heads, dim) or (batch, heads, seq, dim) with padded rows, heads and batches;
// softmax_scale default or drawn; every grid (Auto, Persistent with a CTA cap, PerTile) with or
// without the tile counter's workspace; LSE or none. O's padding holds a sentinel that must
// survive; its elements start as NaN, LSE too. The bound per element of O is
//   |O - R| <= eps_o |R| + eps_p A + floor,   A = sum_j p_j |V_j| / l
// (O's rounding; P rounded to 16 bits before P V, the scores' f32 sums and the approximate
// exponential, which scale each p_j by at most a relative eps_p), and per LSE
// |LSE - L| <= 2^-20 |L| + (D + 2) 2^-22 M + 2^-10, M the largest |scale| sum |q k| of the row.
// A row that sees no key must read O = 0 and LSE = -inf. The same problem then runs on another
// grid and must give the same bits. Refusals: only those the arguments call for (a head dim not
// 64/128/256, strides not multiples of 8, heads not a multiple of kv_heads), with their reason
// and O untouched.
//
// TESSERA_SEED=s replays a run; TESSERA_DRAWN=n (default 150), TESSERA_DRAWN_SECONDS=t (default
// 150), TESSERA_DRAWN_MAX_WORK=w (B H Sq Sk D per problem, default 2e9), TESSERA_DRAWN_ONLY=i,
// TESSERA_DRAWN_LIST=1 (the problems, no GPU). Exits 77 without an sm_90 GPU.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tessera/kernels/attention.hpp"
#include "../../tools/harness/drawn.hpp"
#include "../../tools/harness/harness.cuh"  // TESSERA_CUDA_CHECK

namespace tk = tessera::kernels;

namespace {

constexpr int kSkip = 77;
constexpr float kSentinel = 12288.0f;  // exact in bf16 and f16

__device__ __host__ inline float load16(const void* p, std::int64_t i, bool bf16) {
#ifdef __CUDA_ARCH__
  return bf16 ? __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]) : __half2float(static_cast<const __half*>(p)[i]);
#else
  std::uint16_t h;
  std::memcpy(&h, static_cast<const unsigned char*>(p) + 2 * i, 2);
  return bf16 ? __bfloat162float(__nv_bfloat16_raw{h}) : __half2float(__half_raw{h});
#endif
}

// A tensor of (rows, heads, D) per batch, by its strides in elements.
struct Strides {
  std::int64_t batch = 0, row = 0, head = 0;
  __host__ __device__ std::int64_t at(std::int64_t b, std::int64_t r, std::int64_t h) const { return b * batch + r * row + h * head; }
};

struct Drawn {
  bool bf16 = true;
  int d = 128, batch = 1, heads = 1, kv_heads = 1;
  bool causal = false, varlen = false, lse = true;
  std::vector<int> lens_q, lens_k;  // per batch
  int sq = 1, sk = 1;               // the longest
  Strides q, k, v, o;
  bool q_bhsd = false, k_bhsd = false, v_bhsd = false, o_bhsd = false;
  float scale = 0;
  tk::AttentionGrid grid = tk::AttentionGrid::Auto;
  int ctas = 0;
  bool counter = false;
  std::string expect_refusal;
  int total_q() const { int t = 0; for (int x : lens_q) t += x; return t; }
  int total_k() const { int t = 0; for (int x : lens_k) t += x; return t; }
};

using Rng = tk::harness::drawn::Rng;

// The most B H Sq Sk D a problem may take (TESSERA_DRAWN_MAX_WORK).
double max_work() { return tk::harness::drawn::max_work(2.0e9); }

int draw_length(Rng& r, int hi, bool may_be_zero) {
  const double u = std::uniform_real_distribution<double>(0, 1)(r.g);
  int x;
  if (may_be_zero && u < 0.06) x = 0;
  else if (u < 0.3) x = int(r.uniform(1, 20));
  else if (u < 0.65) x = int(64 * r.uniform(1, std::max(1, hi / 64)) + r.pick<int>({-1, 0, 1, 16, -16, 80, 63}));
  else x = int(std::exp(std::uniform_real_distribution<double>(0, std::log(double(hi)))(r.g)));
  return std::clamp(x, may_be_zero ? 0 : 1, hi);
}

// Strides of a (rows, heads, D) tensor per batch: (batch, seq, heads, dim) or (batch, heads,
// seq, dim), rows, heads and batches padded by multiples of 8 elements (TMA's 16 bytes).
Strides draw_strides(Rng& r, bool bhsd, int rows, int heads, int d, bool varlen) {
  Strides s;
  auto pad = [&] { return 8 * r.pick<std::int64_t>({0, 0, 0, 1, 4, 8}); };
  if (!bhsd) {
    s.head = d + pad();
    s.row = heads * s.head + pad();
    s.batch = varlen ? 0 : rows * s.row + pad();
  } else {
    s.row = d + pad();
    s.head = std::int64_t(std::max(rows, 1)) * s.row + pad();
    s.batch = varlen ? 0 : heads * s.head + pad();
  }
  return s;
}

Drawn draw(Rng& r) {
  Drawn p;
  p.bf16 = r.chance(0.6);
  p.d = r.pick({64, 128, 128, 256});
  p.kv_heads = int(r.pick<int>({1, 1, 2, 4}));
  p.heads = p.kv_heads * int(r.pick<int>({1, 1, 2, 3, 4, 8}));
  p.batch = int(r.uniform(1, 4));
  p.causal = r.chance(0.5);
  p.varlen = r.chance(0.35);
  const bool same = r.chance(0.5);
  for (int b = 0; b < p.batch; ++b) {
    const int lq = draw_length(r, 1100, p.varlen && p.batch > 1);
    const int lk = same ? lq : draw_length(r, 1100, true);
    p.lens_q.push_back(lq);
    p.lens_k.push_back(lk);
  }
  if (!p.varlen)  // (one length for every batch)
    for (int b = 1; b < p.batch; ++b) p.lens_q[b] = p.lens_q[0], p.lens_k[b] = p.lens_k[0];
  auto work = [&] {
    double w = 0;
    for (int b = 0; b < p.batch; ++b) w += double(p.lens_q[b]) * std::max(p.lens_k[b], 1) * p.heads * p.d;
    return w;
  };
  while (work() > max_work())
    for (int b = 0; b < p.batch; ++b) p.lens_q[b] = (p.lens_q[b] + 1) / 2, p.lens_k[b] /= 2;
  if (p.total_q() == 0) p.lens_q[0] = 1;  // (the API asks for at least one query row)
  if (p.varlen && p.total_k() == 0) p.lens_k[0] = 1;
  p.sq = *std::max_element(p.lens_q.begin(), p.lens_q.end());
  p.sk = *std::max_element(p.lens_k.begin(), p.lens_k.end());
  const int rows_q = p.varlen ? p.total_q() : p.sq, rows_k = p.varlen ? p.total_k() : p.sk;
  p.q_bhsd = r.chance(0.3), p.k_bhsd = r.chance(0.3), p.v_bhsd = r.chance(0.3), p.o_bhsd = r.chance(0.3);
  p.q = draw_strides(r, p.q_bhsd, rows_q, p.heads, p.d, p.varlen);
  p.k = draw_strides(r, p.k_bhsd, rows_k, p.kv_heads, p.d, p.varlen);
  p.v = draw_strides(r, p.v_bhsd, rows_k, p.kv_heads, p.d, p.varlen);
  p.o = draw_strides(r, p.o_bhsd, rows_q, p.heads, p.d, p.varlen);
  p.scale = r.chance(0.6) ? 0.0f : float(std::ldexp(1.0 + std::uniform_real_distribution<double>(0, 1)(r.g), int(r.uniform(-6, -2))));
  p.grid = r.pick({tk::AttentionGrid::Auto, tk::AttentionGrid::Persistent, tk::AttentionGrid::PerTile});
  p.ctas = p.grid == tk::AttentionGrid::Persistent ? int(r.pick<int>({0, 0, 1, 3, 17})) : 0;
  p.counter = r.chance(0.5);
  p.lse = r.chance(0.85);
  // A few arguments to be refused (can_implement's reasons).
  const double u = std::uniform_real_distribution<double>(0, 1)(r.g);
  if (u < 0.02) p.d = 96, p.expect_refusal = "head_dim 96";
  else if (u < 0.04) p.q.row += 4, p.expect_refusal = "a stride not a multiple of 8";
  else if (u < 0.05 && p.heads > 1) p.kv_heads = p.heads + 1, p.expect_refusal = "heads not a multiple of kv_heads";
  return p;
}

std::string describe(const Drawn& p) {
  std::string lens;
  for (int b = 0; b < p.batch && b < 6; ++b) lens += (b ? "," : "") + std::to_string(p.lens_q[b]) + "/" + std::to_string(p.lens_k[b]);
  if (p.batch > 6) lens += ",...";
  char buf[600];
  const char* grid = p.grid == tk::AttentionGrid::Auto ? "auto" : p.grid == tk::AttentionGrid::Persistent ? "persistent" : "per-tile";
  std::snprintf(buf, sizeof buf,
                "%s D%d B%d H%d/%d %s%s q/k %s, strides q %lld/%lld/%lld%s k %lld/%lld/%lld%s v %lld/%lld/%lld%s o %lld/%lld/%lld%s, "
                "scale %g, grid %s ctas %d%s%s",
                p.bf16 ? "bf16" : "f16", p.d, p.batch, p.heads, p.kv_heads, p.causal ? "causal" : "full", p.varlen ? " varlen" : "",
                lens.c_str(), (long long)p.q.batch, (long long)p.q.row, (long long)p.q.head, p.q_bhsd ? " bhsd" : "", (long long)p.k.batch,
                (long long)p.k.row, (long long)p.k.head, p.k_bhsd ? " bhsd" : "", (long long)p.v.batch, (long long)p.v.row,
                (long long)p.v.head, p.v_bhsd ? " bhsd" : "", (long long)p.o.batch, (long long)p.o.row, (long long)p.o.head,
                p.o_bhsd ? " bhsd" : "", double(p.scale), grid, p.ctas, p.counter ? " counter" : "", p.lse ? "" : " no-lse");
  return buf;
}

// The storage a tensor spans (elements), and whether element i of it is a logical one.
std::int64_t span(const Strides& s, int batches, int rows, int heads, int d) {
  return std::int64_t(batches - 1) * s.batch + std::int64_t(std::max(rows, 1) - 1) * s.row + std::int64_t(heads - 1) * s.head + d;
}

struct RefArgs {
  int batch, heads, kv_heads, d, sq, total_q;
  bool varlen, causal, bf16;
  const int *cu_q, *cu_k;  // device, batch + 1 offsets (varlen and not: built by the test)
  const void *q, *k, *v;
  Strides sq_, sk_, sv_;
  double scale;
};

// One thread per (query row, head): R (rows x heads x D, dense), A (the same: sum p |v| / l),
// L (the LSE, -inf for a row without keys) and M (max scale sum |q k|).
__global__ void reference(RefArgs a, int rows, double* R, double* A, double* L, double* M) {
  const std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (t >= std::int64_t(rows) * a.heads) return;
  const int row = int(t / a.heads), h = int(t % a.heads);
  int b = 0;
  while (b + 1 < a.batch && a.cu_q[b + 1] <= row) ++b;
  const int i = row - a.cu_q[b], sqb = a.cu_q[b + 1] - a.cu_q[b], skb = a.cu_k[b + 1] - a.cu_k[b];
  const int hk = h / (a.heads / a.kv_heads);
  // (varlen: rows packed, no batch stride; else the batch's own rows)
  const std::int64_t qb = a.varlen ? 0 : b, qr = a.varlen ? row : i;
  auto krow = [&](int j) { return a.varlen ? a.cu_k[b] + j : j; };
  const int last = a.causal ? min(skb - 1, i + skb - sqb) : skb - 1;  // (keys 0..last are seen)
  double m = -INFINITY, mag = 0;
  for (int j = 0; j <= last; ++j) {
    double dot = 0, dm = 0;
    for (int x = 0; x < a.d; ++x) {
      const double pq = load16(a.q, a.sq_.at(qb, qr, h) + x, a.bf16) * double(load16(a.k, a.sk_.at(qb, krow(j), hk) + x, a.bf16));
      dot += pq;
      dm += fabs(pq);
    }
    m = fmax(m, dot * a.scale);
    mag = fmax(mag, dm * a.scale);
  }
  double l = 0;
  double* r = R + (std::int64_t(row) * a.heads + h) * a.d;
  double* ab = A + (std::int64_t(row) * a.heads + h) * a.d;
  for (int x = 0; x < a.d; ++x) r[x] = 0, ab[x] = 0;
  for (int j = 0; j <= last; ++j) {
    double dot = 0;
    for (int x = 0; x < a.d; ++x)
      dot += load16(a.q, a.sq_.at(qb, qr, h) + x, a.bf16) * double(load16(a.k, a.sk_.at(qb, krow(j), hk) + x, a.bf16));
    const double p = exp(dot * a.scale - m);
    l += p;
    for (int x = 0; x < a.d; ++x) {
      const double vv = load16(a.v, a.sv_.at(qb, krow(j), hk) + x, a.bf16);
      r[x] += p * vv;
      ab[x] += p * fabs(vv);
    }
  }
  for (int x = 0; x < a.d; ++x) r[x] = l > 0 ? r[x] / l : 0, ab[x] = l > 0 ? ab[x] / l : 0;
  L[std::int64_t(row) * a.heads + h] = l > 0 ? m + log(l) : -INFINITY;
  M[std::int64_t(row) * a.heads + h] = mag;
}

// The problem's arguments over the given buffers (varlen: the offsets' pointers set by the caller,
// here stand-ins of the buffer's).
tk::AttentionArguments arguments_of(const Drawn& p, void* Q, void* K, void* V, void* O) {
  if (K == nullptr) K = V = O = Q;
  tk::AttentionArguments a;
  a.element = p.bf16 ? tk::AttentionElement::BF16 : tk::AttentionElement::F16;
  a.batch = p.batch, a.heads = p.heads, a.kv_heads = p.kv_heads, a.head_dim = p.d;
  a.seqlen_q = p.sq, a.seqlen_k = p.sk;
  a.q = Q, a.k = K, a.v = V, a.o = O;
  a.q_batch_stride = p.q.batch, a.q_row_stride = p.q.row, a.q_head_stride = p.q.head;
  a.k_batch_stride = p.k.batch, a.k_row_stride = p.k.row, a.k_head_stride = p.k.head;
  a.v_batch_stride = p.v.batch, a.v_row_stride = p.v.row, a.v_head_stride = p.v.head;
  a.o_batch_stride = p.o.batch, a.o_row_stride = p.o.row, a.o_head_stride = p.o.head;
  if (p.varlen) {
    a.cu_seqlens_q = a.cu_seqlens_k = static_cast<const int*>(Q);
    a.total_q = p.total_q(), a.total_k = std::max(p.total_k(), 1);
    // (varlen strides: no batch stride; the packed default is the row's)
    a.q_batch_stride = a.q_row_stride, a.k_batch_stride = a.k_row_stride, a.v_batch_stride = a.v_row_stride,
    a.o_batch_stride = a.o_row_stride;
  }
  a.softmax_scale = p.scale;
  a.mask = p.causal ? tk::AttentionMask::Causal : tk::AttentionMask::None;
  a.grid = p.grid;
  a.persistent_ctas = p.ctas;
  return a;
}

void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  TESSERA_CUDA_CHECK(cudaMalloc(&p, std::max<std::size_t>(bytes, 16)));
  return p;
}

__global__ void fill_value16(void* p, std::int64_t n, float v, bool bf16) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    if (bf16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
    else static_cast<__half*>(p)[i] = __float2half_rn(v);
}
// O's logical elements to NaN (the rest keeps the sentinel).
__global__ void poison_o(void* o, Strides s, bool varlen, const int* cu_q, int batch, int rows, int heads, int d, bool bf16) {
  const std::int64_t n = std::int64_t(rows) * heads * d;
  for (std::int64_t t = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; t < n; t += std::int64_t(gridDim.x) * blockDim.x) {
    const int x = int(t % d), h = int((t / d) % heads), row = int(t / (std::int64_t(d) * heads));
    int b = 0;
    while (b + 1 < batch && cu_q[b + 1] <= row) ++b;
    const std::int64_t at = varlen ? s.at(0, row, h) + x : s.at(b, row - cu_q[b], h) + x;
    if (bf16) static_cast<__nv_bfloat16*>(o)[at] = __float2bfloat16_rn(NAN);
    else static_cast<__half*>(o)[at] = __float2half_rn(NAN);
  }
}

struct Totals {
  int passed = 0, failed = 0, refused = 0;
} totals;

bool run_one(int index, const Drawn& p, std::uint64_t seed) {
  std::vector<void*> owned;
  auto alloc = [&](std::size_t bytes) { return owned.emplace_back(device_alloc(bytes)); };
  const bool vl = p.varlen;
  const int total_q = p.total_q(), total_k = p.total_k();
  const int rows_q = vl ? total_q : p.sq, rows_k = vl ? total_k : p.sk, nb = vl ? 1 : p.batch;
  const int kvh = p.expect_refusal == "heads not a multiple of kv_heads" ? 1 : p.kv_heads;  // (the storage's heads)
  const int dd = p.d == 96 ? 96 : p.d;
  const std::int64_t nq = span(p.q, nb, rows_q, p.heads, dd), nk = span(p.k, nb, rows_k, kvh, dd), nv = span(p.v, nb, rows_k, kvh, dd),
                     no = span(p.o, nb, rows_q, p.heads, dd);
  void *Q = alloc(nq * 2), *K = alloc(nk * 2), *V = alloc(nv * 2), *O = alloc(no * 2);
  if (p.bf16) {
    tk::harness::fill_random(static_cast<__nv_bfloat16*>(Q), nq, seed * 8 + 1);
    tk::harness::fill_random(static_cast<__nv_bfloat16*>(K), nk, seed * 8 + 2);
    tk::harness::fill_random(static_cast<__nv_bfloat16*>(V), nv, seed * 8 + 3);
  } else {
    tk::harness::fill_random(static_cast<__half*>(Q), nq, seed * 8 + 1);
    tk::harness::fill_random(static_cast<__half*>(K), nk, seed * 8 + 2);
    tk::harness::fill_random(static_cast<__half*>(V), nv, seed * 8 + 3);
  }
  // Offsets of the batches (varlen's cu_seqlens; the reference's for both).
  std::vector<int> cu_q(p.batch + 1, 0), cu_k(p.batch + 1, 0);
  for (int b = 0; b < p.batch; ++b) cu_q[b + 1] = cu_q[b] + p.lens_q[b], cu_k[b + 1] = cu_k[b] + p.lens_k[b];
  int *CQ = static_cast<int*>(alloc(cu_q.size() * 4)), *CK = static_cast<int*>(alloc(cu_k.size() * 4));
  TESSERA_CUDA_CHECK(cudaMemcpy(CQ, cu_q.data(), cu_q.size() * 4, cudaMemcpyHostToDevice));
  TESSERA_CUDA_CHECK(cudaMemcpy(CK, cu_k.data(), cu_k.size() * 4, cudaMemcpyHostToDevice));
  const int ref_rows = vl ? total_q : p.batch * p.sq;  // (non-varlen: every batch has sq rows)
  const std::int64_t nlse = vl ? std::int64_t(p.heads) * total_q : std::int64_t(p.batch) * p.heads * p.sq;
  float* LSE = static_cast<float*>(alloc(nlse * 4));
  auto prepare = [&] {
    fill_value16<<<1024, 256>>>(O, no, kSentinel, p.bf16);
    TESSERA_CUDA_CHECK(cudaGetLastError());
    if (p.expect_refusal.empty()) {
      poison_o<<<1024, 256>>>(O, p.o, vl, CQ, p.batch, ref_rows, p.heads, p.d, p.bf16);
      TESSERA_CUDA_CHECK(cudaGetLastError());
    }
    TESSERA_CUDA_CHECK(cudaMemset(LSE, 0xff, nlse * 4));  // NaN
  };
  void* counter = nullptr;
  tk::AttentionArguments a = arguments_of(p, Q, K, V, O);
  a.lse = p.lse ? LSE : nullptr;
  if (vl) a.cu_seqlens_q = CQ, a.cu_seqlens_k = CK;
  if (p.counter) {
    counter = alloc(tk::attention_counter_bytes);
    TESSERA_CUDA_CHECK(cudaMemset(counter, 0, tk::attention_counter_bytes));
    a.workspace = counter;
    a.workspace_bytes = tk::attention_workspace_size(a);
    if (a.workspace_bytes == 0) a.workspace = nullptr;
  }
  prepare();
  std::vector<unsigned char> before(std::size_t(no) * 2), after(before.size());
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(before.data(), O, before.size(), cudaMemcpyDeviceToHost));
  const tk::AttentionResult res = tk::attention(a);
  TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
  TESSERA_CUDA_CHECK(cudaMemcpy(after.data(), O, after.size(), cudaMemcpyDeviceToHost));
  bool ok = true;
  std::string why;
  const auto status = tk::harness::drawn::judge_status(bool(res), tk::to_string(res.status), res.message, p.expect_refusal, before == after, "O");
  ok = status.ok, why = status.why;
  if (status.refused) ++totals.refused;
  if (res && status.ok) {
    // The reference, then every element on the host.
    const std::int64_t nr = std::int64_t(ref_rows) * p.heads * p.d;
    double *R = static_cast<double*>(alloc(nr * 8)), *A = static_cast<double*>(alloc(nr * 8));
    double *L = static_cast<double*>(alloc(std::int64_t(ref_rows) * p.heads * 8)), *M = static_cast<double*>(alloc(std::int64_t(ref_rows) * p.heads * 8));
    // (non-varlen: cu_q / cu_k hold the batches' equal lengths, so row = b sq + i)
    // (the scale as the kernel holds it: an f32)
    RefArgs ra{p.batch, p.heads, p.kv_heads, p.d, p.sq, total_q, vl, p.causal, p.bf16, CQ, CK, Q, K, V, p.q, p.k, p.v,
               double(p.scale > 0 ? p.scale : 1.0f / std::sqrt(float(p.d)))};
    const std::int64_t threads = std::int64_t(ref_rows) * p.heads;
    reference<<<unsigned((threads + 63) / 64), 64>>>(ra, ref_rows, R, A, L, M);
    TESSERA_CUDA_CHECK(cudaGetLastError());
    std::vector<double> hr(nr), ha(nr), hl(std::size_t(ref_rows) * p.heads), hm(hl.size());
    TESSERA_CUDA_CHECK(cudaMemcpy(hr.data(), R, nr * 8, cudaMemcpyDeviceToHost));
    TESSERA_CUDA_CHECK(cudaMemcpy(ha.data(), A, nr * 8, cudaMemcpyDeviceToHost));
    TESSERA_CUDA_CHECK(cudaMemcpy(hl.data(), L, hl.size() * 8, cudaMemcpyDeviceToHost));
    TESSERA_CUDA_CHECK(cudaMemcpy(hm.data(), M, hm.size() * 8, cudaMemcpyDeviceToHost));
    std::vector<float> lse(nlse);
    TESSERA_CUDA_CHECK(cudaMemcpy(lse.data(), LSE, nlse * 4, cudaMemcpyDeviceToHost));
    const double eps_o = p.bf16 ? std::ldexp(1.0, -8) : std::ldexp(1.0, -10);
    const double eps_p = (p.bf16 ? 1.5 * std::ldexp(1.0, -8) : std::ldexp(1.0, -10)) + std::ldexp(1.0, -18);
    std::vector<char> logical(std::size_t(no), 0);
    long long off = 0, off_lse = 0, clobbered = 0, first_row = -1, first_h = -1, first_x = -1;
    double worst = 0, got_first = 0, want_first = 0;
    for (int row = 0; row < ref_rows; ++row) {
      int b = 0;
      while (b + 1 < p.batch && cu_q[b + 1] <= row) ++b;
      const int i = row - cu_q[b];
      if (!vl) b = row / p.sq;
      const int ii = vl ? i : row % p.sq;
      for (int h = 0; h < p.heads; ++h) {
        const std::size_t j = std::size_t(row) * p.heads + h;
        const double s_err = double(p.d + 2) * std::ldexp(1.0, -23) * hm[j];
        for (int x = 0; x < p.d; ++x) {
          const std::int64_t at = vl ? p.o.at(0, row, h) + x : p.o.at(b, ii, h) + x;
          logical[std::size_t(at)] = 1;
          const double got = load16(after.data(), at, p.bf16), want = hr[j * p.d + x];
          const double bound = eps_o * std::fabs(want) + (eps_p + s_err) * ha[j * p.d + x] + 1e-6;
          const double err = std::fabs(got - want);
          if (!(err <= bound)) {
            if (off++ == 0) first_row = row, first_h = h, first_x = x, got_first = got, want_first = want;
          } else worst = std::max(worst, err / bound);
        }
        if (p.lse) {
          const float got = vl ? lse[std::size_t(h) * total_q + row] : lse[(std::size_t(b) * p.heads + h) * p.sq + ii];
          const double want = hl[j];
          const bool good = std::isinf(want) ? (std::isinf(got) && got < 0)
                                             : std::fabs(got - want) <= std::ldexp(1.0, -20) * std::fabs(want) + 2 * s_err + std::ldexp(1.0, -10);
          if (!good && off_lse++ == 0 && off == 0) first_row = row, first_h = h, first_x = -1, got_first = got, want_first = want;
        }
      }
    }
    for (std::int64_t e = 0; e < no; ++e)
      if (!logical[std::size_t(e)] && load16(after.data(), e, p.bf16) != kSentinel) ++clobbered;
    if (off || off_lse || clobbered) {
      ok = false;
      char buf[400];
      std::snprintf(buf, sizeof buf, "%lld O elements off their bound, %lld LSE off, %lld pads clobbered; first at row %lld head %lld %s%lld: got %.7g, reference %.7g",
                    off, off_lse, clobbered, first_row, first_h, first_x >= 0 ? "x " : "(lse)", first_x, got_first, want_first);
      why = buf;
    } else {
      char buf[80];
      std::snprintf(buf, sizeof buf, "worst |O-R|/bound %.3f", worst);
      why = buf;
    }
    // Another grid: the same bits (each tile is one CTA's, whatever the grid and the counter).
    if (ok) {
      std::vector<float> lse_first = lse;
      tk::AttentionArguments b2 = a;
      b2.grid = p.grid == tk::AttentionGrid::PerTile ? tk::AttentionGrid::Persistent : tk::AttentionGrid::PerTile;
      b2.persistent_ctas = b2.grid == tk::AttentionGrid::Persistent ? 5 : 0;
      b2.workspace = nullptr, b2.workspace_bytes = 0;
      prepare();
      const tk::AttentionResult r2 = tk::attention(b2);
      TESSERA_CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<unsigned char> again(after.size());
      TESSERA_CUDA_CHECK(cudaMemcpy(again.data(), O, again.size(), cudaMemcpyDeviceToHost));
      TESSERA_CUDA_CHECK(cudaMemcpy(lse.data(), LSE, nlse * 4, cudaMemcpyDeviceToHost));
      if (!r2 || again != after || (p.lse && std::memcmp(lse.data(), lse_first.data(), nlse * 4) != 0))
        ok = false, why += "; another grid gave other bits" + (r2 ? std::string() : " (refused: " + r2.message + ")");
      if (counter != nullptr) {
        unsigned words[2] = {1, 1};
        TESSERA_CUDA_CHECK(cudaMemcpy(words, counter, sizeof words, cudaMemcpyDeviceToHost));
        if (words[0] != 0 || words[1] != 0) ok = false, why += "; the counter's workspace was not left zeroed";
      }
    }
  }
  std::printf("%s #%d %s | %s\n", ok ? "PASS" : "FAIL", index, describe(p).c_str(), why.c_str());
  for (void* q : owned) TESSERA_CUDA_CHECK(cudaFree(q));
  ok ? ++totals.passed : ++totals.failed;
  return ok;
}

}  // namespace

int main() {
  const tk::harness::drawn::Options o = tk::harness::drawn::options(150, 150);
  if (o.list) {
    // (the host's checks over stand-in pointers, 256-byte aligned as cudaMalloc's)
    tk::harness::drawn::for_each(o, [&](int i, Rng& r, std::uint64_t) {
      const Drawn p = draw(r);
      const tk::AttentionResult host = tk::check_arguments(arguments_of(p, reinterpret_cast<void*>(std::uintptr_t(1) << 20), nullptr, nullptr, nullptr));
      std::printf("#%d %s%s%s%s%s\n", i, describe(p).c_str(), p.expect_refusal.empty() ? "" : " | to be refused: ", p.expect_refusal.c_str(),
                  host ? "" : " | the host checks refuse: ", host ? "" : host.message.c_str());
    });
    return 0;
  }
  int ndev = 0, major = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0 || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      major != 9) {
    std::printf("no sm_90 GPU: skipping the drawn attention problems\n");
    return kSkip;
  }
  std::printf("seed %llu (TESSERA_SEED=%llu replays this run)\n", (unsigned long long)o.seed, (unsigned long long)o.seed);
  const int drawn = tk::harness::drawn::for_each(o, [&](int i, Rng& r, std::uint64_t stream) { run_one(i, draw(r), stream); });
  std::printf("%d problems: %d passed (%d refused as their arguments call for), %d failed (seed %llu)\n", drawn, totals.passed, totals.refused,
              totals.failed, (unsigned long long)o.seed);
  return totals.failed == 0 ? 0 : 1;
}
