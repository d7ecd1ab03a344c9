// Which thread holds / moves which element: every index the kernels use comes from here,
// and everything here is a tessera object -- a TiledMMA, TiledCopies, a swizzled smem
// layout -- queried through its partition of an identity tensor of the CTA tile.
// Host and device: the host tests (tests/kernels/partition_trace_test.cpp) and the trace
// writer run exactly this code for every thread index of every configuration.
//
// The pattern, for any tiled object X (TiledMMA operand or TiledCopy side) and tile T:
//   id   = make_identity_tensor(T)                    element (r, c) "is" the coordinate (r, c)
//   part = X.get_slice(t).partition_*_layout(id)      thread t's values, as (layout, offset)
//   crd  = make_tensor(id.data() + offset, layout)(v) the coordinate of t's value v
// The same coordinate then addresses gmem (the operand's local_tile), smem (the swizzled
// smem layout) and the residue predicate (compared with the problem's extents), so no
// address is computed by hand.  Value numbers v are the 1-D (column-major) index into the
// partition's value modes, i.e. the value numbers of the TV layouts the trace declares.
#pragma once
// One header per concept; this one brings them all.
#include "tessera/kernels/thread_coords.hpp"
#include "tessera/kernels/gmem_copy.hpp"
#include "tessera/kernels/operand_smem.hpp"
#include "tessera/kernels/tensorop_partition.hpp"
#include "tessera/kernels/simt_partition.hpp"
