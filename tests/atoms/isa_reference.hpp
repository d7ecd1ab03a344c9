// Independent encoding of the PTX ISA's fragment tables ("Matrix Fragments for mma.*",
// "Register Fragments and Shared Memory Matrix Layouts" for wgmma, and ldmatrix).
// Each function is the ISA's formula from (lane, element index) to (row, col), written
// from the ISA text. Nothing here is derived from tessera's layouts: the atom tests
// compare the atoms' TV layouts against these tables for every (thread, value).
#pragma once

namespace isa {

struct RC {
  int row;
  int col;
  friend constexpr bool operator==(RC, RC) = default;
};

constexpr int group_id(int lane) { return lane >> 2; }        // %laneid >> 2
constexpr int thread_in_group(int lane) { return lane % 4; }  // %laneid % 4

// ---------------------------------------------------------------- SIMT FMA 1x1x1
constexpr RC fma_A(int, int) { return {0, 0}; }
constexpr RC fma_B(int, int) { return {0, 0}; }
constexpr RC fma_C(int, int) { return {0, 0}; }

// ---------------------------------------------------------------- mma.m8n8k4 .f16 (SM70)
// A warp runs four independent MMAs; MMA q uses lanes 4q..4q+3 (low group) and
// 4q+16..4q+19 (high group).  All coordinates below are inside MMA q's 8x8x4 problem.
constexpr int m8n8k4_quadpair(int lane) { return (lane % 16) / 4; }
constexpr int m8n8k4_high(int lane) { return lane >= 16 ? 4 : 0; }

// A is 8x4 (M x K), elements a0..a3.
constexpr RC m8n8k4_A_row(int lane, int i) {  // .row (K-major A, "T")
  return {lane % 4 + m8n8k4_high(lane), i};
}
constexpr RC m8n8k4_A_col(int lane, int i) {  // .col (M-major A, "N")
  return {i % 4 + m8n8k4_high(lane), lane % 4};
}
// B is 4x8 (K x N), elements b0..b3.
constexpr RC m8n8k4_B_col(int lane, int i) {  // .col (K-major B, "N")
  return {i, lane % 4 + m8n8k4_high(lane)};
}
constexpr RC m8n8k4_B_row(int lane, int i) {  // .row (N-major B, "T")
  return {lane % 4, i + m8n8k4_high(lane)};
}
// C/D is 8x8 (M x N), elements c0..c7.
constexpr RC m8n8k4_C_f16(int lane, int i) { return {lane % 4 + m8n8k4_high(lane), i}; }
constexpr RC m8n8k4_C_f32(int lane, int i) {
  int tig = thread_in_group(lane);
  int row = (tig & 0b1) + (i & 0b10) + m8n8k4_high(lane);
  int col = (i & 0b100) + (tig & 0b10) + (i & 0b1);
  return {row, col};
}

// ---------------------------------------------------------------- mma.m16n8k8 .f16/.bf16
constexpr RC m16n8k8_f16_A(int lane, int i) {  // 16x8, a0..a3
  return {group_id(lane) + (i < 2 ? 0 : 8), thread_in_group(lane) * 2 + (i & 0x1)};
}
constexpr RC m16n8k8_f16_B(int lane, int i) {  // 8x8 (K x N), b0..b1
  return {thread_in_group(lane) * 2 + i, group_id(lane)};
}
// C/D 16x8 (f16 or f32 accumulators: same positions), c0..c3.  Shared by m16n8k8,
// m16n8k16 and m16n8k32.
constexpr RC m16n8_C(int lane, int i) {
  return {group_id(lane) + (i < 2 ? 0 : 8), thread_in_group(lane) * 2 + (i & 0x1)};
}

// ---------------------------------------------------------------- mma.m16n8k16 .f16/.bf16
constexpr RC m16n8k16_f16_A(int lane, int i) {  // 16x16, a0..a7
  bool upper_rows = !((i < 2) || (i >= 4 && i < 6));
  return {group_id(lane) + (upper_rows ? 8 : 0),
          thread_in_group(lane) * 2 + (i & 0x1) + (i >= 4 ? 8 : 0)};
}
constexpr RC m16n8k16_f16_B(int lane, int i) {  // 16x8 (K x N), b0..b3
  return {thread_in_group(lane) * 2 + (i & 0x1) + (i >= 2 ? 8 : 0), group_id(lane)};
}

// ---------------------------------------------------------------- mma.m16n8k8 .tf32
constexpr RC m16n8k8_tf32_A(int lane, int i) {  // 16x8, a0..a3
  return {group_id(lane) + ((i == 1 || i == 3) ? 8 : 0),
          thread_in_group(lane) + (i >= 2 ? 4 : 0)};
}
constexpr RC m16n8k8_tf32_B(int lane, int i) {  // 8x8 (K x N), b0..b1
  return {thread_in_group(lane) + (i == 1 ? 4 : 0), group_id(lane)};
}

// ---------------------------------------------------------------- mma.m8n8k4 .f64
constexpr RC m8n8k4_f64_A(int lane, int) { return {group_id(lane), thread_in_group(lane)}; }
constexpr RC m8n8k4_f64_B(int lane, int) { return {thread_in_group(lane), group_id(lane)}; }
constexpr RC m8n8k4_f64_C(int lane, int i) {
  return {group_id(lane), thread_in_group(lane) * 2 + i};
}

// ---------------------------------------------------------------- mma.m16n8k32 .s8/.u8
constexpr RC m16n8k32_s8_A(int lane, int i) {  // 16x32, a0..a15
  bool low_rows = (i < 4) || (i >= 8 && i < 12);
  return {group_id(lane) + (low_rows ? 0 : 8),
          thread_in_group(lane) * 4 + (i & 0x3) + (i >= 8 ? 16 : 0)};
}
constexpr RC m16n8k32_s8_B(int lane, int i) {  // 32x8 (K x N), b0..b7
  return {thread_in_group(lane) * 4 + (i & 0x3) + (i >= 4 ? 16 : 0), group_id(lane)};
}

// ---------------------------------------------------------------- wgmma.m64nNk16 (SM90)
// A warpgroup is 128 threads: warp w = tid / 32 of the group owns rows 16w..16w+15.
// Accumulator D (64 x N), d0..d(N/2-1):
constexpr RC wgmma_m64nNk16_D(int tid, int i) {
  int warp = tid / 32, lane = tid % 32;
  return {16 * warp + group_id(lane) + ((i % 4) >= 2 ? 8 : 0),
          (i / 4) * 8 + thread_in_group(lane) * 2 + (i & 0x1)};
}
// A from registers (.f16/.bf16), 64 x 16, a0..a7: each warp holds its 16x16 slice in the
// m16n8k16 A arrangement.
constexpr RC wgmma_m64nNk16_A_reg(int tid, int i) {
  int warp = tid / 32, lane = tid % 32;
  RC rc = m16n8k16_f16_A(lane, i);
  return {16 * warp + rc.row, rc.col};
}
// A from registers (.tf32), 64 x 8, a0..a3: each warp holds its 16x8 slice in the
// m16n8k8 .tf32 A arrangement (wgmma.m64nNk8; the accumulator is wgmma_m64nNk16_D's).
constexpr RC wgmma_m64nNk8_A_reg(int tid, int i) {
  int warp = tid / 32, lane = tid % 32;
  RC rc = m16n8k8_tf32_A(lane, i);
  return {16 * warp + rc.row, rc.col};
}
// A from registers (8-bit types: .e4m3/.e5m2/.s8/.u8, wgmma.m64nNk32), 64 x 32, a0..a15 (four
// bytes in each of four registers): each warp holds its 16x32 slice in the m16n8k32 .s8 A
// arrangement; the accumulator is wgmma_m64nNk16_D's.
constexpr RC wgmma_m64nNk32_A_reg(int tid, int i) {
  int warp = tid / 32, lane = tid % 32;
  RC rc = m16n8k32_s8_A(lane, i);
  return {16 * warp + rc.row, rc.col};
}
// A/B from shared memory: the whole warpgroup reads the whole (M,K) = (64,16) tile of A
// and the (N,K) tile of B (K = 8 for tf32); no element belongs to one thread.  Element e of the tile, in
// column-major (row, k) order:
constexpr RC wgmma_smem_A(int e) { return {e % 64, e / 64}; }
constexpr RC wgmma_smem_B(int n, int e) { return {e % n, e / n}; }

// ---------------------------------------------------------------- ldmatrix .m8n8 .b16
// Source: for .x1/.x2/.x4 (count = 1/2/4 matrices) lanes 0..8*count-1 supply the row
// addresses: lanes 8j..8j+7 give rows 0..7 of matrix j.  Other lanes' addresses unused.
struct SrcRow {
  int matrix;
  int row;
  bool used;
};
constexpr SrcRow ldmatrix_src(int lane, int count) {
  return {lane / 8, lane % 8, lane < 8 * count};
}
// Destination: register j of each lane holds matrix j; in it, b16 element e (0 or 1).
// Without .trans: row = lane/4, col = 2*(lane%4) + e.  With .trans the matrix is read
// transposed: row = 2*(lane%4) + e, col = lane/4 (of the matrix as stored).
struct DstElem {
  int matrix;
  int row;  // row of the stored 8x8 matrix (one 16-byte row per address)
  int col;  // b16 element within that row
};
constexpr DstElem ldmatrix_dst(int lane, int reg, int e, bool trans) {
  if (!trans) return {reg, lane / 4, 2 * (lane % 4) + e};
  return {reg, 2 * (lane % 4) + e, lane / 4};
}

}  // namespace isa
