// Every MMA atom tessera knows.
#pragma once

#include "tessera/atom/mma_universal.hpp"
#include "tessera/atom/mma_sm70.hpp"
#include "tessera/atom/mma_sm80.hpp"
#include "tessera/atom/mma_sm90.hpp"
