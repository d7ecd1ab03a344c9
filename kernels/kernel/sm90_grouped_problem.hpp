// One group's problem as the grouped SM90 kernel runs it: D_g^T = B_g^T A_g^T, D column-major,
// as the single-problem path runs a row-major D (sm90::as_column_major_d): the TMA-store
// epilogue stages a column-major tile (the MN-major 128B GMMA atom), stored by TMA through the
// group's map of D^T (grouped_output_arguments).
//
// The kernel's problem (m', n', k) = (N_g, M_g, K_g):
//   A' (m' x K) = B_g read as (N_g, K): K-major for a weight stored (N, K) (B_g column-major),
//                MN-major for a weight stored (K, N) (B_g row-major);
//   B' (n' x K) = A_g (tokens x K, row-major): K-major always;
//   D', C' (m' x n') = D_g^T, C_g^T column-major: element (m', n') at n' * ld + m', i.e. D_g and
//                C_g row-major, unchanged in memory.
// The operands are given as the mainloop binds them: two gmem modes (rows, K), their extents
// and element strides. A host-and-device function: the host test checks the addressing.
#pragma once

#include <cstdint>

#include <tessera/atom/tma_arguments.hpp>
#include <tessera/config.hpp>
#include <tessera/kernels/gemm_grouped.hpp>

namespace tessera::kernels::sm90 {

struct GroupedKernelProblem {
  std::int64_t m = 0, n = 0, k = 0;  // m' = N_g (features), n' = M_g (tokens)
  const void* a = nullptr;           // A' = B_g
  std::int64_t a_extent[2] = {}, a_stride[2] = {};  // modes (m', k)
  const void* b = nullptr;                           // B' = A_g
  std::int64_t b_extent[2] = {}, b_stride[2] = {};  // modes (n', k)
  std::int64_t d_extent[2] = {};                     // D' and C': (m', n')
  std::int64_t d_stride_m = 0, d_stride_n = 0;      // D' = D_g^T: (1, ldd)
  std::int64_t c_stride_m = 0, c_stride_n = 0;      // C' = C_g^T: (1, ldc)
};

// b_major: B_g's (Col: weight (N, K); Row: weight (K, N)).
TESSERA_HOST_DEVICE inline GroupedKernelProblem grouped_as_column_major_d(GroupedProblem const& p, Major b_major) {
  GroupedKernelProblem t;
  t.m = p.n, t.n = p.m, t.k = p.k;
  t.a = p.b;
  t.a_extent[0] = p.n, t.a_extent[1] = p.k;
  // B_g (k, n) at n * ldb + k (column-major) or k * ldb + n (row-major)
  t.a_stride[0] = b_major == Major::Col ? p.ldb : 1;
  t.a_stride[1] = b_major == Major::Col ? 1 : p.ldb;
  t.b = p.a;
  t.b_extent[0] = p.m, t.b_extent[1] = p.k;
  t.b_stride[0] = p.lda, t.b_stride[1] = 1;
  t.d_extent[0] = p.n, t.d_extent[1] = p.m;
  t.d_stride_m = 1, t.d_stride_n = p.ldd;
  t.c_stride_m = 1, t.c_stride_n = p.ldc;
  return t;
}

// The epilogue's TMA plan for a group's D' (or C'): the template plan of the TMA-store
// epilogue (its staging tile's boxes over a representative 2-mode column-major tensor) rebound
// to (m', n') with strides (1, ld). Its rule says whether TMA addresses the group's tensor: the
// prepare kernel writes the group as empty where it does not. TMA's bounds are the group's
// extents, so the stores of a residue tile are clipped at D_g's last row and column.
TESSERA_HOST_DEVICE inline tma::Arguments grouped_output_arguments(tma::Arguments const& tmpl, GroupedKernelProblem const& t, bool c) {
  const std::int64_t stride[2] = {c ? t.c_stride_m : t.d_stride_m, c ? t.c_stride_n : t.d_stride_n};
  return tma::rebind_gmem(tmpl, 2, t.d_extent, stride);
}

}  // namespace tessera::kernels::sm90
