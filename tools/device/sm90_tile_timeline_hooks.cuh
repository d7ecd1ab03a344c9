// The clock stamps that tools/device/sm90_tile_timeline_patch.py inserts into a copy of the
// SM90 cooperative kernel (probe only: the library's kernels have none). One record of Slots
// u64 per (CTA, the CTA's j-th work unit, role): role 0 the producer thread, role 1 + w
// thread 0 of consumer warpgroup w. Stamps are clock64 (the SM's cycle counter: one clock for
// all warps of a CTA) except GlobalStart (%globaltimer, ns, to place CTAs against each other)
// and the totals (cycles). buffer == nullptr: nothing is written (the hooks still run).
#pragma once

#include <cstdint>

namespace tessera_tl {
constexpr int Slots = 24, Roles = 3, MaxParts = 2;
enum Slot : int {
  Start = 0,            // both: the unit's loop iteration began
  // consumer warpgroup (thread 0)
  C_FirstFull = 1,      // first k-tile's full barrier passed
  C_LastIssued = 2,     // last k-tile's wgmmas issued (committed)
  C_MainloopEnd = 3,    // wgmma.wait_group 0 returned
  C_FullWait = 4,       // total cycles spent in full-barrier waits (all k-tiles)
  C_EpilogueEnd = 5,    // Epilogue::store returned
  C_Part0 = 6,          // part H, 5 stamps: entry, store wait passed (leader), barrier 1, barrier 2, store committed
  // producer thread
  P_FirstAcquired = 1,  // first k-tile's empty barrier passed
  P_FirstIssued = 2,    // first k-tile's TMA loads issued
  P_LastIssued = 3,     // last k-tile's TMA loads issued
  P_EmptyWait = 4,      // total cycles spent in empty-barrier waits
  GlobalStart = 16,     // %globaltimer at Start
  Unit = 17,            // the scheduler's unit index
  Sm = 18,              // %smid
};
__host__ __device__ constexpr int part(int h, int event) { return C_Part0 + 5 * h + event; }
static_assert(part(MaxParts - 1, 4) < GlobalStart, "part stamps fit below the global slots");

__device__ unsigned long long* buffer;  // [gridDim.x][max_tiles][Roles][Slots]
__device__ int max_tiles;

__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}
// This CTA's record of its j-th unit for `role` (null when off or past max_tiles).
__device__ __forceinline__ unsigned long long* record(int j, int role) {
  unsigned long long* b = buffer;
  if (b == nullptr || j >= max_tiles) return nullptr;
  return b + ((size_t(blockIdx.x) * size_t(max_tiles) + size_t(j)) * Roles + size_t(role)) * Slots;
}
}  // namespace tessera_tl
