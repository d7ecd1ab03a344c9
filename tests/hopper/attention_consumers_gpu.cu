// Two consumer warpgroups at head dim 64 (attention_consumers_gpu.hpp).
#include "attention_consumers_gpu.hpp"

#include <cstring>
#include <vector>

#include "device/sm90_attention.cuh"

namespace tessera::kernels::sm90::attention {

AttentionResult run_two_consumers(AttentionArguments const& a) {
  if (auto r = can_implement(a); !r) return r;
  if (a.head_dim != 64) return {AttentionStatus::Unsupported, "two consumer warpgroups: head dim 64 only"};
  if (a.element == AttentionElement::BF16) return Sm90Attention<AttentionConfig<bfloat16_t, 64, 128, 2>>::run(a, nullptr);
  return Sm90Attention<AttentionConfig<half_t, 64, 128, 2>>::run(a, nullptr);
}

namespace {
AttentionResult run_two_consumers(AttentionArguments const& a, TileOrder order) {
  if (a.element == AttentionElement::BF16) return Sm90Attention<AttentionConfig<bfloat16_t, 64, 128, 2>>::run(a, nullptr, order);
  return Sm90Attention<AttentionConfig<half_t, 64, 128, 2>>::run(a, nullptr, order);
}
}  // namespace

AttentionResult check_orders_agree(AttentionArguments const& a) {
  if (auto r = can_implement(a); !r) return r;
  if (a.head_dim != 64) return {AttentionStatus::Unsupported, "two consumer warpgroups: head dim 64 only"};
  const bool varlen = a.cu_seqlens_q != nullptr;
  const size_t rows = varlen ? size_t(a.total_q) : size_t(a.batch) * a.seqlen_q;
  const size_t o_bytes = rows * a.heads * a.head_dim * 2, lse_bytes = rows * a.heads * sizeof(float);
  std::vector<unsigned char> o[2], lse[2];
  const TileOrder orders[2] = {TileOrder::longest_first, TileOrder::tile_major};
  for (int i = 0; i < 2; ++i) {
    // (poisoned before each run: an element neither run writes differs from nothing)
    if (cudaMemset(a.o, 0xff, o_bytes) != cudaSuccess || (a.lse && cudaMemset(a.lse, 0xff, lse_bytes) != cudaSuccess))
      return {AttentionStatus::LaunchFailed, "cudaMemset"};
    if (auto r = run_two_consumers(a, orders[i]); !r) return r;
    o[i].resize(o_bytes), lse[i].resize(a.lse ? lse_bytes : 0);
    if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(o[i].data(), a.o, o_bytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
        (a.lse && cudaMemcpy(lse[i].data(), a.lse, lse_bytes, cudaMemcpyDeviceToHost) != cudaSuccess))
      return {AttentionStatus::LaunchFailed, cudaGetErrorString(cudaGetLastError())};
  }
  for (size_t e = 0; e < o_bytes / 2; ++e)
    if (std::memcmp(&o[0][2 * e], &o[1][2 * e], 2) != 0)
      return {AttentionStatus::InvalidArgument, "the grid orders disagree at O element " + std::to_string(e)};
  for (size_t e = 0; e < lse[0].size() / 4; ++e)
    if (std::memcmp(&lse[0][4 * e], &lse[1][4 * e], 4) != 0)
      return {AttentionStatus::InvalidArgument, "the grid orders disagree at LSE element " + std::to_string(e)};
  return {};
}

}  // namespace tessera::kernels::sm90::attention
