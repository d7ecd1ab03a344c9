// expect: an epilogue tree's stores are EpilogueTmaStore
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The ping-pong kernel stores each consumer's tile through a staging slot of its own while the
// other consumer computes: a tree runs there through TMA stores, never from the registers.
struct AnyTree;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_64, _128, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8, EpilogueTree<AnyTree, EpilogueDirect>>::CollectiveOp;
