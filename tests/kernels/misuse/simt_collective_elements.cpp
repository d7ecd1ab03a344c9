// expect: CollectiveMma (SIMT): A and B are f32
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's SIMT TN parts (128x128x8, 3 stages, 256 threads), one of them replaced.
using B = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_128, _128, _8>,
                            tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
// f16 operands for the FFMA collective.
using Bad = CollectiveMma<B::DispatchPolicy, tuple<_128, _128, _8>, half_t, KMajor, half_t, KMajor, B::TiledMma, B::GmemTiledCopyA,
                          B::SmemLayoutA, B::SmemCopyAtomA, B::GmemTiledCopyB, B::SmemLayoutB, B::SmemCopyAtomB, trace::NoTrace>;
using K = gemm_kernel_t<GemmProblemShape, Bad, EpilogueSimt<Bad>, GroupedRasterization<8>>;
static_assert(std::is_same_v<K, GemmSimtKernel<GemmProblemShape, Bad, EpilogueSimt<Bad>, GroupedRasterization<8>>>);
