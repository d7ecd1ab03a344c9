// Explicit instantiations: TESSERA_INSTANCES_TENSOROP_BF16 and its adapter (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
TESSERA_INSTANCES_TENSOROP_BF16()
TESSERA_ADAPTER_INSTANCES_TENSOROP_BF16()
}  // namespace tessera::kernels::device
