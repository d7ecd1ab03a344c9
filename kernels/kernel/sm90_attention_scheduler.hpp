// Which CTA of the attention grid takes which (Q tile m, query head h, batch b): block l of a
// one-dimensional grid of tiles * heads * batch CTAs (one CTA per SM at a time: shared memory).
// The hardware starts the blocks in index order, each as an SM frees, so the order of the map
// is a list schedule; what it decides is the grid's last wave.
//   tile_major      m fastest, then h, then b: a head's CTAs run together and share its K and V
//                   in L2. Every Q tile reads the same key tiles without a mask, so the order
//                   cannot shorten the grid: kept for full attention.
//   longest_first   under a causal mask Q tile m reads about m + 1 of the key tiles, so
//                   tile_major starts each head's cheapest tiles first and leaves the
//                   heaviest for the last wave, where a few SMs finish long CTAs while the
//                   rest idle. Longest-processing-time-first order instead: the heaviest Q
//                   tiles first, the cheapest last (they fill the gaps). In varlen batches a high
//                   Q tile exists only in a long sequence, so the same order starts the long
//                   sequences first. For L2 reuse the head-batch pairs hb = b * heads + h are
//                   taken in sections of `section` pairs (kv_section: their K and V fit a share of
//                   L2): a section's tiles go heaviest first, its pairs fastest, so the CTAs that
//                   run together read the K and V of at most two sections. This is the grouped
//                   raster of the GEMM schedulers (tile_scheduler.cuh) over (hb, Q tiles from the
//                   last), with the section as its group.
// bench/notes/attention.md models both orders (list scheduling on 132 SMs) at the bench's shapes.
#pragma once

#include <cstdint>

#include "tessera/kernels/attention.hpp"
#include "tile_scheduler.cuh"

namespace tessera::kernels::sm90::attention {

enum class TileOrder : std::uint8_t { tile_major, longest_first };

struct AttentionTile {
  int m, h, b;  // Q tile, query head, batch
};

struct AttentionTileScheduler {
  int tiles = 1, heads = 1, batch = 1;  // Q tiles (of the longest sequence), query heads, batches
  int section = 1;                      // longest_first: head-batch pairs per section (>= 1)
  TileOrder order = TileOrder::tile_major;

  TESSERA_HOST_DEVICE constexpr std::int64_t blocks() const { return std::int64_t(tiles) * heads * batch; }
  // Whether the grid is one launch's: positive counts, blocks() within gridDim.x's 2^31 - 1 (the
  // map then divides in 32-bit words, inline on the GPU), a section of at least one pair.
  TESSERA_HOST_DEVICE constexpr bool valid() const {
    return tiles >= 1 && heads >= 1 && batch >= 1 && section >= 1 && blocks() <= INT32_MAX;
  }

  // Block `block` (0 <= block < blocks()) of a valid() schedule: a bijection onto
  // [0, tiles) x [0, heads) x [0, batch).
  TESSERA_HOST_DEVICE constexpr AttentionTile tile(int block) const {
    using I = std::uint32_t;
    if (order == TileOrder::tile_major) {
      const auto c = idx2crd(I(block), make_shape(I(tiles), I(heads), I(batch)));
      return {int(get<0>(c)), int(get<1>(c)), int(get<2>(c))};
    }
    const auto r = grouped_raster(I(block), I(heads) * I(batch), I(tiles), I(section));  // (hb, heaviness rank)
    const auto hb = idx2crd(r.m, make_shape(I(heads), I(batch)));
    return {tiles - 1 - int(r.n), int(get<0>(hb)), int(get<1>(hb))};
  }
};

// A persistent grid over a schedule's blocks: min(blocks, resident) CTAs (resident: the CTAs the
// device holds at once); CTA c's first block is c, its next ones one of two ways:
//   strided   blocks c + ctas, c + 2 ctas, ... (static: which CTA computes a tile never depends on
//             timing). The n-th blocks of the CTAs are consecutive in the schedule: under
//             longest_first each round of ctas tiles is the next heaviest, as the per-tile
//             grid's waves. Balanced where the tiles cost the same (full attention).
//   counter   the next unclaimed block: ctas + the ticket a CTA draws from a counter in global
//             memory (TileCounter: atomicAdd 1 on `next`), so the CTA that frees first takes
//             the next heaviest tile, as the hardware starts a per-tile grid's blocks (the
//             list schedule of longest_first), with each CTA's prologue hidden as in the
//             strided grid. Which CTA computes a tile depends on timing; what it computes does
//             not (every tile runs the same code): the outputs are the same bits.
// A CTA stops at the first block past the end. With the counter it then counts itself on
// `done`; the last CTA to count (its ticket on `done` is ctas - 1: every CTA has drawn its last
// ticket, so no `next` is drawn any more in this launch) zeroes both words, so that the next
// launch on the stream finds them zero. The words must be zero before the first launch.
struct TileCounter {
  std::uint32_t next = 0, done = 0;
};

struct PersistentGrid {
  int ctas = 1;
  TESSERA_HOST_DEVICE static constexpr PersistentGrid over(std::int64_t blocks, std::int64_t resident) {
    const std::int64_t c = blocks < resident ? blocks : resident;
    return {c < 1 ? 1 : int(c)};
  }
  // strided: CTA `cta`'s n-th block, and how many it takes of `blocks`.
  TESSERA_HOST_DEVICE constexpr std::int64_t block(int cta, std::int64_t n) const { return cta + n * ctas; }
  TESSERA_HOST_DEVICE constexpr std::int64_t blocks_of(int cta, std::int64_t blocks) const {
    return cta < blocks ? (blocks - cta + ctas - 1) / ctas : 0;
  }
  // counter: the block of ticket `ticket` (the value of `next` before the CTA's increment). A
  // launch draws `blocks` tickets in all (blocks - ctas that land inside, one past the end per
  // CTA), so the block stays below blocks + ctas <= 2^32 - 2 in 32-bit words.
  TESSERA_HOST_DEVICE constexpr std::uint32_t block_of_ticket(std::uint32_t ticket) const { return std::uint32_t(ctas) + ticket; }
  // Whether the CTA whose increment of `done` returned `done_before` is the last to finish.
  TESSERA_HOST_DEVICE constexpr bool last_to_finish(std::uint32_t done_before) const { return done_before + 1 == std::uint32_t(ctas); }
};

// How a launch covers the work tiles: a CTA per tile (the hardware starts them in the
// schedule's order as SMs free), or persistent CTAs, strided or by the counter (above).
enum class TileAssignment : std::uint8_t { per_tile, strided, counter };

// The rule (bench/notes/attention.md section 9, the scheduler test's model on 132 SMs):
//   PerTile     per_tile.
//   full attention, one length (every tile costs the same): strided, which is then the list
//               schedule with the prologue hidden (Auto and Persistent).
//   Persistent  the counter when one is given (`counter`: a workspace for TileCounter), else
//               strided.
//   Auto        under a causal mask with one length: the counter when one is given (the
//               model: 1.007-1.060x the per-tile grid at the bench's shapes), else per_tile
//               (strided balances worse than the hardware's dispatch: 0.81-1.005x, and no
//               static order without a per-launch table comes within 1 % of the counter);
//               varlen: per_tile (each tile past a sequence's end costs a persistent CTA a
//               ticket's round trip: the model gives the counter 0.97-1.04x, lower the more one
//               sequence outgrows the rest, and the host does not see the lengths).
constexpr TileAssignment tile_assignment(AttentionGrid grid, bool causal, bool varlen, bool counter) {
  if (grid == AttentionGrid::PerTile) return TileAssignment::per_tile;
  if (!causal && !varlen) return TileAssignment::strided;
  if (grid == AttentionGrid::Persistent) return counter ? TileAssignment::counter : TileAssignment::strided;
  return counter && causal && !varlen ? TileAssignment::counter : TileAssignment::per_tile;
}

// K and V of the heads that run together kept in this much of L2 (Hopper's is 50 MB, in two
// halves; the rest holds the Q tiles and outputs streaming through): FlashAttention-3's share.
inline constexpr std::int64_t kv_l2_budget = std::int64_t(32) << 20;

// The section: as many head-batch pairs as the K and V of their KV heads fit kv_l2_budget (at
// least one KV head), whole groups of the heads that share a KV head (grouped-query attention:
// query heads h / (heads / kv_heads) together), at most heads * batch.
constexpr int kv_section(int heads, int kv_heads, int batch, std::int64_t seqlen_k, int head_dim, int element_bytes) {
  const std::int64_t per_kv_head = 2 * seqlen_k * head_dim * element_bytes;  // K and V
  std::int64_t kv_per_section = per_kv_head > 0 ? kv_l2_budget / per_kv_head : kv_l2_budget;
  if (kv_per_section < 1) kv_per_section = 1;
  const std::int64_t pairs = std::int64_t(heads) * batch, group = heads / kv_heads;
  const std::int64_t section = kv_per_section > pairs / group ? pairs : kv_per_section * group;
  return int(section);
}

// The order a problem runs in: longest_first where its Q tiles' costs differ (causal, varlen),
// tile_major where they do not.
constexpr TileOrder tile_order_for(bool causal, bool varlen) { return causal || varlen ? TileOrder::longest_first : TileOrder::tile_major; }

}  // namespace tessera::kernels::sm90::attention
