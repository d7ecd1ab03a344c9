// Two consumer warpgroups at head dim 64 (attention_consumers_gpu.hpp).
#include "attention_consumers_gpu.hpp"

#include "device/sm90_attention.cuh"

namespace tessera::kernels::sm90::attention {

AttentionResult run_two_consumers(AttentionArguments const& a) {
  if (auto r = can_implement(a); !r) return r;
  if (a.head_dim != 64) return {AttentionStatus::Unsupported, "two consumer warpgroups: head dim 64 only"};
  if (a.element == AttentionElement::BF16) return Sm90Attention<AttentionConfig<bfloat16_t, 64, 128, 2>>::run(a, nullptr);
  return Sm90Attention<AttentionConfig<half_t, 64, 128, 2>>::run(a, nullptr);
}

}  // namespace tessera::kernels::sm90::attention
