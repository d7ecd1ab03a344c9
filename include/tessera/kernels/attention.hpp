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

#include <cstdint>
#include <string>

struct CUstream_st;  // cudaStream_t without pulling CUDA headers into host code

namespace tessera::kernels {

enum class AttentionElement { BF16, F16 };
enum class AttentionMask { None, Causal };
enum class AttentionStatus { Success, InvalidArgument, Unsupported, Misaligned, NoDevice, LaunchFailed };

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
};

struct AttentionResult {
  AttentionStatus status = AttentionStatus::Success;
  std::string message;  // what is wrong; empty on success
  explicit operator bool() const { return status == AttentionStatus::Success; }
};

// The strides with their defaults filled in (what the kernel uses).
AttentionArguments with_default_strides(AttentionArguments a);

// Checks the arguments (no device needed for that part), then that an sm_90 device is present.
AttentionResult can_implement(const AttentionArguments& args);

// Runs the forward pass on `stream`.
AttentionResult attention(const AttentionArguments& args, CUstream_st* stream = nullptr);

}  // namespace tessera::kernels

namespace tessera {
using kernels::attention;
}  // namespace tessera
