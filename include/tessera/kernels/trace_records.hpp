#pragma once
// Where a traced kernel writes what its threads held, for `tessera verify` (its `rec MAP THREAD
// VALUE ROW COL` lines): a buffer of 5 ints per record and a counter that keeps counting past
// the capacity, so that an overflow shows (the writer compares count with capacity). The same
// code appends on the device (atomicAdd) and on the host (an atomic add: host_warp's threads),
// so a kernel's host emulation records what the kernel does.
//   TraceRecords out{count, capacity, records};   (device or host memory, count zeroed)
//   out.record(map, thread, value, row, col);
#include "tessera/config.hpp"

namespace tessera::kernels {

struct TraceRecords {
  int* count;
  int capacity;
  int* records;  // 5 ints per record: map, thread, value, row, col

  TESSERA_HOST_DEVICE void record(int map, int thread, int value, int row, int col) const {
#if defined(__CUDA_ARCH__)
    const int i = atomicAdd(count, 1);
#else
    const int i = __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
#endif
    if (i >= capacity) return;
    int* r = records + 5 * i;
    r[0] = map, r[1] = thread, r[2] = value, r[3] = row, r[4] = col;
  }
};

}  // namespace tessera::kernels
