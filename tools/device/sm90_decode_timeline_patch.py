#!/usr/bin/env python3
"""Instrument a COPY of the SM90 cooperative kernel's headers with per-CTA, per-step clock
stamps of its Stream-K path (the decode kernel, sm90::DecodeGemm): CTA entry and barriers
ready, each step's k-range (producer: first empty acquired, first and last TMA issued;
consumers: first full barrier, last wgmma issued, wgmma drained), the fix-up (a Partial's
stores fenced, barrier, flag raised; an Owner's wait for its peers' flags, additions, flags
released), the epilogue store, each role's end. tools/device/run_sm90_decode_timeline.sh runs
it on a copy in the probe's build dir; the library's headers are never changed.
Usage: sm90_decode_timeline_patch.py <tree copy> [--check]

Each edit is an exact anchor that must occur exactly once; otherwise the script exits non-zero
naming the anchor (the kernel changed: update the anchors); an instrumented copy is refused
(timeline_patch.py, shared with the cooperative kernel's timeline). --check: report every
anchor's count and change nothing. The hooks call ::tessera_dtl:: (tools/device/
sm90_decode_timeline_hooks.cuh, included by the probe before the kernel headers).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timeline_patch import PRODUCER_KLOOP, Group, main  # noqa: E402

MAINLOOP = "kernels/collective/sm90_mainloop_tma_wgmma.cuh"
STORAGE = "kernels/kernel/sm90_shared_storage.hpp"
KERNEL = "kernels/kernel/sm90_gemm_tma_warpspecialized.cuh"
FIXUP = "kernels/kernel/stream_k_fixup.cuh"

EDITS = {
    STORAGE: [
        # each role's current step record (0 producer, 1.. consumer warpgroups), in the
        # mainloop storage's tail padding (the struct is 1 KiB aligned: the probe asserts that
        # the kernel's shared storage and stage count are unchanged)
        ("  alignas(1024) unsigned char b[Stages * StageBytesB];\n"
         "  alignas(16) pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;\n};\n",
         "  alignas(1024) unsigned char b[Stages * StageBytesB];\n"
         "  alignas(16) pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;\n"
         "  unsigned long long* tl[4];\n};\n"),
    ],
    MAINLOOP: [
        ("    s.pipe.init(ConsumerArrivals, uint32_t(stage_a_bytes + stage_b_bytes + stage_scale_bytes));\n",
         "    s.pipe.init(ConsumerArrivals, uint32_t(stage_a_bytes + stage_b_bytes + stage_scale_bytes));\n"
         "    for (int r = 0; r < 4; ++r) s.tl[r] = nullptr;\n"),
        *PRODUCER_KLOOP,
        # producer's walk: the step's record
        ("    for (int64_t i = 0; i < steps; ++i) {\n      const auto w = scheduler.work(cluster, i);\n",
         "    for (int64_t i = 0; i < steps; ++i) {\n      const unsigned long long tl_start = clock64();\n"
         "      const auto w = scheduler.work(cluster, i);\n"
         "      {\n        unsigned long long* r = tl::record(int(i), 0);\n        s.tl[0] = r;\n"
         "        if (r) { r[tl::Start] = tl_start; tl::identity(r, w); }\n      }\n"),
        # consumer: first full barrier passed, time blocked on full barriers, last k-tile's
        # wgmmas issued, wait_group 0 done
        ("    for (int kt = 0; kt < k_tiles; ++kt) {\n      while (!s.pipe.consumer_try_wait(st)) {}\n"
         "      GMMA::warpgroup_fence_operand(acc.v);\n",
         "    unsigned long long* tl_r = (threadIdx.x % 128 == 0) ? s.tl[wg + 1] : nullptr;\n    unsigned long long tl_wait = 0;\n"
         "    for (int kt = 0; kt < k_tiles; ++kt) {\n      const unsigned long long tl_t0 = clock64();\n"
         "      while (!s.pipe.consumer_try_wait(st)) {}\n      const unsigned long long tl_t1 = clock64();\n"
         "      tl_wait += tl_t1 - tl_t0;\n      if (kt == 0 && tl_r) tl_r[tl::C_FirstFull] = tl_t1;\n"
         "      GMMA::warpgroup_fence_operand(acc.v);\n"),
        ("      GMMA::warpgroup_commit_batch();\n      GMMA::warpgroup_wait<1>();",
         "      GMMA::warpgroup_commit_batch();\n      if (kt == k_tiles - 1 && tl_r) tl_r[tl::C_LastIssued] = clock64();\n"
         "      GMMA::warpgroup_wait<1>();"),
        ("    GMMA::warpgroup_wait<0>();\n    GMMA::warpgroup_fence_operand(acc.v);\n    if (k_tiles > 0 && lane0) release(s, prev);\n",
         "    GMMA::warpgroup_wait<0>();\n    if (tl_r) { tl_r[tl::C_MainloopEnd] = clock64(); tl_r[tl::C_FullWait] = tl_wait; }\n"
         "    GMMA::warpgroup_fence_operand(acc.v);\n    if (k_tiles > 0 && lane0) release(s, prev);\n"),
    ],
    FIXUP: [
        # the probe's A/B of the owner's additions (tl::eager_fixup, a run-time switch): two
        # peers' partials loaded together, then added in the library's order (acc = p + acc,
        # the nearest peer first: the same bits), so the owner waits one L2 round trip per two
        # peers instead of one per peer; partials of at most 8 float4 per thread (the decode
        # tile's 32 accumulators) only (four at once spilled beside the accumulators)
        ("  __device__ __forceinline__ void add_peers(const StreamKScheduler& s, const StreamKWork& w, int rm, int rn, Acc& acc,\n"
         "                                            int t) const {\n",
         "  __device__ __forceinline__ void add_peers(const StreamKScheduler& s, const StreamKWork& w, int rm, int rn, Acc& acc,\n"
         "                                            int t) const {\n"
         "    if constexpr (Words <= 8) {\n"
         "      if (tl::eager_fixup) {\n"
         "        for (std::int64_t p0 = w.unit - 1; p0 >= w.first_peer; p0 -= 2) {\n"
         "          float4 v[2][Words];\n"
         "#pragma unroll\n"
         "          for (int q = 0; q < 2; ++q)\n"
         "            if (p0 - q >= w.first_peer) {\n"
         "              const float4* r = slot_words(s.slot(p0 - q, rm, rn));\n"
         "#pragma unroll\n"
         "              for (int i = 0; i < Words; ++i) v[q][i] = __ldcg(r + i * Threads + t);\n"
         "            }\n"
         "#pragma unroll\n"
         "          for (int q = 0; q < 2; ++q)\n"
         "            if (p0 - q >= w.first_peer) {\n"
         "#pragma unroll\n"
         "              for (int i = 0; i < Words; ++i) {\n"
         "                acc[4 * i] = v[q][i].x + acc[4 * i];\n"
         "                acc[4 * i + 1] = v[q][i].y + acc[4 * i + 1];\n"
         "                acc[4 * i + 2] = v[q][i].z + acc[4 * i + 2];\n"
         "                acc[4 * i + 3] = v[q][i].w + acc[4 * i + 3];\n"
         "              }\n"
         "            }\n"
         "        }\n"
         "        return;\n"
         "      }\n"
         "    }\n"),
    ],
    KERNEL: [
        # CTA entry, barriers ready
        ("    const int64_t first = blockIdx.x / ClusterSize, step = gridDim.x / ClusterSize;\n    if (threadIdx.x == 0) {\n",
         "    const int64_t first = blockIdx.x / ClusterSize, step = gridDim.x / ClusterSize;\n"
         "    if (threadIdx.x == 0) tl::cta_start();\n    if (threadIdx.x == 0) {\n"),
        ("    cluster_sync();  // barriers initialised in every CTA before any copy or remote arrival\n",
         "    cluster_sync();  // barriers initialised in every CTA before any copy or remote arrival\n"
         "    if (threadIdx.x == 0) tl::cta_stamp(tl::CReady);\n"),
        # the producer's walk begun and done
        ("        if constexpr (StreamK) Mainloop::produce_walk(p.mainloop, s, p.scheduler, first, rank);\n",
         "        if constexpr (StreamK) {\n          tl::cta_stamp(tl::PStart);\n"
         "          Mainloop::produce_walk(p.mainloop, s, p.scheduler, first, rank);\n"
         "          tl::cta_stamp(tl::PEnd);\n        }\n"),
        # each consumer warpgroup's end (after Epilogue::finish)
        ("      consume_stream_k(p, shared, wg, first, rank);\n",
         "      consume_stream_k(p, shared, wg, first, rank);\n      if (threadIdx.x % 128 == 0) tl::cta_end(wg);\n"),
        # consumer step: its record (thread 0 of each warpgroup), its identity
        ("    for (int64_t i = 0; i < steps; ++i) {\n      bool whole = false;\n      {\n"
         "        const StreamKWork w = p.scheduler.work(c, i);\n",
         "    for (int64_t i = 0; i < steps; ++i) {\n"
         "      unsigned long long* tl_r = (thread % 128 == 0) ? tl::record(int(i), wg) : nullptr;\n"
         "      if (tl_r) tl_r[tl::Start] = clock64();\n"
         "      bool whole = false;\n      {\n"
         "        const StreamKWork w = p.scheduler.work(c, i);\n"
         "        if (thread % 128 == 0) s.tl[wg] = tl_r;\n"
         "        if (tl_r) tl::identity(tl_r, w);\n"),
        # Partial: stores issued, arrival at the publisher's barrier (the flag is the
        # publisher's stamp, below)
        ("      if (w.role == SegmentRole::Partial) {\n"
         "        if (stored) arch::named_barrier_sync<arch::NamedBarrier::PartialPublished, PublisherThreads>();\n"
         "        p.fixup.store(p.scheduler.slot(w.unit, rank), acc, thread);\n"
         "        arch::named_barrier_arrive<arch::NamedBarrier::PartialStored, PublisherThreads>();\n",
         "      if (tl_r) tl_r[tl::C_RoleStart] = clock64();\n"
         "      if (w.role == SegmentRole::Partial) {\n"
         "        if (stored) arch::named_barrier_sync<arch::NamedBarrier::PartialPublished, PublisherThreads>();\n"
         "        p.fixup.store(p.scheduler.slot(w.unit, rank), acc, thread);\n"
         "        if (tl_r) tl_r[tl::C_WriteFenced] = clock64();\n"
         "        arch::named_barrier_arrive<arch::NamedBarrier::PartialStored, PublisherThreads>();\n"
         "        if (tl_r) tl_r[tl::C_WriteBarrier] = clock64();\n"),
        # the publisher warp: the flag raised, in every consumer warpgroup's record of the step
        ("      if (threadIdx.x % 32 == 0) p.fixup.publish(p.scheduler.slot(w.unit, rank));\n",
         "      if (threadIdx.x % 32 == 0) {\n        p.fixup.publish(p.scheduler.slot(w.unit, rank));\n"
         "        const unsigned long long tl_f = clock64();\n"
         "        for (int o = 1; o < tl::Roles; ++o)\n"
         "          if (unsigned long long* r = tl::record(int(i), o)) r[tl::C_FlagRaised] = tl_f;\n      }\n"),
        # Owner: flags seen (thread 0), barrier, additions, barrier, flags released
        ("        if (thread == 0) p.fixup.await_peers(sk, w, rank, 0);\n        consumer_barrier();\n"
         "        p.fixup.add_peers(sk, w, rank, 0, acc, thread);\n"
         "        consumer_barrier();  // every thread has read the partials before their flags go down\n"
         "        if (thread == 0) p.fixup.release_peers(sk, w, rank, 0);\n",
         "        if (thread == 0) p.fixup.await_peers(sk, w, rank, 0);\n"
         "        if (tl_r && thread == 0) tl_r[tl::C_AwaitEnd] = clock64();\n"
         "        consumer_barrier();\n"
         "        if (tl_r) tl_r[tl::C_AwaitBarrier] = clock64();\n"
         "        p.fixup.add_peers(sk, w, rank, 0, acc, thread);\n"
         "        if (tl_r) tl_r[tl::C_Added] = clock64();\n"
         "        consumer_barrier();  // every thread has read the partials before their flags go down\n"
         "        if (tl_r) tl_r[tl::C_AddBarrier] = clock64();\n"
         "        if (thread == 0) p.fixup.release_peers(sk, w, rank, 0);\n"
         "        if (tl_r) tl_r[tl::C_Released] = clock64();\n"),
        # the epilogue store
        ("      Epilogue::store(p.epilogue, shared.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,\n"
         "                      Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l, acc, 0, whole);\n",
         "      if (tl_r) tl_r[tl::C_EpiStart] = clock64();\n"
         "      Epilogue::store(p.epilogue, shared.epilogue, tiled, make_shape(C<Mainloop::BM>{}, C<Mainloop::BN>{}), thread,\n"
         "                      Mainloop::cta_tile_m(w.m, rank), Mainloop::cta_tile_n(w.n, rank), w.l, acc, 0, whole);\n"
         "      if (tl_r) tl_r[tl::C_EpiEnd] = clock64();\n"),
    ],
}


if __name__ == "__main__":
    main("sm90_decode_timeline_patch", "tessera_dtl", [Group("Stream-K walk", EDITS)], sys.argv)
