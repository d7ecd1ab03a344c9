// Collective mainloop, SIMT FP32: gmem --cp.async 4 B (zero-filled residues)--> smem,
// Stages deep; smem --LDS.128--> registers; FFMA outer products.
//
// CTA tile 128 x 128 x 8, 256 threads as a 16 x 16 grid; thread (tm, tn) owns the 8 x 8
// outer product of rows {4tm..4tm+3, 64+4tm..64+4tm+3} and the same pattern of columns, so
// each k step is 4 LDS.128 (two for A, two for B) for 64 FFMA.
// Both operands are stored MN-major in smem (sX[k][mn], rows padded to 132 floats):
//   reads: a warp's 16 tm read 256 contiguous bytes of one k-row (2 wavefronts, the
//   minimum), the 2 tn of a warp read 2 float4 (broadcast);
//   writes of a K-major operand (transposed on the way): a warp covers 4 mn x 8 k, banks
//   (4k + mn) mod 32 with the 132-float row pitch are all distinct; MN-major operands write
//   32 consecutive floats of one row.
#pragma once

#include <cstdint>

#include "../arch/copy_zfill.cuh"
#include "../kernel/problem.cuh"

namespace tessera::kernels {

struct SimtShape {
  static constexpr int BM = 128, BN = 128, BK = 8, Stages = 3, Threads = 256;
  static constexpr int TM = 8, TN = 8;  // per-thread outer product
  static constexpr int Pitch = 128 + 4; // smem row pitch (floats)
};

template <int MN, bool KMajor>
struct SimtOperandLoader {
  using S = SimtShape;
  static constexpr int Copies = MN * S::BK / S::Threads;
  // Copy index -> (mn, k): threads run fastest along the operand's contiguous mode.
  __device__ static void coord(int idx, int& mn, int& k) {
    if constexpr (KMajor) { k = idx % S::BK; mn = idx / S::BK; }
    else { mn = idx % MN; k = idx / MN; }
  }
  const float* base;
  std::int64_t ld, extent_mn, extent_k, mn0;

  __device__ void load(float* stage, std::int64_t k0) const {
#pragma unroll
    for (int i = 0; i < Copies; ++i) {
      int mn, k;
      coord(threadIdx.x + i * S::Threads, mn, k);
      const std::int64_t gm = mn0 + mn, gk = k0 + k;
      const bool pred = gm < extent_mn && gk < extent_k;
      const std::int64_t off = KMajor ? gm * ld + gk : gk * ld + gm;
      arch::cp_async_4_zfill(stage + k * S::Pitch + mn, pred ? base + off : base, pred);
    }
  }
};

template <bool AKMajor, bool BKMajor>
struct MainloopSimt {
  using S = SimtShape;
  static constexpr int stage_floats = 2 * S::BK * S::Pitch;
  static constexpr int smem_bytes = S::Stages * stage_floats * 4;
  using Accum = float[S::TM][S::TN];

  // Tile row of the thread's i-th accumulator row (i < 8); same function for columns.
  __device__ static int row_of(int t, int i) { return (i / 4) * 64 + 4 * t + (i % 4); }
  __device__ static int thread_m() { return threadIdx.x % 16; }
  __device__ static int thread_n() { return threadIdx.x / 16; }

  __device__ static void run(const Problem& p, const float* A, const float* B, std::int64_t m0,
                             std::int64_t n0, float* smem, Accum& acc) {
    SimtOperandLoader<S::BM, AKMajor> load_a{A, p.a.ld, p.m, p.k, m0};
    SimtOperandLoader<S::BN, BKMajor> load_b{B, p.b.ld, p.n, p.k, n0};
    auto stage_a = [&](int s) { return smem + s * stage_floats; };
    auto stage_b = [&](int s) { return smem + s * stage_floats + S::BK * S::Pitch; };
    const int k_tiles = int((p.k + S::BK - 1) / S::BK);
#pragma unroll
    for (int s = 0; s < S::Stages - 1; ++s) {
      if (s < k_tiles) {
        load_a.load(stage_a(s), std::int64_t(s) * S::BK);
        load_b.load(stage_b(s), std::int64_t(s) * S::BK);
      }
      arch::cp_async_commit();
    }
    const int tm = thread_m(), tn = thread_n();
    for (int kt = 0; kt < k_tiles; ++kt) {
      arch::cp_async_wait<S::Stages - 2>();
      __syncthreads();
      const int next = kt + S::Stages - 1;
      if (next < k_tiles) {
        load_a.load(stage_a(next % S::Stages), std::int64_t(next) * S::BK);
        load_b.load(stage_b(next % S::Stages), std::int64_t(next) * S::BK);
      }
      arch::cp_async_commit();
      const float* sa = stage_a(kt % S::Stages);
      const float* sb = stage_b(kt % S::Stages);
#pragma unroll
      for (int k = 0; k < S::BK; ++k) {
        float a[S::TM], b[S::TN];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const float4 va = *reinterpret_cast<const float4*>(sa + k * S::Pitch + row_of(tm, 4 * h));
          const float4 vb = *reinterpret_cast<const float4*>(sb + k * S::Pitch + row_of(tn, 4 * h));
          a[4 * h] = va.x; a[4 * h + 1] = va.y; a[4 * h + 2] = va.z; a[4 * h + 3] = va.w;
          b[4 * h] = vb.x; b[4 * h + 1] = vb.y; b[4 * h + 2] = vb.z; b[4 * h + 3] = vb.w;
        }
#pragma unroll
        for (int i = 0; i < S::TM; ++i)
#pragma unroll
          for (int j = 0; j < S::TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
    arch::cp_async_wait<0>();
  }
};

// Epilogue for f32: straight from registers; 4 consecutive values along D's contiguous mode
// go out as one 16-byte store where D allows vectors.
template <class Mainloop>
struct EpilogueSimt {
  using S = SimtShape;
  __device__ static void run(const Problem& p, const typename Mainloop::Accum& acc, float* D,
                             const float* C, std::int64_t m0, std::int64_t n0) {
    const int tm = Mainloop::thread_m(), tn = Mainloop::thread_n();
    const bool use_c = p.beta != 0.0f;
    auto elem = [&](std::int64_t gm, std::int64_t gn, const MatrixArg& x) {
      return p.d.row ? gm * x.ld + gn : gn * x.ld + gm;
    };
#pragma unroll
    for (int i = 0; i < S::TM; ++i)
#pragma unroll
      for (int j = 0; j < S::TN; ++j) {
        // Vector groups: 4 rows (col-major D) or 4 columns (row-major D) starting here.
        const bool group_start = p.d.row ? (j % 4 == 0) : (i % 4 == 0);
        const std::int64_t gm = m0 + Mainloop::row_of(tm, i), gn = n0 + Mainloop::row_of(tn, j);
        if (p.d_vector_ok && group_start) {
          const bool in = p.d.row ? (gm < p.m && gn + 3 < p.n) : (gm + 3 < p.m && gn < p.n);
          if (in) {
            float v[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) v[e] = p.alpha * (p.d.row ? acc[i][j + e] : acc[i + e][j]);
            if (use_c) {
              const float4 c = *reinterpret_cast<const float4*>(C + elem(gm, gn, p.c));
              v[0] += p.beta * c.x; v[1] += p.beta * c.y; v[2] += p.beta * c.z; v[3] += p.beta * c.w;
            }
            *reinterpret_cast<float4*>(D + elem(gm, gn, p.d)) = float4{v[0], v[1], v[2], v[3]};
            continue;
          }
        }
        if (p.d_vector_ok) {
          // Inside a group whose start stored the whole vector?  Then nothing left to do.
          const int gi = p.d.row ? j - j % 4 : i - i % 4;
          const std::int64_t sm = m0 + Mainloop::row_of(tm, p.d.row ? i : gi);
          const std::int64_t sn = n0 + Mainloop::row_of(tn, p.d.row ? gi : j);
          const bool stored = p.d.row ? (sm < p.m && sn + 3 < p.n) : (sm + 3 < p.m && sn < p.n);
          if (stored) continue;
        }
        if (gm < p.m && gn < p.n) {
          float v = p.alpha * acc[i][j];
          if (use_c) v += p.beta * C[elem(gm, gn, p.c)];
          D[elem(gm, gn, p.d)] = v;
        }
      }
  }
};

}  // namespace tessera::kernels
