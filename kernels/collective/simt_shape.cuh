// SimtShape: the tile configuration of the SIMT (FFMA) mainloop.
#pragma once

namespace tessera::kernels {

// WarpGrid8x4: a warp's 32 lanes as 8 (m) x 4 (n) threads, warps as 2 x 4: a k step reads
// 8 distinct float4 of A and 4 of B per warp (one wavefront each) instead of the 16 x 2
// of a flat 16 x 16 thread grid (two wavefronts for A).
template <int BK_ = 8, int Stages_ = 3, bool WarpGrid8x4_ = false>
struct SimtShape {
  static constexpr int BM = 128, BN = 128, BK = BK_, Stages = Stages_, Threads = 256;
  static constexpr bool WarpGrid8x4 = WarpGrid8x4_;
  static constexpr int TM = 8, TN = 8;  // per-thread outer product
  static constexpr int Pitch = 128 + 4; // smem row pitch (floats)
};

}  // namespace tessera::kernels
