// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_E (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_E()
}  // namespace tessera::kernels::device
