// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_B (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_B()
}  // namespace tessera::kernels::device
