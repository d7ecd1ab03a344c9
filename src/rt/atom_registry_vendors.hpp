// The blocks of the atom registry beyond SM90/SM100: Ada's FP8 mma.sync (SM89), SM120's
// FP8/FP6/FP4 and block-scaled mma.sync, AMD's MFMA (CDNA3) and WMMA (RDNA3/4), Intel's DPAS
// (Xe-HPC, Xe-HPG), appended to the list atom_registry.cpp builds. Their headers are included
// by atom_registry_vendors.cpp alone.
#pragma once

#include <vector>

#include "tessera/rt/atom_registry.hpp"

namespace tessera::rt::detail {

void append_sm89_mma(std::vector<MmaAtomInfo>& atoms);
void append_sm120_mma(std::vector<MmaAtomInfo>& atoms);
void append_amd_mma(std::vector<MmaAtomInfo>& atoms);
void append_intel_mma(std::vector<MmaAtomInfo>& atoms);

}  // namespace tessera::rt::detail
