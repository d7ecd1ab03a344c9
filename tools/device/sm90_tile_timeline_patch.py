#!/usr/bin/env python3
"""Instrument a COPY of the SM90 cooperative kernel's headers with per-tile clock stamps
(tools/device/run_sm90_tile_timeline.sh runs it on a copy in the probe's build dir; the
library's headers are never changed). Usage: sm90_tile_timeline_patch.py <tree copy>.

Each edit is an exact anchor that must occur exactly once; otherwise the script fails (the
kernel changed: update the anchors). The hooks call ::tessera_tl:: (tools/device/sm90_tile_timeline_hooks.cuh,
included by the probe before the kernel headers). Thread 0 of each consumer warpgroup and the
producer thread write clock64 stamps into their tile's record; see the hooks header for slots.
"""
import sys
from pathlib import Path

root = Path(sys.argv[1])
EDITS = {
    "kernels/collective/sm90_mainloop_tma_wgmma.cuh": [
        # the current record of each role (0 producer, 1.. consumer warpgroups): in the
        # shared storage's tail padding (the struct is 1 KiB aligned: its size is unchanged)
        ("    alignas(16) Pipeline pipe;\n",
         "    alignas(16) Pipeline pipe;\n    unsigned long long* tl[4];\n"),
        # producer: per k-tile, the time blocked on the empty barrier
        ("    for (int kt = 0; kt < k_tiles; ++kt) {\n      while (!s.pipe.producer_try_acquire(st)) {}\n",
         "    unsigned long long* tl_r = s.tl[0];\n    unsigned long long tl_wait = 0;\n"
         "    for (int kt = 0; kt < k_tiles; ++kt) {\n      const unsigned long long tl_t0 = clock64();\n"
         "      while (!s.pipe.producer_try_acquire(st)) {}\n      const unsigned long long tl_t1 = clock64();\n"
         "      tl_wait += tl_t1 - tl_t0;\n      if (kt == 0 && tl_r) tl_r[tl::P_FirstAcquired] = tl_t1;\n"),
        ("      origin_a.c[1] += BK;\n      origin_b.c[1] += BK;\n      ++st;\n    }\n",
         "      if (tl_r) {\n        if (kt == 0) tl_r[tl::P_FirstIssued] = clock64();\n"
         "        if (kt == k_tiles - 1) tl_r[tl::P_LastIssued] = clock64();\n      }\n"
         "      origin_a.c[1] += BK;\n      origin_b.c[1] += BK;\n      ++st;\n    }\n"
         "    if (tl_r) tl_r[tl::P_EmptyWait] = tl_wait;\n"),
        ("    for (int64_t u = first; u < units; u += step) {\n      const auto w = scheduler.work(u);\n",
         "    int tl_j = 0;\n    for (int64_t u = first; u < units; u += step, ++tl_j) {\n"
         "      {\n        unsigned long long* r = tl::record(tl_j, 0);\n        s.tl[0] = r;\n"
         "        if (r) { r[tl::GlobalStart] = tl::gtime(); r[tl::Start] = clock64(); r[tl::Unit] = u; r[tl::Sm] = tl::smid(); }\n      }\n"
         "      const auto w = scheduler.work(u);\n"),
        # consumer: first full barrier passed, time blocked on full barriers, last k-tile's
        # wgmmas issued, wait_group 0 done
        ("    for (int kt = 0; kt < k_tiles; ++kt) {\n      while (!s.pipe.consumer_try_wait(st)) {}\n",
         "    unsigned long long* tl_r = (threadIdx.x % 128 == 0) ? s.tl[wg + 1] : nullptr;\n    unsigned long long tl_wait = 0;\n"
         "    for (int kt = 0; kt < k_tiles; ++kt) {\n      const unsigned long long tl_t0 = clock64();\n"
         "      while (!s.pipe.consumer_try_wait(st)) {}\n      const unsigned long long tl_t1 = clock64();\n"
         "      tl_wait += tl_t1 - tl_t0;\n      if (kt == 0 && tl_r) tl_r[tl::C_FirstFull] = tl_t1;\n"),
        ("      GMMA::warpgroup_commit_batch();\n      GMMA::warpgroup_wait<1>();",
         "      GMMA::warpgroup_commit_batch();\n      if (kt == k_tiles - 1 && tl_r) tl_r[tl::C_LastIssued] = clock64();\n"
         "      GMMA::warpgroup_wait<1>();"),
        ("    GMMA::warpgroup_wait<0>();\n    GMMA::warpgroup_fence_operand(acc.v);\n    if (k_tiles > 0 && lane0) release(s, prev);\n",
         "    GMMA::warpgroup_wait<0>();\n    if (tl_r) { tl_r[tl::C_MainloopEnd] = clock64(); tl_r[tl::C_FullWait] = tl_wait; }\n"
         "    GMMA::warpgroup_fence_operand(acc.v);\n    if (k_tiles > 0 && lane0) release(s, prev);\n"),
    ],
    "kernels/collective/sm90_epilogue_tma.cuh": [
        ("    uint32_t c_phase[Buffers];\n",
         "    uint32_t c_phase[Buffers];\n    unsigned long long* tl[4];  // (the consumer warpgroups' current records)\n"),
        # per part H: entry, the leader's store wait passed, barrier 1 passed, staging +
        # barrier 2 passed, TMA store issued and committed
        ("                                                    uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l, bool prefetched) {\n    if (leader) {\n      tma_store_wait<0>();  // the previous store has read the buffer\n",
         "                                                    uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l, bool prefetched) {\n"
         "    unsigned long long* tl_r = (leader && H < tl::MaxParts) ? s.tl[wg] : nullptr;\n"
         "    if (tl_r) tl_r[tl::part(H, 0)] = clock64();\n"
         "    if (leader) {\n      tma_store_wait<0>();  // the previous store has read the buffer\n"
         "      if (tl_r) tl_r[tl::part(H, 1)] = clock64();\n"),
        ("    warpgroup_barrier(bar);\n    if (ctx.load_c) {\n",
         "    warpgroup_barrier(bar);\n    if (tl_r) tl_r[tl::part(H, 2)] = clock64();\n    if (ctx.load_c) {\n"),
        ("    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)\n    warpgroup_barrier(bar);\n",
         "    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)\n    warpgroup_barrier(bar);\n"
         "    if (tl_r) tl_r[tl::part(H, 3)] = clock64();\n"),
        ("      copy(p.tma_d.with(&p.map_d), buffer, origin);\n      tma_store_commit();\n",
         "      copy(p.tma_d.with(&p.map_d), buffer, origin);\n      tma_store_commit();\n"
         "      if (tl_r) tl_r[tl::part(H, 4)] = clock64();\n"),
    ],
    "kernels/kernel/sm90_gemm_tma_warpspecialized.cuh": [
        # consumer unit start (the record of tile j of this CTA) and epilogue end
        ("      for (int64_t u = first; u < units; u += step) {\n",
         "      int tl_j = 0;\n      for (int64_t u = first; u < units; u += step, ++tl_j) {\n"
         "        if (thread % 128 == 0) {\n          unsigned long long* r = tl::record(tl_j, wg);\n          s.tl[wg] = r;\n"
         "          if constexpr (requires { shared.epilogue.tl; }) shared.epilogue.tl[wg - 1] = r;\n"
         "          if (r) { r[tl::GlobalStart] = tl::gtime(); r[tl::Start] = clock64(); r[tl::Unit] = u; r[tl::Sm] = tl::smid(); }\n        }\n"),
        ("                          w.m * ClusterM + rank, w.n, w.l, acc);\n      }\n",
         "                          w.m * ClusterM + rank, w.n, w.l, acc);\n"
         "        if (thread % 128 == 0 && s.tl[wg]) s.tl[wg][tl::C_EpilogueEnd] = clock64();\n      }\n"),
    ],
}

for rel, edits in EDITS.items():
    f = root / rel
    text = f.read_text()
    for old, new in edits:
        n = text.count(old)
        if n != 1:
            sys.exit(f"sm90_tile_timeline_patch: anchor found {n} times in {rel}:\n{old}")
        text = text.replace(old, new.replace("tl::", "::tessera_tl::"))
    f.write_text(text)
    print(f"instrumented {rel}: {len(edits)} edits")
