// expect: f16, bf16 or FP8 operands
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// Ping-pong takes 16-bit and 8-bit operands (each consumer's epilogue through its own TMA-store
// staging slot); f32 inputs multiplied as tf32 run on the cooperative kernel.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float, KMajor, 4, float, KMajor, 4, float, tuple<_64, _128, _32>,
                            tuple<_1, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedPingpong>;
static constexpr int s = B::Stages;
