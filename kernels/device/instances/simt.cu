// Explicit instantiations: TESSERA_INSTANCES_SIMT (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_SIMT()
}  // namespace tessera::kernels::device
