// expect: clusters along M (they share B by multicast) or along N (they share A)
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// A cluster shares one operand's tile by multicast: 2 x 2 CTAs would share both, which the
// mainloop's copies (one part per CTA of one shared tile) do not express.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _128, _64>,
                            tuple<_2, _2, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
static constexpr int s = B::Stages;
