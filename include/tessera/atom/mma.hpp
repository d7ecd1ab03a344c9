// Every MMA atom tessera knows up to SM90 but the Hopper 8-bit wgmma atoms: their inline PTX is
// as large as all the others', so code that uses them includes tessera/atom/mma_sm90_8bit.hpp.
// Blackwell's tcgen05.mma atoms are included on their own too (tessera/atom/mma_sm100.hpp), so
// that the TUs which use none of them do not parse them.
#pragma once

#include "tessera/atom/mma_universal.hpp"
#include "tessera/atom/mma_sm70.hpp"
#include "tessera/atom/mma_sm80.hpp"
#include "tessera/atom/mma_sm90.hpp"
