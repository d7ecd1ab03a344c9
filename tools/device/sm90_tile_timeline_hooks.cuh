// The clock stamps that tools/device/sm90_tile_timeline_patch.py inserts into a copy of the
// SM90 cooperative kernel's whole-tile path (probe only: the library's kernels have none). One
// record of Slots u64 per (CTA, the CTA's j-th work unit, role): role 0 the producer thread,
// role 1 + w thread 0 of consumer warpgroup w. Stamps are clock64 (the SM's cycle counter: one
// clock for all warps of a CTA) except the globaltimer ones (ns: to place CTAs against each
// other and to measure the SM clock) and the totals (cycles). buffer == nullptr: nothing is
// written (the hooks still run).
// Epilogue orders (sm90_epilogue_order.hpp where the tree has it): after the tile, the
// epilogue's stamps follow the unit's mainloop; under the next tile, a unit's record holds its
// own mainloop, its values packed, then (after the next unit's first k-tiles were issued) its
// staging and stores.
#pragma once

#include <cstdint>

#include "timeline_clock.cuh"

namespace tessera_tl {
constexpr int Slots = 32, Roles = 3, MaxParts = 2, PartEvents = 5;
enum Slot : int {
  Start = 0,         // both: the unit's loop iteration (under the next tile: take()) began
  // consumer warpgroup (thread 0)
  C_FirstFull = 1,   // first k-tile's full barrier passed
  C_LastIssued = 2,  // last k-tile's wgmmas issued (committed)
  C_MainloopEnd = 3, // wgmma.wait_group 0 returned
  C_FullWait = 4,    // total cycles spent in full-barrier waits (all k-tiles)
  C_EpiStart = 5,    // after the tile: before the epilogue (FP8 scales, Epilogue::store); under
                     // the next tile: pack() entered
  C_PackEnd = 6,     // under the next tile: pack() returned (the accumulators free)
  C_StoreStart = 7,  // under the next tile: store_packed() entered (the next unit's head issued)
  C_EpilogueEnd = 8, // Epilogue::store (store_packed) returned: the last part's TMA store committed
  C_Part0 = 9,       // part H, PartEvents stamps from part(H, 0): entry, the leader's store wait
                     // passed, staging barrier 1 passed, staged + barrier 2 passed, TMA store committed
  // producer thread
  P_FirstAcquired = 1,  // first k-tile's empty barrier passed
  P_FirstIssued = 2,    // first k-tile's TMA loads issued
  P_LastIssued = 3,     // last k-tile's TMA loads issued
  P_EmptyWait = 4,      // total cycles spent in empty-barrier waits
  // both
  GlobalStart = 24,  // %globaltimer at Start
  GlobalEnd = 25,    // consumer: %globaltimer at C_EpilogueEnd
  Unit = 26,         // the scheduler's unit index
  Sm = 27,           // %smid
  KTiles = 28,       // the unit's k-tiles
};
__host__ __device__ constexpr int part(int h, int event) { return C_Part0 + PartEvents * h + event; }
static_assert(part(MaxParts - 1, PartEvents - 1) < GlobalStart, "part stamps fit below the global slots");

__device__ unsigned long long* buffer;  // [gridDim.x][max_tiles][Roles][Slots]
__device__ int max_tiles;

using timeline::gtime;
using timeline::smid;
// This CTA's record of its j-th unit for `role` (null when off or past max_tiles).
__device__ __forceinline__ unsigned long long* record(int j, int role) {
  unsigned long long* b = buffer;
  if (b == nullptr || j >= max_tiles) return nullptr;
  return b + ((size_t(blockIdx.x) * size_t(max_tiles) + size_t(j)) * Roles + size_t(role)) * Slots;
}
// A unit's record begun: its start (clock64 and globaltimer), unit and SM.
__device__ __forceinline__ void begin(unsigned long long* r, long long unit) {
  if (r == nullptr) return;
  r[GlobalStart] = gtime();
  r[Start] = clock64();
  r[Unit] = (unsigned long long)unit;
  r[Sm] = smid();
}
__device__ __forceinline__ void stamp(unsigned long long* r, int slot) {
  if (r != nullptr) r[slot] = clock64();
}
// The epilogue's end: clock64 and globaltimer (the SM clock's measure).
__device__ __forceinline__ void end(unsigned long long* r) {
  if (r == nullptr) return;
  r[C_EpilogueEnd] = clock64();
  r[GlobalEnd] = gtime();
}
}  // namespace tessera_tl
