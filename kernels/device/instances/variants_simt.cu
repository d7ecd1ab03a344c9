// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_SIMT (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_SIMT()
}  // namespace tessera::kernels::device
