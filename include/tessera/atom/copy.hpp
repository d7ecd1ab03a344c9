// Every copy atom tessera knows up to SM90. Blackwell's tensor-memory atoms (tcgen05.ld/st) are
// included on their own (tessera/atom/copy_sm100.hpp), so that the TUs which use none of them do
// not parse them.
#pragma once

#include "tessera/atom/copy_universal.hpp"
#include "tessera/atom/copy_sm75.hpp"
#include "tessera/atom/copy_sm80.hpp"
#include "tessera/atom/copy_sm80_zfill.hpp"
#include "tessera/atom/copy_sm90.hpp"
#include "tessera/atom/copy_stg.hpp"
