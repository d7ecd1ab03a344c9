// expect: the epilogue runs on the mainloop's threads
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's bf16 TN mainloop (128x256x32, 256 threads, policy band 8).
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                            tuple<_1, _1, _1>, StageCount<4>, ScheduleAuto>;
using M = B::CollectiveOp;
// The right tile, but 128 threads where the TiledMma has 256.
using K = gemm_kernel_t<GemmProblemShape, M, EpilogueSmem16<128, 256, 128, bf16_tag>, SplitKRasterization<8>>;
