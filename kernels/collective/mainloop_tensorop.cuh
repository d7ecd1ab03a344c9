// Collective mainloop, SM80 style (runs on sm_80 and Hopper): F16/BF16 in, F32 accumulate.
//
//   gmem --cp.async (16 B, zero-filled residues)--> swizzled smem, Stages deep
//   smem --ldmatrix(.trans) x4--> registers --mma.sync m16n8k16--> f32 accumulators
//
// CTA tile BM x BN x BK, warps WM x WN, each warp a (BM/WM) x (BN/WN) tile made of
// 16x8 MMA atoms.  Default 128x256x32 with 2x4 warps (64x64 per warp): per k16 step a warp
// issues 8 ldmatrix.x4 for 32 mma, and a CTA loads 384 elements per 32768 MACs, which keeps
// the L2->SM traffic of an H100 under its bandwidth at mma.sync rates.
// Vec = false replaces the 16-byte copies by element copies (any alignment, any extent).
#pragma once

#include <cstdint>

#include "../arch/copy_zfill.cuh"
#include "../kernel/problem.cuh"
#include "partitions.hpp"
#include "smem_layouts.cuh"

namespace tessera::kernels {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int Stages_, int MinBlocks_ = 1>
struct TensorOpShape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, Stages = Stages_;
  static constexpr int MinBlocks = MinBlocks_;  // CTAs per SM the register budget is cut for
  static constexpr int Threads = WM * WN * 32;
  static constexpr int WarpM = BM / WM, WarpN = BN / WN;  // warp tile
  static constexpr int MT = WarpM / 16, NT = WarpN / 8;   // MMA atoms per warp
  static_assert(BK % 16 == 0 && WarpM % 16 == 0 && WarpN % 16 == 0, "tile must be made of 16x16x16 steps");
};

// Bit-level mma.sync m16n8k16 for the two 16-bit input types.
template <bool IsBF16>
__device__ __forceinline__ void mma_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  if constexpr (IsBF16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

template <bool Trans>
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], const void* smem_row) {
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(arch::smem_addr(smem_row)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(arch::smem_addr(smem_row)));
}

// Copies MN x BK tiles of one operand (rows mn0.., columns k0..) from gmem into one stage.
// Thread t's copies are the CopyPartition TV layout at t; the gmem offset of (mn, k) is the
// operand's layout, (MN,K):(ld,1) for K-major and (MN,K):(1,ld) for MN-major.
template <class Shape, int MN, bool KMajor, bool Vec>
struct OperandLoader {
  static constexpr int BK = Shape::BK;
  static constexpr int V = Vec ? 8 : 1;  // elements per copy
  using Copy = CopyPartition<MN, BK, Shape::Threads, V, KMajor>;
  using Smem = OperandSmemLayout<MN, BK, KMajor>;
  TESSERA_HOST_DEVICE static constexpr auto make_gmem(std::int64_t ld, std::int64_t extent_mn, std::int64_t extent_k) {
    if constexpr (KMajor) return make_layout(make_shape(extent_mn, extent_k), make_stride(ld, _1{}));
    else return make_layout(make_shape(extent_mn, extent_k), make_stride(_1{}, ld));
  }
  using GmemLayout = decltype(make_gmem(0, 0, 0));

  const std::uint16_t* base;  // operand of this batch
  GmemLayout gmem;            // (mn, k) -> offset
  std::int64_t mn0;
  int thr;                    // this thread's copy offset in the tile

  __device__ OperandLoader(const std::uint16_t* b, std::int64_t ld, std::int64_t extent_mn, std::int64_t extent_k,
                           std::int64_t mn0_)
      : base(b), gmem(make_gmem(ld, extent_mn, extent_k)), mn0(mn0_), thr(Copy::thread_offset(threadIdx.x)) {}

  __device__ void load(std::uint16_t* stage, std::int64_t k0) const {
#pragma unroll
    for (int i = 0; i < Copy::Copies; ++i) {
      int mn, k;
      Copy::coord(thr, i, mn, k);
      const std::int64_t gm = mn0 + mn, gk = k0 + k;
      // Predicate on the copy's first element; the vector path needs the contiguous
      // extent to be a multiple of 8 (select_kernel checks), so a vector is all in or out.
      const bool pred = gm < get<0>(gmem.shape()) && gk < get<1>(gmem.shape());
      std::uint16_t* dst = stage + Smem::offset(mn, k);
      if constexpr (Vec) {
        arch::cp_async_16_zfill(dst, pred ? base + gmem(gm, gk) : base, pred);
      } else {
        *dst = pred ? base[gmem(gm, gk)] : std::uint16_t(0);
      }
    }
  }
};

template <class Shape, bool IsBF16, bool AKMajor, bool BKMajor, bool Vec>
struct MainloopTensorOp {
  static constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, Stages = Shape::Stages;
  static constexpr int MT = Shape::MT, NT = Shape::NT;
  using Partition = TensorOpPartition<BM, BN, Shape::WM, Shape::WN, IsBF16>;
  static_assert(Partition::MT == MT && Partition::NT == NT, "partition and tile shape disagree");
  using SmemA = OperandSmemLayout<BM, BK, AKMajor>;
  using SmemB = OperandSmemLayout<BN, BK, BKMajor>;
  static constexpr int stage_elems = SmemA::size + SmemB::size;
  static constexpr int smem_bytes = Stages * stage_elems * 2;

  using Accum = float[MT][NT][4];

  // acc += A(m0:m0+BM, :) * B(:, n0:n0+BN) over all of K.
  __device__ static void run(const Problem& p, const std::uint16_t* A, const std::uint16_t* B,
                             std::int64_t m0, std::int64_t n0, std::uint16_t* smem, Accum& acc) {
    OperandLoader<Shape, BM, AKMajor, Vec> load_a(A, p.a.ld, p.m, p.k, m0);
    OperandLoader<Shape, BN, BKMajor, Vec> load_b(B, p.b.ld, p.n, p.k, n0);
    auto stage_a = [&](int s) { return smem + s * stage_elems; };
    auto stage_b = [&](int s) { return smem + s * stage_elems + SmemA::size; };

    const int k_tiles = int((p.k + BK - 1) / BK);
    // Prologue: Stages-1 tiles in flight.
#pragma unroll
    for (int s = 0; s < Stages - 1; ++s) {
      if (s < k_tiles) {
        load_a.load(stage_a(s), std::int64_t(s) * BK);
        load_b.load(stage_b(s), std::int64_t(s) * BK);
      }
      arch::cp_async_commit();
    }

    // Each lane's ldmatrix row (k16 step 0) from the tiled MMA's TV maps.
    int a_m[MT], a_k[MT], b_n[NT / 2], b_k[NT / 2];
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) Partition::a_ldsm_row(threadIdx.x, !AKMajor, mt, a_m[mt], a_k[mt]);
#pragma unroll
    for (int np = 0; np < NT / 2; ++np) Partition::b_ldsm_row(threadIdx.x, !BKMajor, np, b_n[np], b_k[np]);

    // Fragments are double-buffered in registers: while the MMAs of step kk run, the
    // ldmatrix of step kk+1 is in flight -- across k-tiles too: the last step of a tile
    // waits for the next stage and loads its first fragments before its own MMAs.
    constexpr int KK = BK / 16;
    static_assert(KK % 2 == 0, "fragment double-buffering alternates buffers by step parity");
    std::uint32_t a[2][MT][4], b[2][NT][2];
    auto load_frags = [&](int buf, int stage, int kk) {
      const std::uint16_t* sa = stage_a(stage);
      const std::uint16_t* sb = stage_b(stage);
#pragma unroll
      for (int mt = 0; mt < MT; ++mt)
        ldmatrix_x4<!AKMajor>(a[buf][mt], sa + SmemA::offset(a_m[mt], a_k[mt] + kk * 16));
#pragma unroll
      for (int np = 0; np < NT / 2; ++np) {
        std::uint32_t r[4];
        ldmatrix_x4<!BKMajor>(r, sb + SmemB::offset(b_n[np], b_k[np] + kk * 16));
        b[buf][2 * np][0] = r[0]; b[buf][2 * np][1] = r[1];
        b[buf][2 * np + 1][0] = r[2]; b[buf][2 * np + 1][1] = r[3];
      }
    };

    arch::cp_async_wait<Stages - 2>();
    __syncthreads();  // tile 0 visible
    load_frags(0, 0, 0);
    int read_stage = 0, write_stage = Stages - 1;
    for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
      for (int kk = 0; kk < KK; ++kk) {
        if (kk == KK - 1) {
          // Tile kt+1 must have landed; after this barrier every warp is done reading
          // stage (kt-1)%Stages, which the copies issued at kk == 0 of tile kt+1 overwrite.
          arch::cp_async_wait<Stages - 2>();
          __syncthreads();
          read_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
        }
        // Prefetch the next step's fragments (the next tile's first step when kk is last).
        load_frags((kk + 1) % 2, read_stage, (kk + 1) % KK);
        if (kk == 0) {
          const int next = kt + Stages - 1;
          if (next < k_tiles) {
            load_a.load(stage_a(write_stage), std::int64_t(next) * BK);
            load_b.load(stage_b(write_stage), std::int64_t(next) * BK);
          }
          arch::cp_async_commit();
          write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
        }
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) mma_16816<IsBF16>(acc[mt][nt], a[kk % 2][mt], b[kk % 2][nt]);
      }
    }
    arch::cp_async_wait<0>();
    __syncthreads();  // smem is reused by the epilogue
  }

  // Tile coordinate (m, n) of accumulator register r of atom (mt, nt): the C TV map.
  __device__ static void acc_coord(int c_thr, int mt, int nt, int r, int& m, int& n) {
    Partition::c_coord(c_thr, mt, nt, r, m, n);
  }
  __device__ static int acc_thread() { return Partition::c_thread(threadIdx.x); }
};

}  // namespace tessera::kernels
