// expect: is a whole number of the tiled MMA's tiles
#include "collective/collective_builder.hpp"
#include "kernel/gemm_kernel.hpp"
using namespace tessera;
using namespace tessera::kernels;
// The builder's SIMT TN parts (128x128x8, 3 stages, 256 threads), one of them replaced.
using B = CollectiveBuilder<arch::Sm80, OpClassSimt, float, KMajor, 1, float, KMajor, 1, float, tuple<_128, _128, _8>,
                            tuple<_1, _1, _1>, StageCount<3>, ScheduleAuto>;
// A tiled MMA of 256 x 1 threads: a 256-row tile for a 128-row CTA tile.
using Mma = decltype(make_tiled_mma(UniversalFMA<float>{}, Layout<tuple<_256, _1, _1>, tuple<_1, _0, _0>>{}));
using Bad = CollectiveMma<B::DispatchPolicy, tuple<_128, _128, _8>, float, KMajor, float, KMajor, Mma, B::GmemTiledCopyA,
                          B::SmemLayoutA, B::SmemCopyAtomA, B::GmemTiledCopyB, B::SmemLayoutB, B::SmemCopyAtomB, trace::NoTrace>;
using K = gemm_kernel_t<GemmProblemShape, Bad, EpilogueSimt<Bad>, GroupedRasterization<8>>;
static_assert(std::is_same_v<K, GemmSimtKernel<GemmProblemShape, Bad, EpilogueSimt<Bad>, GroupedRasterization<8>>>);
