// The SM90 attention's device adapter: the argument checks (can_implement, with reasons), the
// kernel's parameters (TMA arguments derived from the tensors' layouts and the smem tiles,
// tensor maps encoded) and the launch. One kernel per (element, head dim); the mask is a
// runtime flag.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <string>

#include <cuda_runtime.h>

#include "tessera/atom/tma_encode.hpp"
#include "tessera/kernels/attention.hpp"

#include "../kernel/sm90_attention_kernel.cuh"
#include "smem_opt_in.cuh"

namespace tessera::kernels::sm90::attention {

inline AttentionResult refuse(AttentionStatus s, std::string m) { return {s, std::move(m)}; }

template <class Cfg>
struct Sm90Attention {
  using T = typename Cfg::Element;
  static constexpr int smem_bytes = int(sizeof(SharedStorage<Cfg>));
  static_assert(smem_bytes <= 227 * 1024, "an SM90 CTA has 227 KiB of shared memory");
  static_assert(sizeof(TileCounter) == attention_counter_bytes, "the workspace attention_workspace_size asks for holds the TileCounter");

  static AttentionResult make_params(AttentionArguments const& a0, KernelParams& p) {
    const AttentionArguments a = with_default_strides(a0);
    const bool varlen = a.cu_seqlens_q != nullptr;
    const int64_t rows_q = varlen ? a.total_q : a.seqlen_q, rows_k = varlen ? a.total_k : a.seqlen_k;
    const int64_t batches = varlen ? 1 : a.batch;
    constexpr auto D = C<Cfg::head_dim>{};
    const auto dtype = std::is_same_v<T, bfloat16_t> ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    tma::Arguments aq, ak, av;
    p.maps.tma_q = make_tma_copy<SM90_TMA_LOAD, 4, 16>(
        aq, make_layout(make_shape(rows_q, D, int64_t(a.heads), batches), make_stride(a.q_row_stride, _1{}, a.q_head_stride, a.q_batch_stride)),
        typename Cfg::SmemQ{});
    p.maps.tma_k = make_tma_copy<SM90_TMA_LOAD, 4, 16>(
        ak, make_layout(make_shape(std::max<int64_t>(rows_k, 1), D, int64_t(a.kv_heads), batches),
                        make_stride(a.k_row_stride, _1{}, a.k_head_stride, a.k_batch_stride)),
        typename Cfg::StageK{});
    p.maps.tma_v = make_tma_copy<SM90_TMA_LOAD, 4, 16>(
        av, make_layout(make_shape(D, std::max<int64_t>(rows_k, 1), int64_t(a.kv_heads), batches),
                        make_stride(_1{}, a.v_row_stride, a.v_head_stride, a.v_batch_stride)),
        typename Cfg::StageV{});
    for (auto* t : {&aq, &ak, &av})
      if (t->rule != tma::Rule::ok) return refuse(AttentionStatus::Unsupported, std::string("TMA: ") + tma::to_string(t->rule));
    if (!p.maps.tma_q.boxes.ok() || !p.maps.tma_k.boxes.ok() || !p.maps.tma_v.boxes.ok())
      return refuse(AttentionStatus::Unsupported, "TMA: a tile needs more than 4 boxes");
    if (p.maps.tma_q.tx_bytes() != sizeof(T) * Cfg::q_elements || p.maps.tma_k.tx_bytes() != sizeof(T) * Cfg::kv_stage_elements ||
        p.maps.tma_v.tx_bytes() != sizeof(T) * Cfg::kv_stage_elements)
      return refuse(AttentionStatus::Unsupported, "TMA: the boxes do not bring whole tiles");
    if (tma::encode_tensor_map(&p.maps.q, aq, a.q, dtype) || tma::encode_tensor_map(&p.maps.k, ak, a.k, dtype) ||
        tma::encode_tensor_map(&p.maps.v, av, a.v, dtype))
      return refuse(AttentionStatus::Unsupported, "cannot encode the tensor maps");
    const float scale = a.softmax_scale > 0.f ? a.softmax_scale : 1.f / std::sqrt(float(a.head_dim));
    p.problem = Problem{a.batch, a.heads, a.kv_heads, a.seqlen_q, a.seqlen_k, int(rows_q), a.cu_seqlens_q, a.cu_seqlens_k, scale,
                        a.mask == AttentionMask::Causal};
    p.out = Output{a.o, varlen ? 0 : a.o_batch_stride, a.o_row_stride, a.o_head_stride, a.lse};
    p.schedule = AttentionTileScheduler{int((int64_t(a.seqlen_q) + Cfg::bM - 1) / Cfg::bM), a.heads, a.batch,
                                        kv_section(a.heads, a.kv_heads, a.batch, a.seqlen_k, Cfg::head_dim, int(sizeof(T))),
                                        tile_order_for(a.mask == AttentionMask::Causal, varlen)};
    if (!p.schedule.valid())
      return refuse(AttentionStatus::Unsupported, "Q tiles x heads x batch (" + std::to_string(p.schedule.blocks()) +
                                                      " CTAs) must stay below 2^31 (the grid's one dimension)");
    return {};
  }

  static AttentionResult run(AttentionArguments const& a, cudaStream_t stream) { return launch(a, stream, {}, attention_kernel<Cfg>); }
  // The same kernel with its blocks in `order` instead of tile_order_for's (a probe's A/B of
  // the orders: tools/device/attention_tiles.cu).
  static AttentionResult run(AttentionArguments const& a, cudaStream_t stream, TileOrder order) {
    return launch(a, stream, order, attention_kernel<Cfg>);
  }

  // The traced build (collective/sm90_attention_trace.hpp) on `a`, which check_trace_problem
  // accepts: one CTA, recording through `trace` (device memory).
  static AttentionResult run_traced(AttentionArguments const& a, AttentionRecorder<Cfg> const& trace, cudaStream_t stream) {
    if (auto r = check_arguments(a); !r) return r;
    if (auto r = check_trace_problem(a); !r) return r;
    return launch(a, stream, {}, attention_trace_kernel<Cfg>, trace);
  }
  // A trace's codes name coordinates inside one (bM, bN) tile of one head.
  static AttentionResult check_trace_problem(AttentionArguments const& a) {
    using P = TraceProblem<Cfg>;
    if (a.batch != 1 || a.heads != 1 || a.kv_heads != 1 || a.seqlen_q != P::rows || a.seqlen_k != P::keys ||
        a.mask != AttentionMask::None || a.cu_seqlens_q != nullptr || a.head_dim != Cfg::head_dim)
      return refuse(AttentionStatus::InvalidArgument, "a trace run is one tile: batch = heads = kv_heads = 1, seqlen_q = " +
                                                          std::to_string(P::rows) + ", seqlen_k = " + std::to_string(P::keys) +
                                                          ", no mask, no varlen, head_dim " + std::to_string(Cfg::head_dim));
    return {};
  }

 private:
  // The CTAs of `kernel` the device holds at once: its SMs times the CTAs an SM holds (one: the
  // kernel's shared memory and registers), asked once per device.
  template <class Kernel>
  static int resident_ctas(Kernel* kernel, int device) {
    static std::atomic<int> known[64] = {};
    if (device >= 0 && device < 64)
      if (const int r = known[device].load(std::memory_order_relaxed); r > 0) return r;
    int sms = 0, per_sm = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Cfg::Threads, smem_bytes) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    const int r = sms * per_sm;
    if (device >= 0 && device < 64) known[device].store(r, std::memory_order_relaxed);
    return r;
  }

  template <class Kernel, class... Extra>
  static AttentionResult launch(AttentionArguments const& a, cudaStream_t stream, std::optional<TileOrder> order, Kernel* kernel,
                                Extra const&... extra) {
    KernelParams p{};
    if (auto r = make_params(a, p); !r) return r;
    if (order) p.schedule.order = *order;
    int device = 0;
    cudaGetDevice(&device);
    if (!device::opt_in_dynamic_smem(kernel, device, smem_bytes))
      return refuse(AttentionStatus::LaunchFailed, "cannot raise the kernel's shared memory to " + std::to_string(smem_bytes) + " bytes");
    int ctas = int(p.schedule.blocks());
    const bool counter = a.workspace != nullptr && a.workspace_bytes >= sizeof(TileCounter);
    const TileAssignment assignment = tile_assignment(a.grid, a.mask == AttentionMask::Causal, a.cu_seqlens_q != nullptr, counter);
    if (assignment != TileAssignment::per_tile) {
      const int resident = resident_ctas(kernel, device);
      if (resident < 1) return refuse(AttentionStatus::LaunchFailed, "the kernel fits no SM (occupancy 0)");
      ctas = PersistentGrid::over(p.schedule.blocks(), a.persistent_ctas > 0 ? std::min(a.persistent_ctas, resident) : resident).ctas;
      // (with a tile per CTA there is nothing to draw: strided then, the counter untouched)
      if (assignment == TileAssignment::counter && ctas < p.schedule.blocks()) p.counter = static_cast<TileCounter*>(a.workspace);
    }
    kernel<<<dim3(unsigned(ctas)), Cfg::Threads, smem_bytes, stream>>>(p, extra...);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return refuse(AttentionStatus::LaunchFailed, cudaGetErrorString(e));
    return {};
  }
};

}  // namespace tessera::kernels::sm90::attention
