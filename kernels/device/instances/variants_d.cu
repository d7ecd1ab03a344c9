// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_D (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_D()
}  // namespace tessera::kernels::device
