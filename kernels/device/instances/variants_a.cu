// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_A (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_A()
}  // namespace tessera::kernels::device
