// The attention consumer's two GEMMs and P between them, host and device:
//   S = Q K^T    wgmma SS on TiledMmaS's descriptor fragments of Q and a K stage
//   P            S's accumulators rounded to T, two per 32-bit word in accumulator order
//   O += P V     wgmma RS: P's words read as TiledMmaO's A fragment through PRetile, V's stage
//                by descriptors
// The mainloop (sm90_attention_mainloop.cuh) issues them between its pipeline waits; the host
// trace test (tests/hopper/sm90_attention_trace_test.cpp) runs the same functions for every
// consumer thread inside host_warp::launch, where gemm emulates both wgmmas, so that what the
// traced kernel records on the GPU is checked on a CPU too.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tessera/algorithm.hpp"

#include "sm90_attention_config.hpp"

namespace tessera::kernels::sm90::attention {

// Two f32 values rounded to T (round to nearest even, as convert) in one word, lo first.
template <class T>
TESSERA_HOST_DEVICE TESSERA_INLINE uint32_t round_pair(float lo, float hi) {
#if defined(__CUDA_ARCH__)
  uint32_t w;
  // (the first source operand goes to the upper half)
  if constexpr (std::is_same_v<T, bfloat16_t>) asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(w) : "f"(hi), "f"(lo));
  else asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(w) : "f"(hi), "f"(lo));
  return w;
#else
  T a, b;
  tessera::detail::round_pair(lo, hi, a, b);
  return uint32_t(a.bits) | (uint32_t(b.bits) << 16);
#endif
}

// wgmma's ordering (fence before the batch, commit after): device only; on the host, gemm's
// emulation completes each wgmma at once.
TESSERA_HOST_DEVICE TESSERA_INLINE void wgmma_batch_begin() {
#if defined(__CUDA_ARCH__)
  GMMA::warpgroup_arrive();
#endif
}
TESSERA_HOST_DEVICE TESSERA_INLINE void wgmma_batch_commit() {
#if defined(__CUDA_ARCH__)
  GMMA::warpgroup_commit_batch();
#endif
}

template <class Cfg>
struct ConsumerMma {
  using T = typename Cfg::Element;
  using AccS = decltype(partition_fragment_C(typename Cfg::TiledMmaS{}, typename Cfg::TileS{}));
  static constexpr int p_words = decltype(size(AccS{}))::value / 2;

  // S = Q K^T on K stage `stage` (q: SmemQ's tile, k: SmemK's stages; `thread` 0..255 over both
  // consumer warpgroups): issued and committed as one wgmma batch (not waited for).
  // (The descriptor fragments are made here from the stage index: made once before the loop,
  // their 64-bit descriptors would stay live across it, some 60 registers.)
  TESSERA_HOST_DEVICE TESSERA_INLINE static void issue_s(T* q, T* k, int thread, AccS& acc_s, int stage) {
    typename Cfg::TiledMmaS mma;
    auto thr = mma.get_slice(thread);
    auto tSrQ = thr.partition_fragment_A(make_tensor(q, typename Cfg::SmemQ{}));  // descriptors
    auto tSrK = thr.partition_fragment_B(make_tensor(k, typename Cfg::SmemK{}));  // (.., stage)
    GMMA::warpgroup_fence_operand(acc_s);
    wgmma_batch_begin();
    gemm(mma, tSrQ, tSrK(_, _, _, stage), acc_s, GMMA::ScaleOut::Zero);
    wgmma_batch_commit();
  }

  // P: S's registers rounded to T, in S's value order, two per 32-bit word (the words the RS
  // wgmma reads: made before the wgmmas, they are not repacked between them, which would make
  // ptxas wait for each wgmma, C7519).
  TESSERA_HOST_DEVICE TESSERA_INLINE static void round_p(AccS const& acc_s, uint32_t (&p)[p_words]) {
#pragma unroll
    for (int i = 0; i < p_words; ++i) p[i] = round_pair<T>(acc_s(2 * i), acc_s(2 * i + 1));
  }

  // P's words as TiledMmaO's A fragment: ((2,2,2), 1, bN/16) values of T through PRetile
  // (accumulator_as_operand_A: A-fragment coordinate -> S accumulator index).
  TESSERA_HOST_DEVICE TESSERA_INLINE static auto p_operand(uint32_t const (&p)[p_words]) {
    return make_tensor(reinterpret_cast<T const*>(p), typename Cfg::PRetile{});
  }

  // O += P V on V stage `stage` (v: SmemV's stages): issued and committed (not waited for).
  template <class AccO>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void issue_pv(T* v, int thread, AccO& acc_o, uint32_t const (&p)[p_words], int stage) {
    typename Cfg::TiledMmaO mma;
    auto thr = mma.get_slice(thread);
    auto tOrP = p_operand(p);
    auto tOrV = thr.partition_fragment_B(make_tensor(v, typename Cfg::SmemV{}));  // (.., stage)
    GMMA::warpgroup_fence_operand(acc_o);
    wgmma_batch_begin();
    gemm(mma, tOrP, tOrV(_, _, _, stage), acc_o, GMMA::ScaleOut::One);
    wgmma_batch_commit();
  }
};

}  // namespace tessera::kernels::sm90::attention
