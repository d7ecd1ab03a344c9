// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_E (see ../configs_variants.cuh).
#include "../configs_variants.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_E()
}  // namespace tessera::kernels::device
