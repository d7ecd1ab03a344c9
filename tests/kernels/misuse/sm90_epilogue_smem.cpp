// expect: the epilogue's staging exceed the shared memory of a CTA
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// 7 stages of a 128x128x64 bf16 tile fit alone (229 KiB) but not beside the TMA-store staging.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float,
                            tuple<_128, _128, _64>, tuple<_1, _1, _1>, StageCount<7>, ScheduleAuto>;
using E = CollectiveEpilogueBuilder<B, bfloat16_t, 8>::CollectiveOp;
