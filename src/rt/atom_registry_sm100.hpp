// The Blackwell (SM100) block of the atom registry: tcgen05.mma atoms and tensor-memory copy
// atoms (tcgen05.ld/st), appended to the lists atom_registry.cpp builds.
#pragma once

#include <vector>

#include "tessera/rt/atom_registry.hpp"

namespace tessera::rt::detail {

void append_sm100_mma(std::vector<MmaAtomInfo>& atoms);
void append_sm100_copy(std::vector<CopyAtomInfo>& atoms);

}  // namespace tessera::rt::detail
