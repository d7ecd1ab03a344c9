// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_C (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_C()
}  // namespace tessera::kernels::device
