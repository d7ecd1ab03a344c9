// Builders: Blackwell tensor memory drawn as lanes (rows) x 32-bit columns.
//   tmem_copy_diagram: a tcgen05.ld/st atom's block of tensor memory, each cell the thread T and
//     register R that receives it (LOAD) or gives it (STORE); with .pack::16b / .unpack::16b a
//     cell holds one 16-bit half of a register (R3.lo, R3.hi).
//   tmem_accumulator_panel: a tcgen05.mma atom's accumulator in one CTA's tensor memory, each
//     cell the element (m, n) of the CTA's tile it holds.
//   tmem_scale_factor_panel: a block-scaled tcgen05.mma atom's scale factors of A or B in
//     tensor memory (one-CTA atoms), lanes x bytes, each cell the row and K block whose factor
//     it holds (every row's factors in four lanes, one per 32-lane quarter).
#pragma once

#include "tessera/rt/atom_registry.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

// Throws viz::Error if the atom is not a tensor-memory copy atom.
Diagram tmem_copy_diagram(const rt::CopyAtomInfo& atom);
// Throws viz::Error if the atom is not a tcgen05.mma atom.
Panel tmem_accumulator_panel(const rt::MmaAtomInfo& atom);
// Throws viz::Error if the atom has no tensor-memory scale-factor layout.
Panel tmem_scale_factor_panel(const rt::MmaAtomInfo& atom, bool operand_a);

}  // namespace tessera::viz
