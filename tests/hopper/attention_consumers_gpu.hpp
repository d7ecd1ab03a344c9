// The SM90 attention kernel at head dim 64 with two consumer warpgroups (AttentionConfig<T, 64,
// 128, 2>: Q tiles of 128 rows; the shipped kernel has three), launched directly (attention_consumers_gpu.cu, compiled for sm_90a) so that the GPU test checks the
// configuration not shipped on the cases the shipped kernels run.
#pragma once

#include "tessera/kernels/attention.hpp"

namespace tessera::kernels::sm90::attention {

// Checks `a` (can_implement) and launches the two-warpgroup kernel of its element type on the
// default stream; head dim 64 only (refused otherwise, with a reason).
AttentionResult run_two_consumers(AttentionArguments const& a);

// Runs `a` (packed tensors, head dim 64) through the two-warpgroup kernel with its grid in each
// order (kernels/kernel/sm90_attention_scheduler.hpp: longest_first, then tile_major) and
// compares O and LSE bit for bit: a CTA's result must not depend on when it runs. Fails with
// the first differing element named; leaves the tile_major run's outputs in a.o and a.lse.
AttentionResult check_orders_agree(AttentionArguments const& a);

}  // namespace tessera::kernels::sm90::attention
