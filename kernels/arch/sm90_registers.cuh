// setmaxnreg (sm_90a): a warpgroup gives registers back to the CTA's pool or takes them.
// It takes effect only under a register cap at entry (__launch_bounds__(threads, 1)) and
// when every warp of the warpgroup executes it.
#pragma once

namespace tessera::kernels::arch {

template <int Registers>
__device__ __forceinline__ void warpgroup_reg_dealloc() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}
template <int Registers>
__device__ __forceinline__ void warpgroup_reg_alloc() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
#endif
}

}  // namespace tessera::kernels::arch
