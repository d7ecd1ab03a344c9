// expect: accumulators are stored by an EpilogueSmem16
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's bf16 TN mainloop (128x256x32, 256 threads, policy band 8).
using B = CollectiveBuilder<arch::Sm80, OpClassTensorOp, bfloat16_t, KMajor, 8, bfloat16_t, KMajor, 8, float, tuple<_128, _256, _32>,
                            tuple<_1, _1, _1>, StageCount<4>, ScheduleAuto>;
using M = B::CollectiveOp;
// A SIMT epilogue for the tensor-op mainloop.
using S = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_128, _128, _8>, tuple<_1, _1, _1>,
                            StageCount<3>, ScheduleAuto>;
using K = gemm_kernel_t<GemmProblemShape, M, CollectiveEpilogueBuilder<S, float, 1>::CollectiveOp, SplitKRasterization<8>>;
