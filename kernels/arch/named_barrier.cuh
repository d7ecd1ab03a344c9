// Named barriers (bar.sync id, threads): a CTA has 16, id 0 is __syncthreads's. Threads of
// different roles (one warpgroup's epilogue, the consumer warpgroups together) wait for each
// other without stopping the rest of the CTA. Every id the kernels use is here, a fixed id or
// one of a range indexed at run time, and the ids are checked not to collide: two roles on
// one id would count each other's arrivals. (Host-includable: the host test checks the rule.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::kernels::arch {

enum class NamedBarrier : uint32_t {
  // The TMA-store epilogue: the warpgroup that writes staging buffer b syncs on
  // EpilogueStaging + b (b < epilogue_staging_barriers).
  EpilogueStaging = 1,
  // Every consumer thread of a CTA: the split-K meeting of the cooperative kernel.
  Consumers = 3,
  // Consumer warpgroups taking turns on the tensor cores (the attention kernel's ping-pong, the
  // block-scaled GEMM mainloop's alternating issue): warpgroup w waits on ConsumerTurn + w for
  // its turn and passes it on at the next one's id (one id per consumer warpgroup, at most
  // consumer_turn_barriers of them).
  ConsumerTurn = 4,
  // The cooperative kernel's Stream-K partials, published by a warp of its own: the consumer
  // threads arrive at PartialStored once their stores of a partial are issued and go on; the
  // publishing warp waits there, fences and writes the flag, and arrives at PartialPublished
  // before it waits for the next partial, which the consumers wait on before they store it
  // (so that their arrivals never count towards a partial the publisher has not taken yet).
  PartialStored = 7,
  PartialPublished = 8,
};
inline constexpr uint32_t named_barrier_count = 16;
inline constexpr uint32_t epilogue_staging_barriers = 2;
inline constexpr uint32_t consumer_turn_barriers = 3;

// The ids [first, first + count) of one fixed id (count 1) or range.
struct NamedBarrierIds {
  NamedBarrier first;
  uint32_t count;
};
inline constexpr NamedBarrierIds named_barrier_ids[] = {{NamedBarrier::EpilogueStaging, epilogue_staging_barriers},
                                                        {NamedBarrier::Consumers, 1},
                                                        {NamedBarrier::ConsumerTurn, consumer_turn_barriers},
                                                        {NamedBarrier::PartialStored, 1},
                                                        {NamedBarrier::PartialPublished, 1}};

// Whether the ids are disjoint and each is one of the CTA's, other than __syncthreads's 0.
template <std::size_t N>
constexpr bool named_barriers_disjoint(NamedBarrierIds const (&ids)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    const uint32_t first = uint32_t(ids[i].first);
    if (ids[i].count == 0 || first == 0 || first + ids[i].count > named_barrier_count) return false;
    for (std::size_t j = 0; j < i; ++j) {
      const uint32_t other = uint32_t(ids[j].first);
      if (first < other + ids[j].count && other < first + ids[i].count) return false;
    }
  }
  return true;
}
static_assert(named_barriers_disjoint(named_barrier_ids), "every named barrier has an id of its own, 1 .. 15");

#if defined(__CUDACC__)
// Waits until `Threads` threads (whole warps, this one's included) have arrived at barrier
// `Id`, or at id `Id` + i of the range that starts there.
template <NamedBarrier Id, int Threads>
__device__ __forceinline__ void named_barrier_sync() {
  static_assert(Threads % 32 == 0, "a named barrier counts whole warps");
  asm volatile("bar.sync %0, %1;\n" ::"n"(uint32_t(Id)), "n"(Threads) : "memory");
}
template <NamedBarrier Id, int Threads>
__device__ __forceinline__ void named_barrier_sync(int i) {
  static_assert(Threads % 32 == 0, "a named barrier counts whole warps");
  asm volatile("bar.sync %0, %1;\n" ::"r"(int(Id) + i), "n"(Threads) : "memory");
}
// Counts this warp's threads at barrier `Id` without waiting (the other side waits). A
// bar.arrive synchronizes with the bar.sync that completes the barrier: the arriving threads'
// earlier memory accesses happen before the waiting threads' later ones.
template <NamedBarrier Id, int Threads>
__device__ __forceinline__ void named_barrier_arrive() {
  static_assert(Threads % 32 == 0, "a named barrier counts whole warps");
  asm volatile("bar.arrive %0, %1;\n" ::"n"(uint32_t(Id)), "n"(Threads) : "memory");
}
// Counts this warp's threads at barrier `Id` + i without waiting (the other side waits).
template <NamedBarrier Id, int Threads>
__device__ __forceinline__ void named_barrier_arrive(int i) {
  static_assert(Threads % 32 == 0, "a named barrier counts whole warps");
  asm volatile("bar.arrive %0, %1;\n" ::"r"(int(Id) + i), "n"(Threads) : "memory");
}
#endif

}  // namespace tessera::kernels::arch
