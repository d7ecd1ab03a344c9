// Explicit instantiations: TESSERA_INSTANCES_TENSOROP_F16 (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_TENSOROP_F16()
}  // namespace tessera::kernels::device
