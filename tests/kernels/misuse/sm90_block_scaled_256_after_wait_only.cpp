// expect: or BM 256 with the row scales of A
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The 256-row block-scaled tile promotes atom by atom with one partial fragment: beside two atoms'
// 128 accumulators there is no room for the two sets the promotion under the next k-tile keeps.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float, tuple<_256, _128, _128>,
                            tuple<_2, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperativeFp8BlockScaledRowsOfAUnderNextKTile>;
static constexpr int s = B::Stages;
