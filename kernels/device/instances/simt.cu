// Explicit instantiations: TESSERA_INSTANCES_SIMT (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
static_assert(std::is_same_v<SimtBuild<simt_128x128x8_s3, true, true>::Mainloop::Partition, DefaultSimtPartition>,
              "the launched SIMT configuration is the documented default");
TESSERA_INSTANCES_SIMT()
}  // namespace tessera::kernels::device
