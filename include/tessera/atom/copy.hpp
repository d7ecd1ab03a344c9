// Every copy atom tessera knows.
#pragma once

#include "tessera/atom/copy_universal.hpp"
#include "tessera/atom/copy_sm75.hpp"
#include "tessera/atom/copy_sm80.hpp"
#include "tessera/atom/copy_sm80_zfill.hpp"
#include "tessera/atom/copy_sm90.hpp"
#include "tessera/atom/copy_stg.hpp"
