// The dynamic shared-memory opt-in of a kernel entry: a kernel that uses more than 48 KiB of
// dynamic shared memory must raise its limit with cudaFuncSetAttribute before it launches.
// Asked once per (entry, device) through EntryCache, keyed by the entry's host stub: the stub
// a caller passes is the one it launches (each TU that instantiates a kernel template has its
// own stub and device module, entry_cache.hpp says why that matters). Every launch path of the
// device layer (the SM80/SIMT adapter, the SM90 adapter) and the entry cache's GPU test go
// through this one function.
#pragma once

#include <cuda_runtime.h>

#include "entry_cache.hpp"

namespace tessera::kernels::device {

// True when `entry` may launch with `bytes` of dynamic shared memory on `device` (the current
// one). A failed opt-in is not cached and leaves no sticky error: a later call asks again.
template <class Entry>
bool opt_in_dynamic_smem(Entry entry, int device, int bytes) {
  return entry_cache().get(reinterpret_cast<const void*>(entry), device, EntryCache::Fact::SmemOptIn, [entry, bytes] {
           if (cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) == cudaSuccess) return 1;
           cudaGetLastError();
           return -1;
         }) > 0;
}

}  // namespace tessera::kernels::device
