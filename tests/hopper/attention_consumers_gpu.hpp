// The SM90 attention kernel with three consumer warpgroups (AttentionConfig<T, 64, 128, 3>: Q
// tiles of 192 rows), not shipped, launched directly (attention_consumers_gpu.cu, compiled for
// sm_90a) so that the GPU test checks it on the cases the shipped kernels run.
#pragma once

#include "tessera/kernels/attention.hpp"

namespace tessera::kernels::sm90::attention {

// Checks `a` (can_implement) and launches the three-warpgroup kernel of its element type on the
// default stream; head dim 64 only (refused otherwise, with a reason).
AttentionResult run_three_consumers(AttentionArguments const& a);

}  // namespace tessera::kernels::sm90::attention
