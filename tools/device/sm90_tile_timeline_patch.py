#!/usr/bin/env python3
"""Instrument a COPY of the SM90 cooperative kernel's headers with per-unit clock stamps of its
whole-tile path (tools/device/run_sm90_tile_timeline.sh runs it on a copy in the probe's build
dir; the library's headers are never changed): per (CTA, unit, role) the unit's start, the
consumers' first full barrier, last k-tile issued, wgmma drained, full-barrier waits, the
epilogue's parts (store wait, staging barriers, staging, TMA store issued) and its end; the
producer's first empty barrier, first and last TMA issued and empty-barrier waits.
Usage: sm90_tile_timeline_patch.py <tree copy> [--check]

Groups (timeline_patch.py: every anchor found exactly once or nothing is written, the anchor
named; an instrumented copy refused; --check changes nothing):
  after the tile      the shipped epilogue order (always)
  under the next tile the epilogue order EpilogueUnderNextTile<H> (the kernel's
                      consume_overlapped, the mainloop's mma_head / mma_tail, the epilogue's
                      pack / store_packed), applied where kernels/kernel/sm90_epilogue_order.hpp
                      exists
The hooks call ::tessera_tl:: (sm90_tile_timeline_hooks.cuh, included by the probe first). Thread
0 of each consumer warpgroup and the producer thread write the stamps; the record pointers live
in the mainloop's and the epilogue's shared storage tail padding (the probe asserts that the
kernel's shared memory and stage count are the library's).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timeline_patch import PRODUCER_KLOOP, Group, main  # noqa: E402

MAINLOOP = "kernels/collective/sm90_mainloop_tma_wgmma.cuh"
STORAGE = "kernels/kernel/sm90_shared_storage.hpp"
KERNEL = "kernels/kernel/sm90_gemm_tma_warpspecialized.cuh"
EPILOGUE = "kernels/collective/sm90_epilogue_tma.cuh"
ORDER = "kernels/kernel/sm90_epilogue_order.hpp"

# The epilogue's part H (store_part and store_packed_part alike): the record of the warpgroup's
# current (or packed) unit, its leader only.
PART_RECORD = "    unsigned long long* tl_r = (leader && H < tl::MaxParts) ? tl_s.tl[wg] : nullptr;\n    tl::stamp(tl_r, tl::part(H, 0));\n"

AFTER_TILE = {
    STORAGE: [
        # each role's current record (0 producer, 1.. consumer warpgroups) and the consumers'
        # running full-barrier wait, in the mainloop storage's tail padding (1 KiB aligned)
        ("  alignas(1024) unsigned char b[Stages * StageBytesB];\n"
         "  alignas(16) pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;\n};\n",
         "  alignas(1024) unsigned char b[Stages * StageBytesB];\n"
         "  alignas(16) pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;\n"
         "  unsigned long long* tl[4];\n  unsigned long long tl_wait[4];\n};\n"),
        # each consumer warpgroup's record of the unit it stores, in the epilogue storage's
        # tail padding (1 KiB aligned too)
        ("  uint32_t c_phase[Buffers];\n};\n",
         "  uint32_t c_phase[Buffers];\n  unsigned long long* tl[4];\n};\n"),
    ],
    MAINLOOP: [
        *PRODUCER_KLOOP,
        # the producer's units: the record of its j-th
        ("    for (int64_t u = first; u < units; u += step) {\n      const auto w = scheduler.work(u);\n",
         "    int tl_j = 0;\n    for (int64_t u = first; u < units; u += step, ++tl_j) {\n"
         "      {\n        unsigned long long* r = tl::record(tl_j, 0);\n        s.tl[0] = r;\n        tl::begin(r, u);\n      }\n"
         "      const auto w = scheduler.work(u);\n"
         "      if (s.tl[0]) s.tl[0][tl::KTiles] = (unsigned long long)(w.k_end - w.k_begin);\n"),
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
    EPILOGUE: [
        # part H: entry, the leader's store wait passed (the buffer's previous store has read
        # it), barrier 1 passed, staged (C waited for where loaded) + barrier 2 passed, TMA
        # store issued and committed
        ("                                                    bool leader, uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l, bool prefetched) {\n"
         "    if (leader) {\n      tma_store_wait<0>();  // the previous store has read the buffer\n",
         "                                                    bool leader, uint32_t buffer, int64_t tile_m, int64_t tile_n, int64_t l, bool prefetched) {\n"
         "    SharedStorage& tl_s = s;\n" + PART_RECORD +
         "    if (leader) {\n      tma_store_wait<0>();  // the previous store has read the buffer\n"
         "      tl::stamp(tl_r, tl::part(H, 1));\n"),
        ("    staging_barrier(bar);\n    if (ctx.load_c) {\n",
         "    staging_barrier(bar);\n    tl::stamp(tl_r, tl::part(H, 2));\n    if (ctx.load_c) {\n"),
        ("    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)\n    staging_barrier(bar);\n"
         "    if (leader) {\n      if (ctx.load_c) s.c_phase[bar] ^= 1u;",
         "    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)\n    staging_barrier(bar);\n"
         "    tl::stamp(tl_r, tl::part(H, 3));\n"
         "    if (leader) {\n      if (ctx.load_c) s.c_phase[bar] ^= 1u;"),
        ("      copy(p.tma_d.with(maps.d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));\n"
         "      tma_store_commit();\n",
         "      copy(p.tma_d.with(maps.d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));\n"
         "      tma_store_commit();\n      tl::stamp(tl_r, tl::part(H, 4));\n"),
    ],
    KERNEL: [
        # consumer unit start: the record of the CTA's j-th unit, in both storages
        ("      for (int64_t u = first; u < units; u += step) {\n"
         "        // C (beta != 0) starts coming while the mainloop runs;",
         "      int tl_j = 0;\n      for (int64_t u = first; u < units; u += step, ++tl_j) {\n"
         "        if (thread % 128 == 0) {\n          unsigned long long* r = tl::record(tl_j, wg);\n          s.tl[wg] = r;\n"
         "          shared.epilogue.tl[wg - 1] = r;\n          tl::begin(r, u);\n        }\n"
         "        // C (beta != 0) starts coming while the mainloop runs;"),
        ("          const auto w = p.scheduler.work(u);\n          c_prefetched = ",
         "          const auto w = p.scheduler.work(u);\n"
         "          if (thread % 128 == 0 && s.tl[wg]) s.tl[wg][tl::KTiles] = (unsigned long long)(w.k_end - w.k_begin);\n"
         "          c_prefetched = "),
        # the epilogue: begun (after the unit's mainloop and, split units, their meeting) and done
        ("        if constexpr (Mainloop::Bits == 8)  // FP8's per-tensor or rowwise scales\n",
         "        if (thread % 128 == 0) tl::stamp(s.tl[wg], tl::C_EpiStart);\n"
         "        if constexpr (Mainloop::Bits == 8)  // FP8's per-tensor or rowwise scales\n"),
        ("                        Mainloop::cta_tile_m(tile_m, rank), Mainloop::cta_tile_n(tile_n, rank), tile_l, acc, 0, c_prefetched);\n      }\n",
         "                        Mainloop::cta_tile_m(tile_m, rank), Mainloop::cta_tile_n(tile_n, rank), tile_l, acc, 0, c_prefetched);\n"
         "        if (thread % 128 == 0) tl::end(s.tl[wg]);\n      }\n"),
    ],
}

# EpilogueUnderNextTile<H>: a unit's record is set at take(); its mainloop stamps come from
# mma_head / mma_tail (the wgmmas of one k-tile through issue_k_tile); pack() hands the record
# to the epilogue storage, whose parts (store_packed_part) stamp it while the next unit's head
# runs.
UNDER_NEXT_TILE = {
    MAINLOOP: [
        # each k-tile: the full-barrier wait (summed in shared memory across mma_head and
        # mma_tail), the unit's first full barrier
        ("    auto tCrC = make_tensor(&acc.v[0], partition_fragment_C(TiledMma{}, make_shape(C<BM>{}, C<BN>{})).layout());\n"
         "    while (!s.pipe.consumer_try_wait(st)) {}\n",
         "    auto tCrC = make_tensor(&acc.v[0], partition_fragment_C(TiledMma{}, make_shape(C<BM>{}, C<BN>{})).layout());\n"
         "    const int tl_w = int(threadIdx.x / 128);\n"
         "    unsigned long long* tl_r = (threadIdx.x % 128 == 0) ? s.tl[tl_w] : nullptr;\n"
         "    const unsigned long long tl_t0 = clock64();\n"
         "    while (!s.pipe.consumer_try_wait(st)) {}\n"
         "    if (tl_r) {\n      const unsigned long long tl_t1 = clock64();\n"
         "      if (first) { tl_r[tl::C_FirstFull] = tl_t1; s.tl_wait[tl_w] = 0; }\n"
         "      s.tl_wait[tl_w] += tl_t1 - tl_t0;\n    }\n"),
        # the last k-tile's wgmmas issued: in the head (a unit of at most H k-tiles) or the tail
        ("      issue_k_tile(s, st, thr, acc, f.issued == 0);\n",
         "      issue_k_tile(s, st, thr, acc, f.issued == 0);\n"
         "      if (f.issued == k_tiles - 1 && threadIdx.x % 128 == 0) tl::stamp(s.tl[threadIdx.x / 128], tl::C_LastIssued);\n"),
        ("      issue_k_tile(s, st, thr, acc, kt == 0);\n",
         "      issue_k_tile(s, st, thr, acc, kt == 0);\n"
         "      if (kt == k_tiles - 1 && threadIdx.x % 128 == 0) tl::stamp(s.tl[threadIdx.x / 128], tl::C_LastIssued);\n"),
        # every wgmma of the unit retired
        ("    GMMA::warpgroup_wait<0>();\n    GMMA::warpgroup_fence_operand(acc.v);\n    for (; held > 0; --held, ++f.oldest)\n",
         "    GMMA::warpgroup_wait<0>();\n"
         "    if (threadIdx.x % 128 == 0 && s.tl[threadIdx.x / 128]) {\n"
         "      s.tl[threadIdx.x / 128][tl::C_MainloopEnd] = clock64();\n"
         "      s.tl[threadIdx.x / 128][tl::C_FullWait] = s.tl_wait[threadIdx.x / 128];\n    }\n"
         "    GMMA::warpgroup_fence_operand(acc.v);\n    for (; held > 0; --held, ++f.oldest)\n"),
    ],
    EPILOGUE: [
        # part H of the packed tile (no C): entry, store wait, barrier 1, staged + barrier 2,
        # TMA store committed. store_packed_part has no storage argument: its buffer is
        # s.d[bar] (store_packed passes Staging::buffer(0, wg) as both), the storage's first
        # member, so the storage starts bar staging buffers before it.
        ("    if (leader) tma_store_wait<0>();  // the previous store has read the buffer\n"
         "    staging_barrier(bar);\n"
         "    stsm_instructions<H / Parts, (H % Parts) * K>(std::make_integer_sequence<int, K>{}, src, dst);\n"
         "    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)\n"
         "    staging_barrier(bar);\n"
         "    if (leader) {\n"
         "      copy(p.tma_d.with(maps_of(p).d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));\n"
         "      tma_store_commit();\n"
         "    }\n",
         "    SharedStorage& tl_s = *reinterpret_cast<SharedStorage*>(static_cast<unsigned char*>(__cvta_shared_to_generic(size_t(buffer))) -\n"
         "                                                            size_t(bar) * size_t(epilogue_staging_bytes));\n"
         + PART_RECORD +
         "    if (leader) tma_store_wait<0>();  // the previous store has read the buffer\n"
         "    tl::stamp(tl_r, tl::part(H, 1));\n"
         "    staging_barrier(bar);\n"
         "    tl::stamp(tl_r, tl::part(H, 2));\n"
         "    stsm_instructions<H / Parts, (H % Parts) * K>(std::make_integer_sequence<int, K>{}, src, dst);\n"
         "    fence_proxy_async();  // generic-proxy writes, read next by the TMA (async proxy)\n"
         "    staging_barrier(bar);\n"
         "    tl::stamp(tl_r, tl::part(H, 3));\n"
         "    if (leader) {\n"
         "      copy(p.tma_d.with(maps_of(p).d), buffer, tma::coord_of(Staging::part_origin(tile_m, tile_n, l, wg, H)));\n"
         "      tma_store_commit();\n"
         "      tl::stamp(tl_r, tl::part(H, 4));\n"
         "    }\n"),
    ],
    KERNEL: [
        # the steps' records: the current unit's (take) and the packed one's (pack)
        ("    int32_t pm = 0, pn = 0, pl = 0;\n",
         "    int32_t pm = 0, pn = 0, pl = 0;\n"
         "    unsigned long long* tl_cur = nullptr;\n    unsigned long long* tl_packed = nullptr;\n    int tl_j = 0;\n"),
        ("    __device__ __forceinline__ void take(int64_t unit) {\n      const auto w = p.scheduler.work(unit);\n",
         "    __device__ __forceinline__ void take(int64_t unit) {\n"
         "      if (thread % 128 == 0) {\n        tl_cur = tl::record(tl_j++, wg);\n        shared.mainloop.tl[wg] = tl_cur;\n"
         "        tl::begin(tl_cur, unit);\n      }\n"
         "      const auto w = p.scheduler.work(unit);\n"
         "      if (tl_cur) tl_cur[tl::KTiles] = (unsigned long long)(w.k_end - w.k_begin);\n"),
        # (the epilogue starts before FP8's scales, which come before the pack)
        ("    __device__ __forceinline__ void pack() {\n",
         "    __device__ __forceinline__ void pack() {\n"
         "      tl::stamp(tl_cur, tl::C_EpiStart);\n"),
        ("      Epilogue::pack(p.epilogue, tiled, epilogue_thread(), Mainloop::cta_tile_m(tm, rank), Mainloop::cta_tile_n(tn, rank), tl, acc, packed);\n",
         "      Epilogue::pack(p.epilogue, tiled, epilogue_thread(), Mainloop::cta_tile_m(tm, rank), Mainloop::cta_tile_n(tn, rank), tl, acc, packed);\n"
         "      tl::stamp(tl_cur, tl::C_PackEnd);\n"
         "      tl_packed = tl_cur;\n"
         "      if (thread % 128 == 0) shared.epilogue.tl[wg - 1] = tl_packed;\n"),
        ("      Epilogue::store_packed(p.epilogue, shared.epilogue, tiled, epilogue_thread(), Mainloop::cta_tile_m(pm, rank), Mainloop::cta_tile_n(pn, rank), pl, packed);\n",
         "      tl::stamp(tl_packed, tl::C_StoreStart);\n"
         "      Epilogue::store_packed(p.epilogue, shared.epilogue, tiled, epilogue_thread(), Mainloop::cta_tile_m(pm, rank), Mainloop::cta_tile_n(pn, rank), pl, packed);\n"
         "      tl::end(tl_packed);\n"),
    ],
}

GROUPS = [Group("after the tile", AFTER_TILE), Group("under the next tile", UNDER_NEXT_TILE, when=ORDER)]

if __name__ == "__main__":
    main("sm90_tile_timeline_patch", "tessera_tl", GROUPS, sys.argv)
