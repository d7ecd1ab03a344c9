// expect: no epilogue tree
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The tree epilogues keep one staging slot (cooperative kernels): the ping-pong kernel, which
// stores each consumer's tile through a slot of its own, takes no tree (through TMA stores;
// from the registers the ping-pong rule refuses it: the epilogue is EpilogueTmaStore).
struct AnyTree;
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_64, _128, _64>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8, EpilogueTree<AnyTree, EpilogueTmaStore>>::CollectiveOp;
