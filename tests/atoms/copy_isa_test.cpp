// Copy atoms' source/destination TV layouts (in bits) against the ISA's ldmatrix tables,
// and the element views Copy_Atom<Op, T> derives from them.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "isa_reference.hpp"
#include "tessera/atom/copy.hpp"

using namespace tessera;

namespace {

// The bit index of (matrix, row, b16 column, bit) in ldmatrix's data.
int64_t ldsm_bit(int matrix, int row, int col16, int bit) {
  return 1024 * matrix + 128 * row + 16 * col16 + bit;
}

template <class Op>
void check_ldsm(int count, bool trans) {
  using T = Copy_Traits<Op>;
  INFO(T::name);
  typename T::SrcLayout src{};
  typename T::DstLayout dst{};
  REQUIRE(int(size<0>(src)) == 32);
  REQUIRE(int(size<1>(src)) == 128);
  REQUIRE(int(size<0>(dst)) == 32);
  REQUIRE(int(size<1>(dst)) == 32 * count);
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane) {
    isa::SrcRow s = isa::ldmatrix_src(lane, count);
    // Unused lanes repeat the used ones (their address is ignored by the instruction).
    isa::SrcRow eff = s.used ? s : isa::ldmatrix_src(lane % (8 * count), count);
    for (int b = 0; b < 128; ++b)
      bad += src(lane, b) != ldsm_bit(eff.matrix, eff.row, b / 16, b % 16);
    // Destination value v = bit + 16 * element + 32 * register.
    for (int v = 0; v < 32 * count; ++v) {
      int reg = v / 32, e = (v / 16) % 2, bit = v % 16;
      isa::DstElem d = isa::ldmatrix_dst(lane, reg, e, trans);
      bad += dst(lane, v) != ldsm_bit(d.matrix, d.row, d.col, bit);
    }
  }
  CHECK(bad == 0);
  // Destination: every bit of the count matrices exactly once.
  std::vector<int> hits(1024 * count, 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int v = 0; v < 32 * count; ++v) ++hits[dst(lane, v)];
  for (int h : hits) CHECK(h == 1);
}

}  // namespace

TEST_CASE("ldmatrix atoms match the ISA bit for bit", "[atoms][isa][copy]") {
  check_ldsm<SM75_U32x1_LDSM_N>(1, false);
  check_ldsm<SM75_U32x2_LDSM_N>(2, false);
  check_ldsm<SM75_U32x4_LDSM_N>(4, false);
  check_ldsm<SM75_U16x2_LDSM_T>(1, true);
  check_ldsm<SM75_U16x4_LDSM_T>(2, true);
  check_ldsm<SM75_U16x8_LDSM_T>(4, true);
}

TEST_CASE("Copy_Atom views the bit layouts in elements", "[atoms][copy]") {
  // 16-bit elements: ldmatrix x4 gives each lane 8 halves; lane l's register j holds
  // row l/4, columns 2*(l%4), 2*(l%4)+1 of matrix j: element index 64*j + 2*l + e.
  using A = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
  typename A::ValLayoutDst d{};
  REQUIRE(int(size<1>(d)) == 8);
  for (int l = 0; l < 32; ++l)
    for (int v = 0; v < 8; ++v) CHECK(d(l, v) == 64 * (v / 2) + 2 * l + v % 2);
  typename A::ValLayoutSrc s{};
  REQUIRE(int(size<1>(s)) == 8);
  for (int l = 0; l < 32; ++l)
    for (int v = 0; v < 8; ++v) CHECK(s(l, v) == 8 * l + v);

  using U = Copy_Atom<UniversalCopy<uint128_t>, half_t>;
  CHECK(int(U::num_val_src()) == 8);
  CHECK(int(U::num_threads()) == 1);
  using U32 = Copy_Atom<UniversalCopy<uint32_t>, float>;
  CHECK(int(U32::num_val_dst()) == 1);
  using CA = Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<16>, bfloat16_t>;
  CHECK(int(CA::num_val_src()) == 8);
  using CA4 = Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<4>, uint8_t>;
  CHECK(int(CA4::num_val_src()) == 4);
}

TEST_CASE("STG_U32x4: one thread, 16 bytes, register i at bytes [4i, 4i+4)", "[atoms][isa][copy]") {
  using T = Copy_Traits<STG_U32x4>;
  CHECK(std::string(T::name) == "STG_U32x4");
  typename T::SrcLayout src{};
  typename T::DstLayout dst{};
  REQUIRE(int(size<0>(src)) == 1);
  REQUIRE(int(size<1>(src)) == 128);
  REQUIRE(int(size<1>(dst)) == 128);
  for (int b = 0; b < 128; ++b) CHECK((src(0, b) == b && dst(0, b) == b));
  using A = Copy_Atom<STG_U32x4, bfloat16_t>;
  CHECK(int(A::num_threads()) == 1);
  CHECK(int(A::num_val_src()) == 8);
  CHECK(int(A::num_val_dst()) == 8);
  using F = Copy_Atom<STG_U32x4, float>;
  CHECK(int(F::num_val_dst()) == 4);
  // st.global.v4.b32 [p], {r0, r1, r2, r3} writes r_i at p + 4i (little-endian words): the
  // host form does the same.
  uint32_t regs[4] = {0x03020100u, 0x07060504u, 0x0b0a0908u, 0x0f0e0d0cu};
  uint128_t out{};
  STG_U32x4::copy(regs, out);
  unsigned char bytes[16];
  std::memcpy(bytes, &out, 16);
  for (int i = 0; i < 16; ++i) CHECK(int(bytes[i]) == i);
}
