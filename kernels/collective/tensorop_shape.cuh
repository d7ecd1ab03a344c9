// TensorOpShape: the tile configuration of the tensor-core mainloop (CTA tile, warps, stages,
// occupancy, rasterization band, L2 prefetch).
#pragma once

namespace tessera::kernels {

// Group: the rasterization band (tile_scheduler.cuh).  L2Prefetch: the bytes L2 fetches from
// DRAM per operand miss (cp.async's L2::64B/128B/256B hint; 128 is what ptxas picks unasked).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int Stages_, int MinBlocks_ = 1, int Group_ = 8,
          int L2Prefetch_ = 128>
struct TensorOpShape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, Stages = Stages_;
  static constexpr int MinBlocks = MinBlocks_;  // CTAs per SM the register budget is cut for
  static constexpr int Group = Group_, L2Prefetch = L2Prefetch_;
  static constexpr int Threads = WM * WN * 32;
  static constexpr int WarpM = BM / WM, WarpN = BN / WN;  // warp tile
  static constexpr int MT = WarpM / 16, NT = WarpN / 8;   // MMA atoms per warp
  static_assert(BK % 16 == 0 && WarpM % 16 == 0 && WarpN % 16 == 0, "tile must be made of 16x16x16 steps");
};

}  // namespace tessera::kernels
