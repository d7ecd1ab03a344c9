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
#include "smem_layouts.cuh"

namespace tessera::kernels {

template <int BM_, int BN_, int BK_, int WM_, int WN_, int Stages_>
struct TensorOpShape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, Stages = Stages_;
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
// Each thread owns fixed vectors of the tile, so the mn part of its addresses and
// predicates is computed once; only k moves.
template <class Shape, int MN, bool KMajor, bool Vec>
struct OperandLoader {
  static constexpr int BK = Shape::BK;
  static constexpr int V = Vec ? 8 : 1;                   // elements per copy
  static constexpr int Copies = MN * BK / V / Shape::Threads;
  static_assert(Copies * V * Shape::Threads == MN * BK, "threads must tile the operand tile");
  using Smem = OperandSmemLayout<MN, BK, KMajor>;
  // Copy index -> (mn, k) in the tile: vectors run along the contiguous mode, threads
  // fastest along it too (coalesced).
  __device__ static void coord(int idx, int& mn, int& k) {
    if constexpr (KMajor) { mn = idx / (BK / V); k = (idx % (BK / V)) * V; }
    else { k = idx / (MN / V); mn = (idx % (MN / V)) * V; }
  }

  const std::uint16_t* base;  // operand of this batch
  std::int64_t ld, extent_mn, extent_k;
  std::int64_t mn0;

  __device__ void load(std::uint16_t* stage, std::int64_t k0) const {
#pragma unroll
    for (int i = 0; i < Copies; ++i) {
      int mn, k;
      coord(threadIdx.x + i * Shape::Threads, mn, k);
      const std::int64_t gm = mn0 + mn, gk = k0 + k;
      const bool pred = gm < extent_mn && gk < extent_k;
      const std::int64_t off = KMajor ? gm * ld + gk : gk * ld + gm;
      std::uint16_t* dst = stage + Smem::offset(mn, k);
      if constexpr (Vec) {
        arch::cp_async_16_zfill(dst, pred ? base + off : base, pred);
      } else {
        *dst = pred ? base[off] : std::uint16_t(0);
      }
    }
  }
};

template <class Shape, bool IsBF16, bool AKMajor, bool BKMajor, bool Vec>
struct MainloopTensorOp {
  static constexpr int BM = Shape::BM, BN = Shape::BN, BK = Shape::BK, Stages = Shape::Stages;
  static constexpr int MT = Shape::MT, NT = Shape::NT;
  using SmemA = OperandSmemLayout<BM, BK, AKMajor>;
  using SmemB = OperandSmemLayout<BN, BK, BKMajor>;
  static constexpr int stage_elems = SmemA::size + SmemB::size;
  static constexpr int smem_bytes = Stages * stage_elems * 2;

  using Accum = float[MT][NT][4];

  // acc += A(m0:m0+BM, :) * B(:, n0:n0+BN) over all of K.
  __device__ static void run(const Problem& p, const std::uint16_t* A, const std::uint16_t* B,
                             std::int64_t m0, std::int64_t n0, std::uint16_t* smem, Accum& acc) {
    OperandLoader<Shape, BM, AKMajor, Vec> load_a{A, p.a.ld, p.m, p.k, m0};
    OperandLoader<Shape, BN, BKMajor, Vec> load_b{B, p.b.ld, p.n, p.k, n0};
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

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wm = warp % Shape::WM, wn = warp / Shape::WM;
    const int warp_m0 = wm * Shape::WarpM, warp_n0 = wn * Shape::WarpN;
    // ldmatrix x4 row addresses: lane l addresses row l%8 of 8x8 matrix l/8.
    // A (16x16 of an MMA): matrices (m0-7,k0-7) (m8-15,k0-7) (m0-7,k8-15) (m8-15,k8-15) = a0..a3.
    const int a_mn = AKMajor ? (lane % 8) + 8 * ((lane / 8) % 2) : 8 * ((lane / 8) % 2);
    const int a_k = AKMajor ? 8 * (lane / 16) : (lane % 8) + 8 * (lane / 16);
    // B (16 n x 16 k, two n8 atoms): matrices (n0-7,k0-7) (n0-7,k8-15) (n8-15,k0-7) (n8-15,k8-15)
    // = b0,b1 of atom 2j and b0,b1 of atom 2j+1.
    const int b_mn = BKMajor ? (lane % 8) + 8 * (lane / 16) : 8 * (lane / 16);
    const int b_k = BKMajor ? 8 * ((lane / 8) % 2) : (lane % 8) + 8 * ((lane / 8) % 2);

    for (int kt = 0; kt < k_tiles; ++kt) {
      arch::cp_async_wait<Stages - 2>();
      __syncthreads();  // tile kt visible to all; stage (kt-1)%Stages free to overwrite
      const int next = kt + Stages - 1;
      if (next < k_tiles) {
        load_a.load(stage_a(next % Stages), std::int64_t(next) * BK);
        load_b.load(stage_b(next % Stages), std::int64_t(next) * BK);
      }
      arch::cp_async_commit();

      const std::uint16_t* sa = stage_a(kt % Stages);
      const std::uint16_t* sb = stage_b(kt % Stages);
#pragma unroll
      for (int kk = 0; kk < BK; kk += 16) {
        std::uint32_t a[MT][4], b[NT][2];
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
          ldmatrix_x4<!AKMajor>(a[mt], sa + SmemA::offset(warp_m0 + mt * 16 + a_mn, kk + a_k));
#pragma unroll
        for (int np = 0; np < NT / 2; ++np) {
          std::uint32_t r[4];
          ldmatrix_x4<!BKMajor>(r, sb + SmemB::offset(warp_n0 + np * 16 + b_mn, kk + b_k));
          b[2 * np][0] = r[0]; b[2 * np][1] = r[1];
          b[2 * np + 1][0] = r[2]; b[2 * np + 1][1] = r[3];
        }
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) mma_16816<IsBF16>(acc[mt][nt], a[mt], b[nt]);
      }
    }
    arch::cp_async_wait<0>();
    __syncthreads();  // smem is reused by the epilogue
  }

  // Tile coordinate (m, n) of accumulator register r of atom (mt, nt) held by this thread:
  // the m16n8 C fragment gives lane (g = lane/4, c = lane%4) rows g, g+8 and columns 2c, 2c+1.
  __device__ static void acc_coord(int mt, int nt, int r, int& m, int& n) {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    m = (warp % Shape::WM) * Shape::WarpM + mt * 16 + lane / 4 + 8 * (r / 2);
    n = (warp / Shape::WM) * Shape::WarpN + nt * 8 + 2 * (lane % 4) + (r % 2);
  }
};

}  // namespace tessera::kernels
