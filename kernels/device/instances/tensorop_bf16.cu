// Explicit instantiations: TESSERA_INSTANCES_TENSOROP_BF16 and its adapter (see ../configs.cuh).
#include "../configs.cuh"

namespace tessera::kernels::device {
// (Checked here, where the builder runs for these kernels anyway, not in every TU naming them.)
static_assert(std::is_same_v<TensorOpBuild<tensorop_128x256x32_s4, true, true, true, true>::Mainloop::Partition,
                             DefaultTensorOpPartition<true, true, true>> &&
                  std::is_same_v<TensorOpBuild<tensorop_128x256x32_s4, true, true, true, true>::Kernel::Mainloop::TiledMma,
                                 DefaultTensorOpPartition<true, true, true>::TiledMma>,
              "the launched tensor-core configuration is the documented default");
TESSERA_INSTANCES_TENSOROP_BF16()
TESSERA_ADAPTER_INSTANCES_TENSOROP_BF16()
}  // namespace tessera::kernels::device
