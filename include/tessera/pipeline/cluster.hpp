#pragma once
// A thread block cluster (sm_90): a CTA's rank in its cluster and the cluster's barrier.
//
//   cluster_rank()   %cluster_ctarank: 0 .. cluster size - 1 (0 outside a cluster launch)
//   cluster_sync()   every thread of every CTA of the cluster arrives (release) and waits
//                    (acquire): barrier initialisations are seen cluster-wide before any CTA
//                    multicasts into another's shared memory or arrives on its barriers, and
//                    no CTA leaves while another may still do so. Not .aligned: a kernel's
//                    roles may reach it diverged (a producer warp whose thread 0 issued the
//                    copies).
// Below sm_90 (and on the host) there are no clusters: rank 0, and the barrier does nothing.
#include <cstdint>

#include "tessera/atom/detail/arch.hpp"

namespace tessera::pipeline {

TESSERA_DEVICE int cluster_rank() {
  uint32_t r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
  return int(r);
}

TESSERA_DEVICE void cluster_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}

}  // namespace tessera::pipeline
