// Ordering of cp.async copies (SM80+):
//   cp_async_fence()    commit the cp.async issued so far by this thread as one group
//   cp_async_wait<N>()  wait until at most N of this thread's groups are still in flight
//                       (N = 0: all); follow with a barrier before other threads read smem
// On the host the cp.async atoms copy synchronously (tessera/algorithm/copy.hpp), so both
// are no-ops there.  The instructions live with the atoms (tessera/atom/detail/copy_ops.hpp).
#pragma once

#include "tessera/atom/detail/copy_ops.hpp"
