// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_SIMT (see ../configs_variants.cuh).
#include "../configs_variants.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_SIMT()
}  // namespace tessera::kernels::device
