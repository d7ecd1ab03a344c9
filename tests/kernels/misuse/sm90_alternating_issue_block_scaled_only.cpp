// expect: alternating issue: the block-scaled mainloop's two consumer warpgroups take turns
#include "collective/sm90_dispatch_policy.cuh"
using namespace tessera::kernels::sm90;
// (the turns hand the issue between two block-scaled consumer warpgroups; a plain mainloop has none)
using P = MainloopTmaWarpSpecializedCooperative<4, 2, 2, false, ConsumerIssue::Alternating>;
static constexpr int s = P::Stages;
