// expect: covers its operand tile (BM|BN, BK) in whole copy tiles
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's SIMT TN parts (128x128x8, 3 stages, 256 threads), one of them replaced.
using B = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_128, _128, _8>,
                            tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
// Copies of 16-float K rows (a BK = 16 collective) for a BK = 8 tile.
using Deep = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_128, _128, _16>,
                               tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
using Bad = CollectiveMma<B::DispatchPolicy, tuple<_128, _128, _8>, float, KMajor, float, KMajor, B::TiledMma, Deep::GmemTiledCopyA,
                          B::SmemLayoutA, B::SmemCopyAtomA, B::GmemTiledCopyB, B::SmemLayoutB, B::SmemCopyAtomB, trace::NoTrace>;
using K = gemm_kernel_t<GemmProblemShape, Bad, EpilogueSimt<Bad>, GroupedRasterization<8>>;
static_assert(std::is_same_v<K, GemmSimtKernel<GemmProblemShape, Bad, EpilogueSimt<Bad>, GroupedRasterization<8>>>);
