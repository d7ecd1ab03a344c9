// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_D (see ../configs_variants.cuh).
#include "../configs_variants.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_D()
}  // namespace tessera::kernels::device
