// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_A (see ../configs_variants.cuh).
#include "../configs_variants.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_A()
}  // namespace tessera::kernels::device
