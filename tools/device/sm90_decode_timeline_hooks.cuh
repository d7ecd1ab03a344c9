// The clock stamps that tools/device/sm90_decode_timeline_patch.py inserts into a copy of the
// SM90 cooperative kernel's Stream-K path (the decode kernel, sm90::DecodeGemm; probe only: the
// library's kernels have none). Two arrays:
//   cta[CTA][CtaSlots]: the CTA's entry (globaltimer and clock64), its barriers ready, the
//     producer's walk begun and done, each consumer warpgroup's end (after Epilogue::finish);
//   steps[CTA][step][role][Slots]: one record per step of the CTA's Stream-K walk and role:
//     role 0 the producer thread, role 1 + w thread 0 of consumer warpgroup w.
// Stamps are clock64 (the SM's cycle counter, one for all warps of a CTA), except the
// globaltimer ones (ns, to place CTAs against each other) and the totals (cycles).
// buffer == nullptr: nothing is written (the hooks still run).
#pragma once

#include <cstdint>

#include "timeline_clock.cuh"

namespace tessera_dtl {
constexpr int MaxSteps = 8, Roles = 3, Slots = 32, CtaSlots = 16;

enum CtaSlot : int {
  GStart = 0,     // %globaltimer at the CTA's entry (thread 0)
  CStart = 1,     // clock64 at the same moment
  CReady = 2,     // thread 0 after the barrier that follows barrier init and the tensor-map prefetch
  PStart = 3,     // producer thread: registers given back, walk begins
  PEnd = 4,       // producer thread: its last TMA issued, walk returned
  C1End = 5,      // consumer warpgroup 1's thread 0 after the walk and Epilogue::finish
  C2End = 6,      // the same, warpgroup 2
  GEnd = 7,       // %globaltimer at C1End
  Sm = 8,         // %smid
  Valid = 9,      // 1 once the CTA started
};

enum Slot : int {
  Start = 0,   // the step's loop iteration began (clock64)
  Tile = 1,    // the cluster tile, its k-tiles [KBegin, KEnd), its role (0 Whole, 1 Partial,
  KBegin = 2,  // 2 Owner), its Stream-K unit (-1: data-parallel) and an owner's first peer
  KEnd = 3,
  Role = 4,
  Unit = 5,
  FirstPeer = 6,
  // consumer warpgroup (thread 0 of the warpgroup)
  C_FirstFull = 7,     // the step's first k-tile's full barrier passed
  C_LastIssued = 8,    // the last k-tile's wgmmas issued (committed)
  C_MainloopEnd = 9,   // wgmma.wait_group 0 returned
  C_FullWait = 10,     // total cycles in full-barrier waits over the step's k-tiles
  C_RoleStart = 11,    // the step recomputed after the mainloop: its fix-up or epilogue begins
  C_WriteFenced = 12,  // Partial: the partial's st.cg stores issued (not waited for)
  C_WriteBarrier = 13, // Partial: arrived at the publisher's barrier (the consumers go on)
  C_FlagRaised = 14,   // Partial: the publisher warp's fence and flag done (its stamp, in each
                       // consumer warpgroup's record of the step)
  C_AwaitEnd = 15,     // Owner (consumer thread 0 only): every peer's flag seen, fenced
  C_AwaitBarrier = 16, // Owner: the barrier after the wait passed
  C_Added = 17,        // Owner: this thread's add_peers done
  C_AddBarrier = 18,   // Owner: the barrier after the additions passed
  C_Released = 19,     // Owner: flags put back (thread 0), or the same moment for the others
  C_EpiStart = 20,     // Epilogue::store entered
  C_EpiEnd = 21,       // Epilogue::store returned (the TMA store issued, not waited for)
  // producer thread
  P_FirstAcquired = 7,  // the step's first empty barrier passed
  P_FirstIssued = 8,    // its first k-tile's TMA loads issued
  P_LastIssued = 9,     // its last k-tile's TMA loads issued
  P_EmptyWait = 10,     // total cycles in empty-barrier waits
};

__device__ unsigned long long* buffer;  // [gridDim.x][MaxSteps][Roles][Slots]
__device__ unsigned long long* cta;     // [gridDim.x][CtaSlots]
// The probe's A/B switch of the owner's additions (sm90_decode_timeline_patch.py): 0 the
// library's (one peer's loads at a time), 1 two peers' loads issued
// together.
__device__ int eager_fixup;

using timeline::gtime;
using timeline::smid;
// This CTA's record of its step-th step for `role` (null when off or past MaxSteps).
__device__ __forceinline__ unsigned long long* record(int step, int role) {
  unsigned long long* b = buffer;
  if (b == nullptr || step >= MaxSteps) return nullptr;
  return b + ((size_t(blockIdx.x) * MaxSteps + size_t(step)) * Roles + size_t(role)) * Slots;
}
__device__ __forceinline__ void cta_stamp(int slot) {
  unsigned long long* c = cta;
  if (c != nullptr) c[size_t(blockIdx.x) * CtaSlots + slot] = clock64();
}
__device__ __forceinline__ void cta_start() {
  unsigned long long* c = cta;
  if (c == nullptr) return;
  c += size_t(blockIdx.x) * CtaSlots;
  c[GStart] = gtime();
  c[CStart] = clock64();
  c[Sm] = smid();
  c[Valid] = 1;
}
__device__ __forceinline__ void cta_end(int wg) {
  unsigned long long* c = cta;
  if (c == nullptr) return;
  c += size_t(blockIdx.x) * CtaSlots;
  c[wg == 1 ? C1End : C2End] = clock64();
  if (wg == 1) c[GEnd] = gtime();
}
// The step's identity into a record (both roles write it: the producer's and the consumers'
// walks must agree, which the probe checks).
template <class W>
__device__ __forceinline__ void identity(unsigned long long* r, W const& w) {
  r[Tile] = (unsigned long long)w.tile;
  r[KBegin] = (unsigned long long)w.k_begin;
  r[KEnd] = (unsigned long long)w.k_end;
  r[Role] = (unsigned long long)w.role;
  r[Unit] = (unsigned long long)w.unit;
  r[FirstPeer] = (unsigned long long)w.first_peer;
}
}  // namespace tessera_dtl
