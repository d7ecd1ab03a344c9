// Every MMA atom tessera knows but the Hopper 8-bit wgmma atoms: their inline PTX is as large
// as all the others', so code that uses them includes tessera/atom/mma_sm90_8bit.hpp.
#pragma once

#include "tessera/atom/mma_universal.hpp"
#include "tessera/atom/mma_sm70.hpp"
#include "tessera/atom/mma_sm80.hpp"
#include "tessera/atom/mma_sm90.hpp"
