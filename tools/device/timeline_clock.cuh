// The device clocks the timeline hooks share (sm90_tile_timeline_hooks.cuh,
// sm90_decode_timeline_hooks.cuh): %globaltimer (ns, one clock for the whole GPU: places CTAs
// against each other and measures the SM clock against clock64) and the SM a CTA runs on.
#pragma once

namespace timeline {
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
}  // namespace timeline
