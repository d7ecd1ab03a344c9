// Argument checks of the attention host API (tessera::kernels::check_arguments in
// <tessera/kernels/attention.hpp>): no GPU needed. Each refusal names its reason; a C++ caller
// without a device sees the same reasons as can_implement's.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "tessera/kernels/attention.hpp"

using namespace tessera::kernels;

namespace {

alignas(16) unsigned char storage[1024];
alignas(16) int offsets[8];
alignas(16) float lse_storage[8];

// A valid call: bf16, D 128, one batch and head, 16 query rows over 16 keys, packed strides.
AttentionArguments valid() {
  AttentionArguments a;
  a.q = storage, a.k = storage + 256, a.v = storage + 512, a.o = storage + 768;
  a.seqlen_q = a.seqlen_k = 16;
  return a;
}

// Refused with `status`, and the message holds `words`.
void refused(AttentionArguments const& a, AttentionStatus status, std::string const& words) {
  const AttentionResult r = check_arguments(a);
  INFO("message: " << r.message);
  CHECK_FALSE(r);
  CHECK(r.status == status);
  CHECK(r.message.find(words) != std::string::npos);
}

}  // namespace

TEST_CASE("attention arguments: what the kernels run passes") {
  for (int d : {64, 128, 256})
    for (auto element : {AttentionElement::BF16, AttentionElement::F16})
      for (auto mask : {AttentionMask::None, AttentionMask::Causal}) {
        AttentionArguments a = valid();
        a.head_dim = d, a.element = element, a.mask = mask;
        INFO("D " << d);
        const AttentionResult r = check_arguments(a);
        CHECK(r);
        CHECK(r.message.empty());
      }
  AttentionArguments a = valid();
  a.heads = 32, a.kv_heads = 8;  // grouped-query attention: 4 query heads a KV head
  CHECK(check_arguments(a));
  a = valid(), a.seqlen_k = 0;  // no keys: O = 0, LSE = -inf
  CHECK(check_arguments(a));
  a = valid(), a.cu_seqlens_q = offsets, a.cu_seqlens_k = offsets, a.total_q = 40, a.total_k = 30, a.batch = 3;  // varlen
  CHECK(check_arguments(a));
  a = valid(), a.lse = lse_storage, a.softmax_scale = 0.125f, a.grid = AttentionGrid::Persistent, a.persistent_ctas = 7;
  CHECK(check_arguments(a));
  a = valid(), a.workspace = offsets, a.workspace_bytes = attention_counter_bytes;
  CHECK(check_arguments(a));
}

TEST_CASE("attention arguments: each refusal with its reason") {
  using S = AttentionStatus;
  AttentionArguments a = valid();
  a.element = static_cast<AttentionElement>(5);
  refused(a, S::Unsupported, "element must be BF16 or F16");
  a = valid(), a.mask = static_cast<AttentionMask>(3);
  refused(a, S::Unsupported, "mask must be None or Causal");
  a = valid(), a.grid = static_cast<AttentionGrid>(7);
  refused(a, S::Unsupported, "grid must be Auto, Persistent or PerTile");
  a = valid(), a.persistent_ctas = -1;
  refused(a, S::InvalidArgument, "persistent_ctas must be >= 0");
  a = valid(), a.workspace_bytes = attention_counter_bytes;
  refused(a, S::InvalidArgument, "workspace is a null pointer while workspace_bytes = 8");
  a = valid(), a.workspace = storage + 2, a.workspace_bytes = attention_counter_bytes;
  refused(a, S::Misaligned, "workspace must be 4-byte aligned");
  for (int d : {0, 32, 96, 192, 512}) {
    a = valid(), a.head_dim = d;
    refused(a, S::Unsupported, "head_dim must be 64, 128 or 256 (got " + std::to_string(d) + ")");
  }
  a = valid(), a.batch = 0;
  refused(a, S::InvalidArgument, "batch, heads and kv_heads must be >= 1");
  a = valid(), a.heads = 0;
  refused(a, S::InvalidArgument, "batch, heads and kv_heads must be >= 1");
  a = valid(), a.kv_heads = 0;
  refused(a, S::InvalidArgument, "batch, heads and kv_heads must be >= 1");
  a = valid(), a.heads = 6, a.kv_heads = 4;
  refused(a, S::InvalidArgument, "heads (6) must be a multiple of kv_heads (4)");
  a = valid(), a.heads = 4, a.kv_heads = 8;  // more KV heads than query heads
  refused(a, S::InvalidArgument, "heads (4) must be a multiple of kv_heads (8)");
  a = valid(), a.seqlen_q = 0;
  refused(a, S::InvalidArgument, "seqlen_q must be >= 1 and seqlen_k >= 0");
  a = valid(), a.seqlen_k = -1;
  refused(a, S::InvalidArgument, "seqlen_q must be >= 1 and seqlen_k >= 0");
  a = valid(), a.q = nullptr;
  refused(a, S::InvalidArgument, "q, k, v and o must be given");
  a = valid(), a.k = nullptr;
  refused(a, S::InvalidArgument, "q, k, v and o must be given");
  a = valid(), a.v = nullptr;
  refused(a, S::InvalidArgument, "q, k, v and o must be given");
  a = valid(), a.o = nullptr;
  refused(a, S::InvalidArgument, "q, k, v and o must be given");
  a = valid(), a.cu_seqlens_q = offsets;
  refused(a, S::InvalidArgument, "give both cu_seqlens_q and cu_seqlens_k, or neither");
  a = valid(), a.cu_seqlens_k = offsets;
  refused(a, S::InvalidArgument, "give both cu_seqlens_q and cu_seqlens_k, or neither");
  a = valid(), a.cu_seqlens_q = a.cu_seqlens_k = offsets, a.total_q = 0, a.total_k = 16;
  refused(a, S::InvalidArgument, "varlen: total_q and total_k (the packed tensors' rows) must be >= 1");
  for (float s : {-1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    a = valid(), a.softmax_scale = s;
    INFO("softmax_scale " << s);
    refused(a, S::InvalidArgument, "softmax_scale must be finite and >= 0");
  }
  a = valid(), a.heads = 65536;
  refused(a, S::Unsupported, "heads and batch at most 65535");
  a = valid(), a.batch = 65536;
  refused(a, S::Unsupported, "heads and batch at most 65535");
  a = valid(), a.heads = 65535;  // the bound itself runs
  CHECK(check_arguments(a));
}

TEST_CASE("attention arguments: TMA's alignment of strides and pointers") {
  using S = AttentionStatus;
  // Every stride of every tensor: a positive multiple of 8 elements (16 bytes).
  int64_t AttentionArguments::*strides[] = {
      &AttentionArguments::q_batch_stride, &AttentionArguments::q_row_stride, &AttentionArguments::q_head_stride,
      &AttentionArguments::k_batch_stride, &AttentionArguments::k_row_stride, &AttentionArguments::k_head_stride,
      &AttentionArguments::v_batch_stride, &AttentionArguments::v_row_stride, &AttentionArguments::v_head_stride,
      &AttentionArguments::o_batch_stride, &AttentionArguments::o_row_stride, &AttentionArguments::o_head_stride};
  for (std::size_t i = 0; i < std::size(strides); ++i)
    for (int64_t bad : {int64_t(68), int64_t(-128), int64_t(1)}) {
      AttentionArguments a = valid();
      a.*strides[i] = bad;
      INFO("stride " << i << " = " << bad);
      refused(a, S::Misaligned, "strides must be positive multiples of 8 elements");
      a.*strides[i] = 4096;  // a multiple of 8 (a padded layout) runs
      CHECK(check_arguments(a));
    }
  for (const void* AttentionArguments::*p : {&AttentionArguments::q, &AttentionArguments::k, &AttentionArguments::v}) {
    AttentionArguments a = valid();
    a.*p = storage + 8;
    refused(a, S::Misaligned, "q, k, v and o must be 16-byte aligned");
  }
  AttentionArguments a = valid();
  a.o = storage + 776;
  refused(a, S::Misaligned, "q, k, v and o must be 16-byte aligned");
  // The f32 LSE and the int32 offsets: their elements' alignment (4 bytes), no more.
  a = valid(), a.lse = reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(lse_storage) + 2);
  refused(a, S::Misaligned, "lse must be 4-byte aligned (f32)");
  a.lse = lse_storage + 1;
  CHECK(check_arguments(a));
  a = valid(), a.total_q = a.total_k = 16;
  a.cu_seqlens_q = offsets, a.cu_seqlens_k = reinterpret_cast<const int*>(reinterpret_cast<const unsigned char*>(offsets) + 1);
  refused(a, S::Misaligned, "cu_seqlens_q and cu_seqlens_k must be 4-byte aligned (int32)");
  std::swap(a.cu_seqlens_q, a.cu_seqlens_k);
  refused(a, S::Misaligned, "cu_seqlens_q and cu_seqlens_k must be 4-byte aligned (int32)");
  a.cu_seqlens_q = offsets + 1, a.cu_seqlens_k = offsets + 3;
  CHECK(check_arguments(a));
}

TEST_CASE("attention arguments: the default strides are the packed (batch, row, head, dim) layout") {
  AttentionArguments a = valid();
  a.heads = 8, a.kv_heads = 2, a.head_dim = 64, a.seqlen_q = 100, a.seqlen_k = 70;
  const AttentionArguments d = with_default_strides(a);
  CHECK(d.q_head_stride == 64);
  CHECK(d.q_row_stride == 8 * 64);
  CHECK(d.q_batch_stride == 100 * 8 * 64);
  CHECK(d.o_batch_stride == d.q_batch_stride);
  CHECK(d.k_head_stride == 64);
  CHECK(d.k_row_stride == 2 * 64);  // K and V have kv_heads heads
  CHECK(d.k_batch_stride == 70 * 2 * 64);
  CHECK(d.v_batch_stride == d.k_batch_stride);
  a.q_row_stride = 1024;  // a caller's stride is kept
  CHECK(with_default_strides(a).q_row_stride == 1024);
}
