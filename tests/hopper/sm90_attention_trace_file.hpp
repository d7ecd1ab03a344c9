// The SM90 attention kernel's trace (kernels/collective/sm90_attention_trace.hpp) in the
// format `tessera verify` reads: the kernel line, the three maps drawn from the configuration's
// own objects, then the records. Shared by the host trace test and the GPU test's --trace.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tessera::kernels::sm90::attention {

// The configuration's maps as `map` lines: mmaS.C (TiledMmaS's C map over (bM, bN)), mmaO.A
// (TiledMmaO's A map over (bM, bN): P) and mmaO.C (TiledMmaO's C map over (bM, D)).
// bf16 or f16; head_dim 64, 128 or 256; consumers 0 (or the shipped count): the shipped
// configuration (DefaultConfig: 3 consumer warpgroups at head dim 64, 2 at 128 and 256); consumers 2 at
// head dim 64: AttentionConfig<T, 64, 128, 2> (Q tiles of 128 rows, not shipped). Else
// std::invalid_argument.
void write_attention_trace_maps(std::ostream& os, bool bf16, int head_dim, int consumers = 0);
// The whole trace: header, kernel line, maps, one `rec` line per record (5 ints each:
// map, thread, value, row, col).
void write_attention_trace(std::ostream& os, bool bf16, int head_dim, std::vector<int> const& records, int consumers = 0);

}  // namespace tessera::kernels::sm90::attention
