// The SM90 128x192 kernels with a row-major D (sm90_kernel_list.hpp: MidRow, MidRowSplit): bf16
// and f16, A and B K-major, D row-major in the inputs' type through the row-major TMA-store
// epilogue, clusters of 2 along M, whole tiles and under Stream-K: the dispatch runs a
// column-major D's problem transposed on them (sm90_schedule.hpp). A unit of its own, beside
// the column-major 128x192 unit (the same mainloop; a parallel build compiles them side by
// side). sm_90a only.
#include "sm90_instance.cuh"

TESSERA_SM90_INSTANCES(MidRow);
