// expect: ping-pong): clusters along M only
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The ping-pong kernel takes its CTA tiles along M in a cluster; clusters along N are the
// cooperative kernel's.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_64, _128, _64>,
                            tuple<_1, _2, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
static constexpr int s = B::Stages;
