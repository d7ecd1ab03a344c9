// expect: an FP8 D is e4m3, written by an epilogue tree with direct stores
#include "collective/collective_builder.hpp"
using namespace tessera;
using namespace tessera::kernels;
// An e4m3 D of FP8 inputs goes through a tree epilogue with direct stores (the quantized-output
// tree: sm90::Fp8QuantizedGemm); the TMA-store epilogue's staging holds 16- and 32-bit D only.
using B = CollectiveBuilder<arch::Sm90, OpClassTensorOp, float_e4m3_t, KMajor, 16, float_e4m3_t, KMajor, 16, float, tuple<_128, _256, _128>,
                            tuple<_2, _1, _1>, StageCountAuto, KernelTmaWarpSpecializedCooperative>;
using E = CollectiveEpilogueBuilder<B, float_e4m3_t, 16, EpilogueTmaStore>::CollectiveOp;
E* e = nullptr;
