// The attention kernel's problem on the device: the tensors' geometry, one CTA's work item
// (batch b, head h, Q tile m), and the ranges of rows and key tiles it covers.
#pragma once

#include <cstdint>

#include "tessera/config.hpp"

namespace tessera::kernels::sm90::attention {

struct Problem {
  int batch, heads, kv_heads, seqlen_q, seqlen_k;
  int total_q;      // varlen: rows of the packed Q (LSE is (heads, total_q))
  const int* cu_q;  // varlen offsets (batch + 1), or null
  const int* cu_k;
  float scale;  // softmax scale
  bool causal;
};

// One CTA's rows of Q: sequence b's rows [q_begin + row0, ...) of sq rows, keys [k_begin, k_begin + sk).
struct WorkItem {
  int b, h, m;             // batch, query head, Q tile
  int q_begin, k_begin;    // the sequence's first row in the tensor (varlen; else 0)
  int sq, sk;              // the sequence's lengths
  int batch_coord;         // the TMA coordinate of the batch mode (0 for varlen: rows are global)
  int key_tiles;           // bN-wide key tiles this Q tile reads (causal: up to the diagonal)
  TESSERA_HOST_DEVICE bool empty_rows(int bM) const { return m * bM >= sq; }
  // The key tiles j < unmasked_tiles(...) hold no masked (row, column) for any of the Q tile's
  // bM rows: whole columns of the sequence, and (causal) left of the tile's first row's
  // diagonal, which is the strictest of its rows. The masked tiles are the rest, a suffix:
  // the mainloop runs the unmasked ones without the mask's code or registers.
  TESSERA_HOST_DEVICE int unmasked_tiles(int bM, int bN, bool causal) const {
    int whole = sk / bN;
    if (causal) {
      const int first_row_sees = m * bM + (sk - sq) + 1;  // columns [0, this) for row m * bM
      const int diagonal = first_row_sees <= 0 ? 0 : first_row_sees / bN;
      whole = diagonal < whole ? diagonal : whole;
    }
    return whole < key_tiles ? whole : key_tiles;
  }
};

TESSERA_HOST_DEVICE inline WorkItem work_item(Problem const& p, int m, int h, int b, int bM, int bN) {
  WorkItem w{b, h, m, 0, 0, p.seqlen_q, p.seqlen_k, b, 0};
  if (p.cu_q != nullptr) {
    w.q_begin = p.cu_q[b], w.sq = p.cu_q[b + 1] - w.q_begin;
    w.k_begin = p.cu_k[b], w.sk = p.cu_k[b + 1] - w.k_begin;
    w.batch_coord = 0;
  }
  int visible = w.sk;  // columns any row of the tile may see
  if (p.causal) {
    const int last_row = (m + 1) * bM < w.sq ? (m + 1) * bM - 1 : w.sq - 1;
    const int v = last_row + (w.sk - w.sq) + 1;
    visible = v < 0 ? 0 : (v < w.sk ? v : w.sk);
  }
  w.key_tiles = (visible + bN - 1) / bN;
  return w;
}

// The consumer warpgroups' turns on the tensor cores, a ring (ConsumerTurns runs it on one
// named barrier per warpgroup, each counting 256 threads: its own warpgroup's sync and its
// predecessor's arrival): a consumer takes turns(key_tiles) turns; in each, warpgroup w syncs
// on its own barrier, issues its wgmmas and arrives at next(w)'s (passes), so the turns go
// 0, 1, ..., Consumers - 1, 0, ... The last warpgroup arrives once at warpgroup 0's barrier
// before its first turn, and does not pass after its last (nobody would wait for it), so each
// barrier's arrivals pair with its syncs. The host test runs every interleaving of 2 and of 3
// warpgroups against a model of the barriers: no deadlock, the turns go round in order, no
// barrier phase takes two arrivals from one warpgroup, all end idle.
template <int Consumers>
struct ConsumerTurnProtocol {
  static_assert(Consumers >= 2, "turns between two or more warpgroups");
  TESSERA_HOST_DEVICE static constexpr int turns(int key_tiles) { return key_tiles + 1; }
  TESSERA_HOST_DEVICE static constexpr bool arrives_before_first(int warpgroup) { return warpgroup == Consumers - 1; }
  TESSERA_HOST_DEVICE static constexpr bool passes(int warpgroup, bool last_turn) { return !(last_turn && warpgroup == Consumers - 1); }
  // The warpgroup whose barrier w arrives at: the next in the ring.
  // (Two: the other one, as 1 - w, which compiles to the ping-pong's code.)
  TESSERA_HOST_DEVICE static constexpr int next(int warpgroup) {
    if constexpr (Consumers == 2) return 1 - warpgroup;
    else return warpgroup == Consumers - 1 ? 0 : warpgroup + 1;
  }
};

// The Q buffer's handshake over a CTA's work tiles (those that read keys): the n-th Q load
// (n = 0, 1, ...) completes q_full's phase n, which the consumers wait for at parity n & 1;
// the consumers' n-th release completes q_empty's phase n, which the producer waits for, at
// parity n & 1, before load n + 1. The K and V rings' PipelineStates run on across tiles.
struct QBufferPhase {
  TESSERA_HOST_DEVICE static constexpr std::uint32_t full_parity(int use) { return std::uint32_t(use) & 1u; }
  TESSERA_HOST_DEVICE static constexpr bool waits_empty(int load) { return load > 0; }
  TESSERA_HOST_DEVICE static constexpr std::uint32_t empty_parity(int load) { return std::uint32_t(load - 1) & 1u; }
};

// The work tiles' handoff: the scheduler thread names each of its CTA's work tiles (the block in
// the schedule, then an end word) to the consumer warps through a HandoffRing of this many
// slots (SharedStorage::tiles), so that it may name the next tile, which the producer starts
// loading, while the consumers still run this one.
inline constexpr int tile_ring_slots = 2;

// Whether key column c (of the sequence) is masked for query row r.
TESSERA_HOST_DEVICE inline bool masked(WorkItem const& w, bool causal, int r, int c) {
  return c >= w.sk || (causal && c > r + (w.sk - w.sq));
}

}  // namespace tessera::kernels::sm90::attention
