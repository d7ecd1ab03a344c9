// The shared memory of the SM90 kernels, per CTA, as types that host code sees too: the
// collectives and kernels are made of them, and the mainloop builder sizes the stage ring by
// them (the most stages whose whole storage fits: stages, pipeline barriers, epilogue staging,
// the kernel's own fields and the paddings between them, all by sizeof).
#pragma once

#include <cstdint>

#include <tessera/pipeline/mbarrier.hpp>
#include <tessera/pipeline/tma_pipeline.hpp>

#include "sm90_pingpong_order.hpp"

namespace tessera::kernels::sm90 {

// The TMA-store epilogue's staging buffer, one per consumer warpgroup and slot: 16 KiB (64
// rows of 128 16-bit or 64 f32 columns), so that two of them beside four 48 KiB stages of
// the 128x256x64 16-bit tile fill the 227 KiB of a CTA.
inline constexpr int epilogue_staging_bytes = 16 * 1024;

// The mainloop's ring: Stages stages of A and of B (each stage on the 128-byte swizzle's
// 1 KiB repeat) and the pipeline's barriers.
// StageBytesScale > 0 (block-scaled FP8): each stage also holds StageBytesScale bytes of the
// k-tile's scales (TMA writes them on 128 bytes).
template <int StageBytesA, int StageBytesB, int Stages, int StageBytesScale = 0>
struct MainloopSharedStorage {
  alignas(1024) unsigned char a[Stages * StageBytesA];
  alignas(1024) unsigned char b[Stages * StageBytesB];
  alignas(16) pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;
};
template <int StageBytesA, int StageBytesB, int Stages, int StageBytesScale>
  requires(StageBytesScale > 0)
struct MainloopSharedStorage<StageBytesA, StageBytesB, Stages, StageBytesScale> {
  alignas(1024) unsigned char a[Stages * StageBytesA];
  alignas(1024) unsigned char b[Stages * StageBytesB];
  alignas(128) unsigned char scale[Stages * StageBytesScale];
  alignas(16) pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;
};

// The TMA-store epilogue's staging buffers. beta != 0: the C loads into buffer b complete on
// c_full[b]; c_phase[b] is the parity its next load completes (flipped by the buffer's leader
// once every thread has waited).
template <int Buffers>
struct EpilogueTmaStoreSharedStorage {
  alignas(1024) unsigned char d[Buffers][epilogue_staging_bytes];
  pipeline::DeviceMbarrier c_full[Buffers];
  uint32_t c_phase[Buffers];
};
// The direct epilogues keep nothing in shared memory.
struct EpilogueNoSharedStorage {};

// The cooperative kernel's: the collectives', and where a split tile's last slice is told so.
template <class Mainloop, class Epilogue>
struct CooperativeSharedStorage {
  Mainloop mainloop;
  Epilogue epilogue;
  unsigned split_last;  // split-K: this CTA's slice arrived last (consumer thread 0 -> all consumers)
};
// The grouped kernel's: the collectives', and the ring through which its producer thread, the
// one that walks the groups, hands each tile to the consumer warps (Ring: a HandoffRing).
template <class Mainloop, class Epilogue, class Ring>
struct GroupedSharedStorage {
  Mainloop mainloop;
  Epilogue epilogue;
  alignas(16) Ring tiles;
};
// The ping-pong kernel's: the collectives', and the order of the consumers' mainloops.
template <class Mainloop, class Epilogue>
struct PingpongSharedStorage {
  Mainloop mainloop;
  Epilogue epilogue;
  alignas(8) PingpongOrder<pipeline::DeviceMbarrier> order;
};

}  // namespace tessera::kernels::sm90
