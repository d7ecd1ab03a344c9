// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_B (see ../configs_variants.cuh).
#include "../configs_variants.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_B()
}  // namespace tessera::kernels::device
