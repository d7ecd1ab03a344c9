// Every MMA atom tessera knows up to SM90. Blackwell's tcgen05.mma atoms are included on their own
// (tessera/atom/mma_sm100.hpp), so that the TUs which use none of them do not parse them.
#pragma once

#include "tessera/atom/mma_universal.hpp"
#include "tessera/atom/mma_sm70.hpp"
#include "tessera/atom/mma_sm80.hpp"
#include "tessera/atom/mma_sm90.hpp"
