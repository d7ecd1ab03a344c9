// Explicit instantiations: TESSERA_INSTANCES_VARIANTS_C (see ../configs_variants.cuh).
#include "../configs_variants.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_VARIANTS_C()
}  // namespace tessera::kernels::device
