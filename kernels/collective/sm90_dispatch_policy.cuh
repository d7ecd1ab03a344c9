// Dispatch policies of the SM90 mainloops: how the warps of a CTA share the work.
#pragma once

#include "tessera/atom/detail/mma_ops.hpp"  // GMMA::warpgroup_threads

namespace tessera::kernels::sm90 {

// setmaxnreg shares the SM's 64K registers out among the warpgroups: the producer's and the
// consumers' registers per thread, at one CTA per SM.
constexpr bool registers_fit(int producer_registers, int consumer_warpgroups, int consumer_registers) {
  return GMMA::warpgroup_threads * (producer_registers + consumer_warpgroups * consumer_registers) <= 64 * 1024;
}

// TMA + wgmma, warp-specialized, cooperative: one producer warpgroup (one thread issues the
// TMA copies of A and B into a ring of `Stages` shared-memory stages) and
// `ConsumerWarpgroups` consumer warpgroups that split each CTA tile along M and issue wgmma;
// the producer gives registers away (setmaxnreg) to the consumers' accumulators.
// ClusterM CTAs of a cluster take ClusterM consecutive M-tiles of one N column: each loads
// 1/ClusterM of the shared B tile and multicasts it to all of them (L2 reads of B / ClusterM).
// Or ClusterN CTAs take ClusterN consecutive N-tiles of one M row and share the A tile the same
// way (L2 reads of A / ClusterN): the cluster shares the larger operand where BM > BN. A
// cluster runs along one of the two (ClusterM or ClusterN is 1).
// BlockScaled_ (FP8 with DeepSeek-V3's block scales, ScaleMode::Block): each 128-element k-tile
// accumulates into a fragment of its own, which the consumers scale by the tile's row and block
// scales and add into the accumulators (a compile-time branch of the mainloop: the other
// kernels carry none of it).
// How the consumer warpgroups of a cooperative tile issue their wgmmas (block-scaled only: each
// k-tile's promotion waits for the warpgroup's own wgmmas):
//   Together     each as soon as its stage is full: both warpgroups' wgmmas of a k-tile reach the
//                tensor cores side by side, retire together, and both promote while the tensor
//                cores idle (the two stay in step from then on)
//   Alternating  in turns (warpgroup 0, 1, 0, ...: a named-barrier hand-off after each k-tile's
//                issue), so one warpgroup's k-tile runs on the tensor cores while the other
//                promotes the k-tile before it; the promotion is hidden when it takes less than
//                one warpgroup's k-tile of wgmmas (two consumer warpgroups only)
enum class ConsumerIssue { Together, Alternating };

// Which operand's rows carry the block-scaled mainloop's per-row scales (DeepSeek-V3's 1 x 128
// activation scales), the other operand's carrying the 128 x 128 block scales:
//   RowsOfB   the tile's columns (D^T: the kernel's A the weight, B the tokens): each
//             accumulator column has its own scale, BN/4 shared loads and multiplies per thread
//             and k-tile
//   RowsOfA   the tile's rows (D row-major: A the tokens, B the weight): a consumer thread's
//             accumulators lie in 2 rows per 64-row wgmma atom, so it needs 2 row scales and
//             one block scale per 128 columns of the tile per k-tile
enum class ScaledRows { RowsOfB, RowsOfA };

// When the block-scaled mainloop (ScaledRows::RowsOfA) promotes a k-tile's partial sums:
//   AfterWait       one set of partial sums: each k-tile's wgmmas are waited for (wait_group 0)
//                   and promoted before the next k-tile is issued, so the warpgroup's tensor
//                   core work stops for every promotion
//   UnderNextKTile  two sets: k-tile k+1's wgmmas are issued into the other set before k-tile k
//                   is waited for (wait_group 1), so k-tile k is promoted and its stage released
//                   while k+1 runs (sm90_block_promotion.hpp: the order; 64 more registers per
//                   consumer thread at 128 columns); the same sums, bit for bit
enum class BlockPromotion { AfterWait, UnderNextKTile };

template <int Stages_, int ConsumerWarpgroups_ = 2, int ClusterM_ = 1, bool BlockScaled_ = false,
          ConsumerIssue Issue_ = ConsumerIssue::Together, ScaledRows Rows_ = ScaledRows::RowsOfB,
          BlockPromotion Promotion_ = BlockPromotion::AfterWait, int ClusterN_ = 1>
struct MainloopTmaWarpSpecializedCooperative {
  static_assert(Stages_ >= 2, "a TMA pipeline needs at least 2 stages to overlap copies with math");
  static_assert(ClusterM_ == 1 || ClusterM_ == 2 || ClusterM_ == 4, "clusters of 1, 2 or 4 CTAs along M");
  static_assert(ClusterN_ == 1 || ClusterN_ == 2 || ClusterN_ == 4, "clusters of 1, 2 or 4 CTAs along N");
  static_assert(ClusterM_ == 1 || ClusterN_ == 1, "a cluster runs along M or along N");
  static constexpr int Stages = Stages_;
  static constexpr int ConsumerWarpgroups = ConsumerWarpgroups_;
  static constexpr int ClusterM = ClusterM_;
  static constexpr int ClusterN = ClusterN_;
  static constexpr bool BlockScaled = BlockScaled_;
  static constexpr ConsumerIssue Issue = Issue_;
  static constexpr ScaledRows Rows = Rows_;
  static constexpr BlockPromotion Promotion = Promotion_;
  static_assert(Rows_ == ScaledRows::RowsOfB || BlockScaled_, "row scales of A: the block-scaled mainloop only");
  static_assert(Promotion_ == BlockPromotion::AfterWait || (BlockScaled_ && Rows_ == ScaledRows::RowsOfA && Issue_ == ConsumerIssue::Together),
                "the promotion under the next k-tile: the block-scaled mainloop with row scales of A, consumers together");
  static_assert(Issue_ == ConsumerIssue::Together || (BlockScaled_ && ConsumerWarpgroups_ == 2),
                "alternating issue: the block-scaled mainloop's two consumer warpgroups take turns");
  static constexpr int Threads = GMMA::warpgroup_threads * (1 + ConsumerWarpgroups_);
  // Registers per thread after setmaxnreg.
  static constexpr int ProducerRegisters = 40;
  static constexpr int ConsumerRegisters = 232;
  static_assert(registers_fit(ProducerRegisters, ConsumerWarpgroups, ConsumerRegisters), "the warpgroups' registers fit the SM's 64K");
};

// TMA + wgmma, warp-specialized, ping-pong: the producer warpgroup as above and two consumer
// warpgroups that each own a whole 64 x BN tile and take the CTA's tiles in turn (even units
// the first, odd the second); their mainloops run one after the other (an ordering barrier,
// kernel/sm90_pingpong_order.hpp), so one's epilogue runs under the other's wgmmas. The
// mainloop sees one warpgroup per tile (ConsumerWarpgroups = 1: BM = 64, one wgmma atom along
// M, 4 empty-barrier arrivals per stage and CTA); the kernel runs MathWarpgroups of them.
template <int Stages_, int ClusterM_ = 1>
struct MainloopTmaWarpSpecializedPingpong {
  static_assert(Stages_ >= 2, "a TMA pipeline needs at least 2 stages to overlap copies with math");
  static_assert(ClusterM_ == 1 || ClusterM_ == 2 || ClusterM_ == 4, "clusters of 1, 2 or 4 CTAs along M");
  static constexpr int Stages = Stages_;
  static constexpr int ConsumerWarpgroups = 1;  // per tile
  static constexpr int MathWarpgroups = 2;      // per CTA, alternating tiles
  static constexpr int ClusterM = ClusterM_;
  static constexpr int ClusterN = 1;
  static constexpr bool BlockScaled = false;
  static constexpr ConsumerIssue Issue = ConsumerIssue::Together;
  static constexpr ScaledRows Rows = ScaledRows::RowsOfB;
  static constexpr BlockPromotion Promotion = BlockPromotion::AfterWait;
  static constexpr int Threads = GMMA::warpgroup_threads * (1 + MathWarpgroups);
  static constexpr int ProducerRegisters = 40;
  static constexpr int ConsumerRegisters = 232;
  static_assert(registers_fit(ProducerRegisters, MathWarpgroups, ConsumerRegisters), "the warpgroups' registers fit the SM's 64K");
};

}  // namespace tessera::kernels::sm90
