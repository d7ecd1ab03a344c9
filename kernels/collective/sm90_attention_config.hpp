// The SM90 attention kernel's tile: its two tiled MMAs, shared-memory tiles and the P retile
// (static tier: host tests check what the kernel relies on, without a GPU).
//
//   S = Q K^T   TiledMmaS: wgmma SS, m64 n(bN) k16, Consumers warpgroups along M: a CTA's
//               (bM = 64 Consumers, bN) tile of S, warpgroup w rows 64w..64w+63. Q (bM, D) and K (bN, D)
//               in smem, both K-major (D contiguous, as (seqlen, heads, D) tensors store them).
//   O += P V    TiledMmaO: wgmma RS, m64 n(D) k16: A = P from registers, B = V from smem as an
//               (N = D, K = bN) operand, MN-major (D contiguous again: the transpose is the
//               descriptor's, no data moves).
//   P           S's accumulators rounded to T and read as TiledMmaO's A fragment through
//               PRetile = accumulator_as_operand_A(TiledMmaS, TiledMmaO, (bM, bN)).
#pragma once

#include <type_traits>

#include "tessera/algorithm.hpp"
#include "tessera/algorithm/accumulator_retile.hpp"
#include "tessera/atom/gmma_layout.hpp"
#include "tessera/atom/mma_sm90.hpp"

namespace tessera::kernels::sm90::attention {

using GMMA::Major;

// BN: keys per tile (a multiple of 16, at most 256: wgmma's N for S, its K for P V).
// Consumers: consumer warpgroups, 64 rows of Q each (2 or 3), taking turns on the tensor cores
// in a ring (ConsumerTurnProtocol). More warpgroups leave each fewer registers: 3 fit S, P and
// O of a (64, 128) key tile at head dim 64, as FlashAttention-3 runs it.
template <class T, int D, int BN = 128, int NConsumers = 2>
struct AttentionConfig {
  static_assert(std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t>, "sm90 attention: bf16 or f16 inputs");
  static_assert(D == 64 || D == 128 || D == 256, "sm90 attention: head dims 64, 128 and 256");
  static_assert(BN % 16 == 0 && BN >= 16 && BN <= 256, "sm90 attention: key tiles of 16 to 256 keys, in steps of 16");
  static_assert(NConsumers == 2 || NConsumers == 3, "sm90 attention: 2 or 3 consumer warpgroups (the turn barriers' range)");
  using Element = T;
  static constexpr int head_dim = D;
  static constexpr int Consumers = NConsumers;  // warpgroups, 64 rows of Q each
  static constexpr int bM = 64 * Consumers, bN = BN;  // Q rows, K/V rows per tile
  static constexpr int Stages = 2;                    // K/V tiles in flight
  static constexpr int Threads = 128 * (1 + Consumers);
  // setmaxnreg: the producer gives registers up to the consumers, whose S (bN / 2 per thread),
  // P (bN / 4) and O (D / 2) live together. Values a multiple of 8 in [24, 256]. (Three
  // consumers at 160 cannot hold D 256's O: 128 registers before S, P and addresses.)
  static constexpr int producer_registers = 24;
  static constexpr int consumer_registers = Consumers == 2 ? 240 : 160;
  static_assert(producer_registers % 8 == 0 && consumer_registers % 8 == 0 && producer_registers >= 24 && consumer_registers <= 256,
                "setmaxnreg takes multiples of 8 in [24, 256]");
  static_assert(128 * (producer_registers + Consumers * consumer_registers) <= 65536, "the CTA's registers fit an SM's 65536");

  template <int N, Major A, Major B>
  using AtomSS = std::conditional_t<std::is_same_v<T, bfloat16_t>, SM90_64xNx16_F32BF16BF16_SS<N, A, B>, SM90_64xNx16_F32F16F16_SS<N, A, B>>;
  template <int N, Major A, Major B>
  using AtomRS = std::conditional_t<std::is_same_v<T, bfloat16_t>, SM90_64xNx16_F32BF16BF16_RS<N, A, B>, SM90_64xNx16_F32F16F16_RS<N, A, B>>;
  using WarpgroupsAlongM = decltype(make_layout(make_shape(C<Consumers>{}, _1{}, _1{})));
  using TiledMmaS = decltype(make_tiled_mma(AtomSS<bN, Major::K, Major::K>{}, WarpgroupsAlongM{}));
  using TiledMmaO = decltype(make_tiled_mma(AtomRS<D, Major::K, Major::MN>{}, WarpgroupsAlongM{}));

  using TileS = tuple<C<bM>, C<bN>>;  // S (M, N), and P as O's A operand (M, K)
  using TileO = tuple<C<bM>, C<D>>;   // O (M, N)
  using TileQ = tuple<C<bM>, C<D>>;   // Q as S's A operand (M, K)
  using TileK = tuple<C<bN>, C<D>>;   // K as S's B operand (N, K)
  using TileV = tuple<C<D>, C<bN>>;   // V as O's B operand (N, K)

  // 128-byte swizzled GMMA atoms: a 64-, 128- or 256-element row of 16-bit values is 1, 2 or 4
  // atoms (and a TMA box each: TmaMaps' four boxes a tile).
  using SmemQ = decltype(GMMA::make_smem_layout<16, Major::K, 128>(TileQ{}));
  using StageK = decltype(GMMA::make_smem_layout<16, Major::K, 128>(TileK{}));
  // V walks K (its rows) first: a box of 64 D x bN rows is then one dense run of atoms.
  using KFirst = tuple<_2, _1, _3>;
  using StageV = decltype(GMMA::make_smem_layout<16, Major::MN, 128>(TileV{}, tuple<_2, _1>{}));
  using SmemK = decltype(GMMA::make_smem_layout<16, Major::K, 128>(make_shape(C<bN>{}, C<D>{}, C<Stages>{})));
  using SmemV = decltype(GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(C<D>{}, C<bN>{}, C<Stages>{}), KFirst{}));
  static constexpr int q_elements = bM * D, kv_stage_elements = bN * D;
  // Q and the K and V stages (SharedStorage adds the barriers and its 1 KiB alignment): what
  // bounds bN at head dim 256 (80 keys: 224 KiB).
  static constexpr int tile_bytes = int(sizeof(T)) * (q_elements + 2 * Stages * kv_stage_elements);
  static_assert(tile_bytes <= 226 * 1024, "sm90 attention: Q and the K and V stages fit 227 KiB of shared memory with the barriers");

  // A-fragment index of TiledMmaO -> accumulator index of TiledMmaS (the P retile).
  using PRetile = decltype(accumulator_as_operand_A(TiledMmaS{}, TiledMmaO{}, TileS{}));
  // The rows of S: a value's row slot, and the lanes sharing its row.
  using RowSlots = decltype(row_slots(TiledMmaS{}, TileS{}));
  static constexpr int rows_per_thread = decltype(cosize(RowSlots{}))::value;
  static constexpr int row_lanes = row_lane_mask(TiledMmaS{}, TileS{});
  // O's rows: the same slots (the host test checks slot r is the same row in S and O).
  using RowSlotsO = decltype(row_slots(TiledMmaO{}, TileO{}));
};

// The shipped kernels' configurations: 192 keys per tile and two consumer warpgroups at head dim
// 128, 128 keys and three consumer warpgroups (Q tiles of 192 rows) at head dim 64, 80 keys and
// two at 256. Measured on an H200 (tools/device/attention_tiles.cu, B4 H16 bf16, S 4096 and
// 16384, full and causal, in alternating pairs in one process): at D 128, 176 keys 1.07-1.16x
// and 192 keys 1.09-1.19x the 128-key tile (each tile's softmax, rescaling and turn-taking
// spread over more keys); at D 64, 192 keys 0.98-1.02x, and three consumers 1.03-1.18x two (a
// D 64 tile's GEMMs are half as long, so two warpgroups taking turns leave the tensor cores idle
// while each runs its softmax; a third fills them, at 160 registers a thread, which D 64's
// accumulators fit without spilling).
// At head dim 256, two consumer warpgroups and 80 keys (FlashAttention-3's tile at this head
// dim): O alone is 128 f32 registers a thread (64 x 256 per warpgroup), S 40 and P 20 more,
// within setmaxnreg's 240 without spilling (ptxas); a third warpgroup would leave 160, less
// than O and S. Shared memory bounds bN: Q 64 KiB and two stages of K and V at 40 KiB each,
// 224 KiB of the 227 (96 keys would need 256 KiB; 64 keys, 192 KiB, also compile without
// spills: tools/device/attention_tiles.cu compares the two).
template <class T, int D>
using DefaultConfig = AttentionConfig<T, D, D == 256 ? 80 : D == 128 ? 192 : 128, D == 64 ? 3 : 2>;

}  // namespace tessera::kernels::sm90::attention
