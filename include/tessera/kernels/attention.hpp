// tessera attention, host API: the forward pass O = softmax(Q K^T * scale [+ causal mask]) V
// with the log-sum-exp of each row, on Hopper (sm_90a; kernels/device/sm90_attention.cuh).
//
//   tessera::kernels::AttentionArguments a;  ... pointers, sizes, strides ...
//   if (auto r = tessera::attention(a, stream); !r) fprintf(stderr, "%s\n", r.message.c_str());
//
// Tensors as PyTorch and FlashAttention store them: Q, O (batch, seqlen_q, heads, head_dim), K, V
// (batch, seqlen_k, kv_heads, head_dim), head_dim contiguous; strides in elements per
// (batch, row, head). LSE f32 (batch, heads, seqlen_q), contiguous. Varlen: with cu_seqlens_q
// and cu_seqlens_k (device arrays of batch + 1 int offsets, the first 0), the tensors are
// (total_q or total_k, heads, head_dim) (the batch strides are ignored), sequence b holds rows
// cu[b] .. cu[b+1]-1, seqlen_q / seqlen_k are the longest sequences, and LSE is (heads, total_q).
// Grouped-query attention: query head h reads KV head h / (heads / kv_heads).
// Causal: query row i (of a sequence of sq rows over sk keys) sees keys j <= i + sk - sq (the
// mask aligned to the bottom-right corner, as FlashAttention); a row that sees no key gets
// O = 0 and LSE = -inf.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

struct CUstream_st;  // cudaStream_t without pulling CUDA headers into host code

namespace tessera::kernels {

enum class AttentionElement { BF16, F16 };
enum class AttentionMask { None, Causal };
// How the grid covers the work tiles (Q tile, head, batch):
//   Persistent  as many CTAs as the device holds at once (at most persistent_ctas when given),
//               each loading its next tile's Q and K while it finishes the last one
//               (docs/attention.md). CTA c takes tiles c, c + grid, ... of the schedule, or,
//               under a causal mask or varlen with a workspace, the next unclaimed tile from a
//               counter there (the CTA that frees first takes the next heaviest tile)
//   PerTile     a CTA per work tile, started by the hardware as SMs free
//   Auto        Persistent where every Q tile reads the same keys (full attention, one length),
//               and under a causal mask (one length) with a workspace; else PerTile: the
//               static assignment of tiles of unequal cost balances worse than the hardware's
//               dispatch, and varlen's empty tiles would cost the counter (bench/notes/attention.md)
// All compute each tile with the same code, so their outputs are the same bits.
enum class AttentionGrid { Auto, Persistent, PerTile };
enum class AttentionStatus { Success, InvalidArgument, Unsupported, Misaligned, NoDevice, LaunchFailed };

inline const char* to_string(AttentionStatus s) {
  switch (s) {
    case AttentionStatus::Success: return "success";
    case AttentionStatus::InvalidArgument: return "invalid argument";
    case AttentionStatus::Unsupported: return "unsupported";
    case AttentionStatus::Misaligned: return "misaligned operand";
    case AttentionStatus::NoDevice: return "no CUDA device";
    case AttentionStatus::LaunchFailed: return "launch failed";
  }
  return "unknown status";
}

struct AttentionArguments {
  AttentionElement element = AttentionElement::BF16;
  int batch = 1, heads = 1, kv_heads = 1, head_dim = 128;
  int seqlen_q = 0, seqlen_k = 0;
  const void* q = nullptr;
  const void* k = nullptr;
  const void* v = nullptr;
  void* o = nullptr;
  float* lse = nullptr;  // optional
  // Strides in elements: (batch, row, head) of each tensor; 0 means the packed default
  // (row = heads * head_dim, batch = seqlen * row).
  int64_t q_batch_stride = 0, q_row_stride = 0, q_head_stride = 0;
  int64_t k_batch_stride = 0, k_row_stride = 0, k_head_stride = 0;
  int64_t v_batch_stride = 0, v_row_stride = 0, v_head_stride = 0;
  int64_t o_batch_stride = 0, o_row_stride = 0, o_head_stride = 0;
  const int* cu_seqlens_q = nullptr;  // varlen: both or neither
  const int* cu_seqlens_k = nullptr;
  int total_q = 0, total_k = 0;  // varlen: rows of the packed tensors (cu_seqlens_*[batch])
  float softmax_scale = 0.f;  // 0: 1 / sqrt(head_dim)
  AttentionMask mask = AttentionMask::None;
  AttentionGrid grid = AttentionGrid::Auto;
  int persistent_ctas = 0;  // Persistent: at most this many CTAs (0: the SMs' resident CTAs)
  // Optional device scratch for the persistent grid's tile counter (attention_workspace_size
  // says how much a call can use; 4-byte aligned). It must hold zeros before its first use
  // (cudaMemset once after allocating it); every launch leaves it zeroed, so it is reused
  // across calls on one stream and across replays of a captured CUDA graph. Calls that may run
  // at the same time (other streams, concurrent graphs) need separate workspaces. Without it
  // (or when it is too small) no counter is used; the result is the same bits either way.
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
};

// Bytes of the tile counter (two 32-bit words).
inline constexpr std::size_t attention_counter_bytes = 8;

struct AttentionResult {
  AttentionStatus status = AttentionStatus::Success;
  std::string message;  // what is wrong; empty on success
  explicit operator bool() const { return status == AttentionStatus::Success; }
};

// The strides with their defaults filled in (what the kernel uses).
inline AttentionArguments with_default_strides(AttentionArguments a) {
  const bool varlen = a.cu_seqlens_q != nullptr;
  auto fill = [&](int64_t& batch, int64_t& row, int64_t& head, int heads, int seqlen) {
    if (head == 0) head = a.head_dim;
    if (row == 0) row = int64_t(heads) * a.head_dim;
    // (unused for varlen; a tensor of no rows gets one row's stride: positive, as TMA's maps
    // need, and never read)
    if (batch == 0) batch = varlen ? row : int64_t(seqlen > 0 ? seqlen : 1) * row;
  };
  fill(a.q_batch_stride, a.q_row_stride, a.q_head_stride, a.heads, a.seqlen_q);
  fill(a.k_batch_stride, a.k_row_stride, a.k_head_stride, a.kv_heads, a.seqlen_k);
  fill(a.v_batch_stride, a.v_row_stride, a.v_head_stride, a.kv_heads, a.seqlen_k);
  fill(a.o_batch_stride, a.o_row_stride, a.o_head_stride, a.heads, a.seqlen_q);
  return a;
}

// The checks that need no device (can_implement's first part): host code, so that a build
// without CUDA (the Python module's _core) refuses with the same reasons.
inline AttentionResult check_arguments(const AttentionArguments& a) {
  using S = AttentionStatus;
  auto refuse = [](S s, std::string m) { return AttentionResult{s, std::move(m)}; };
  if (a.element != AttentionElement::BF16 && a.element != AttentionElement::F16)
    return refuse(S::Unsupported, "element must be BF16 or F16");
  if (a.mask != AttentionMask::None && a.mask != AttentionMask::Causal) return refuse(S::Unsupported, "mask must be None or Causal");
  if (a.grid != AttentionGrid::Auto && a.grid != AttentionGrid::Persistent && a.grid != AttentionGrid::PerTile)
    return refuse(S::Unsupported, "grid must be Auto, Persistent or PerTile");
  if (a.persistent_ctas < 0) return refuse(S::InvalidArgument, "persistent_ctas must be >= 0 (0: as many as the device holds at once)");
  if (a.workspace_bytes > 0 && a.workspace == nullptr)
    return refuse(S::InvalidArgument, "workspace is a null pointer while workspace_bytes = " + std::to_string(a.workspace_bytes));
  if (reinterpret_cast<std::uintptr_t>(a.workspace) % 4 != 0) return refuse(S::Misaligned, "workspace must be 4-byte aligned");
  if (a.head_dim != 64 && a.head_dim != 128 && a.head_dim != 256)
    return refuse(S::Unsupported, "head_dim must be 64, 128 or 256 (got " + std::to_string(a.head_dim) + ")");
  if (a.batch < 1 || a.heads < 1 || a.kv_heads < 1) return refuse(S::InvalidArgument, "batch, heads and kv_heads must be >= 1");
  if (a.heads % a.kv_heads != 0)
    return refuse(S::InvalidArgument, "heads (" + std::to_string(a.heads) + ") must be a multiple of kv_heads (" + std::to_string(a.kv_heads) + ")");
  if (a.seqlen_q < 1 || a.seqlen_k < 0) return refuse(S::InvalidArgument, "seqlen_q must be >= 1 and seqlen_k >= 0");
  if (!a.q || !a.k || !a.v || !a.o) return refuse(S::InvalidArgument, "q, k, v and o must be given");
  if ((a.cu_seqlens_q == nullptr) != (a.cu_seqlens_k == nullptr)) return refuse(S::InvalidArgument, "give both cu_seqlens_q and cu_seqlens_k, or neither");
  const bool varlen = a.cu_seqlens_q != nullptr;
  if (varlen && (a.total_q < 1 || a.total_k < 1)) return refuse(S::InvalidArgument, "varlen: total_q and total_k (the packed tensors' rows) must be >= 1");
  if (!(a.softmax_scale >= 0.f) || !std::isfinite(a.softmax_scale)) return refuse(S::InvalidArgument, "softmax_scale must be finite and >= 0 (0: 1/sqrt(head_dim))");
  const int64_t rows_q = varlen ? a.total_q : a.seqlen_q, rows_k = varlen ? a.total_k : a.seqlen_k;
  const int64_t grid_y = a.heads, grid_z = a.batch;
  if (rows_q >= (int64_t(1) << 31) || rows_k >= (int64_t(1) << 31) || grid_y > 65535 || grid_z > 65535)
    return refuse(S::Unsupported, "rows below 2^31, heads and batch at most 65535");
  // TMA: 16-byte aligned base addresses and strides.
  const AttentionArguments d = with_default_strides(a);
  for (int64_t st : {d.q_batch_stride, d.q_row_stride, d.q_head_stride, d.k_batch_stride, d.k_row_stride, d.k_head_stride, d.v_batch_stride,
                     d.v_row_stride, d.v_head_stride, d.o_row_stride, d.o_head_stride, d.o_batch_stride})
    if (st % 8 != 0 || st <= 0) return refuse(S::Misaligned, "strides must be positive multiples of 8 elements (16 bytes: TMA)");
  for (const void* p : {a.q, a.k, a.v, static_cast<const void*>(a.o)})
    if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) return refuse(S::Misaligned, "q, k, v and o must be 16-byte aligned");
  // The f32 LSE and the int offsets are stored and read element by element: their own alignment.
  if (reinterpret_cast<std::uintptr_t>(a.lse) % alignof(float) != 0) return refuse(S::Misaligned, "lse must be 4-byte aligned (f32)");
  for (const int* p : {a.cu_seqlens_q, a.cu_seqlens_k})
    if (reinterpret_cast<std::uintptr_t>(p) % alignof(int) != 0)
      return refuse(S::Misaligned, "cu_seqlens_q and cu_seqlens_k must be 4-byte aligned (int32)");
  return {};
}

// Checks the arguments (check_arguments), then that an sm_90 device is present.
AttentionResult can_implement(const AttentionArguments& args);

// Bytes of AttentionArguments::workspace that attention(args) can use: attention_counter_bytes
// where its grid would take tiles from a counter (AttentionGrid::Persistent under a causal mask
// or varlen; Auto under a causal mask with one length), else 0. The arguments' grid, mask and
// varlen decide it, not their pointers or sizes.
std::size_t attention_workspace_size(const AttentionArguments& args);

// Runs the forward pass on `stream`.
AttentionResult attention(const AttentionArguments& args, CUstream_st* stream = nullptr);

}  // namespace tessera::kernels

namespace tessera {
using kernels::attention;
}  // namespace tessera
