// GMMA shared-memory layout atoms and wgmma descriptors.
// Descriptors are checked against the PTX ISA's definition read independently
// (isa_gmma.hpp): for every element of every operand tile, the byte address the descriptor
// makes the hardware read equals the address tessera's swizzled layout gives that element.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <set>
#include <string>

#include "isa_gmma.hpp"
#include "tessera/rt/algebra.hpp"
#include "tessera/rt/to_runtime_swizzled.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/atom/gmma_descriptor.hpp"

using namespace tessera;
using GMMA::Major;
using analysis::GmmaAtomSpec;

namespace {

const int kBits[] = {8, 16, 32};
const int kSwizzles[] = {16, 32, 64, 128};
const Major kMajors[] = {Major::K, Major::MN};

// ------------------------------------------------------------------ atoms: known answers
static_assert(std::is_same_v<GMMA::Layout_K_SW128_Atom<bfloat16_t>,
                             ComposedLayout<Swizzle<3, 3, 3>, _0, Layout<tuple<_8, _64>, tuple<_64, _1>>>>);
static_assert(std::is_same_v<GMMA::Layout_MN_SW128_Atom<half_t>,
                             ComposedLayout<Swizzle<3, 3, 3>, _0, Layout<tuple<_64, _8>, tuple<_1, _64>>>>);
static_assert(std::is_same_v<GMMA::Layout_K_SW32_Atom<tfloat32_t>,
                             ComposedLayout<Swizzle<1, 2, 3>, _0, Layout<tuple<_8, _8>, tuple<_8, _1>>>>);
static_assert(std::is_same_v<GMMA::Layout_K_INTER_Atom<half_t>,
                             ComposedLayout<Swizzle<0, 3, 3>, _0, Layout<tuple<_8, _8>, tuple<_8, _1>>>>);
static_assert(std::is_same_v<GMMA::Layout_K_SW64_Atom<int8_t>,
                             ComposedLayout<Swizzle<2, 4, 3>, _0, Layout<tuple<_8, _64>, tuple<_64, _1>>>>);

TEST_CASE("GMMA atoms: the runtime tier and the names give the static atoms") {
  CHECK(rt::to_string(rt::to_runtime(GMMA::Layout_K_SW128_Atom<bfloat16_t>{})) == "Sw<3,3,3> o 0 o (8,64):(64,1)");
  auto check = [](auto atom, int bits, Major mj, int sw) {
    const GmmaAtomSpec spec{bits, mj, sw};
    INFO(analysis::gmma_atom_name(spec));
    CHECK(rt::to_runtime(atom) == analysis::gmma_layout_atom(spec));
    const auto parsed = analysis::parse_gmma_atom_name(analysis::gmma_atom_name(spec));
    REQUIRE(parsed.has_value());
    CHECK(parsed->bits == bits);
    CHECK(parsed->major == mj);
    CHECK(parsed->swizzle_bytes == sw);
  };
  [&]<int... I>(std::integer_sequence<int, I...>) {
    // every (bits, major, swizzle): 3 x 2 x 4
    (check(GMMA::Layout_Atom<(I / 8 == 0 ? 8 : I / 8 == 1 ? 16 : 32), (I % 2 ? Major::MN : Major::K), (16 << ((I / 2) % 4))>{},
           (I / 8 == 0 ? 8 : I / 8 == 1 ? 16 : 32), (I % 2 ? Major::MN : Major::K), (16 << ((I / 2) % 4))),
     ...);
  }(std::make_integer_sequence<int, 24>{});
  CHECK(analysis::parse_gmma_atom_name("gmma_k_sw128_bf16")->bits == 16);
  CHECK(analysis::parse_gmma_atom_name("gmma_mn_inter_tf32")->bits == 32);
  CHECK(analysis::parse_gmma_atom_name("gmma_k_sw64_e4m3")->bits == 8);
  CHECK_FALSE(analysis::parse_gmma_atom_name("(8,64):(64,1)").has_value());
  CHECK_THROWS_WITH(analysis::parse_gmma_atom_name("gmma_k_sw256_bf16"), Catch::Contains("sw32, sw64 or sw128"));
  CHECK_THROWS_WITH(analysis::parse_gmma_atom_name("gmma_kk_sw128_bf16"), Catch::Contains("k or mn"));
  CHECK_THROWS_WITH(analysis::parse_gmma_atom_name("gmma_k_sw128_f64"), Catch::Contains("element type"));
  CHECK_THROWS_WITH(analysis::parse_gmma_atom_name("gmma_k"), Catch::Contains("gmma_<k|mn>"));
}

// What the atoms are for: storage in rows of the swizzle width whose 16-byte chunks stay
// whole, and the 8 chunks of one logical column in 8 distinct 16-byte bank groups.
TEST_CASE("GMMA atoms: bijective, 16-byte chunks whole, one column of chunks conflict-free") {
  for (int bits : kBits)
    for (Major mj : kMajors)
      for (int sw : kSwizzles) {
        const GmmaAtomSpec spec{bits, mj, sw};
        INFO(analysis::gmma_atom_name(spec));
        const rt::SwizzledLayout a = analysis::gmma_layout_atom(spec);
        const int64_t T = 128 / bits, row = T * sw / 16;
        REQUIRE(a.size() == 8 * row);
        std::set<int64_t> seen;
        for (int64_t i = 0; i < a.size(); ++i) seen.insert(a(i));
        CHECK(int64_t(seen.size()) == a.size());
        CHECK(*seen.rbegin() == a.size() - 1);
        // (r, c): r the row of the storage (K-major: MN; MN-major: K), c along the row.
        auto at = [&](int64_t r, int64_t c) {
          return mj == Major::K ? a.at(rt::IntTuple::tuple({r, c})) : a.at(rt::IntTuple::tuple({c, r}));
        };
        for (int64_t r = 0; r < 8; ++r)
          for (int64_t c = 0; c < row; ++c) CHECK(at(r, c) - at(r, c - c % T) == c % T);
        for (int64_t chunk = 0; chunk < row / T; ++chunk) {
          std::set<int64_t> groups;
          for (int64_t r = 0; r < 8; ++r) groups.insert((at(r, chunk * T) * bits / 8 / 16) % 8);
          CHECK(groups.size() == 8);
        }
      }
}

// tile_to_shape of a swizzled atom: block (i, j, s) of the tile is the atom moved by a
// multiple of its size, i.e. Sw(atom(m, k) + size * block index) with the blocks walked in
// `order`; computed here without the algebra.
template <int Bits, Major MJ, int SW, int BM, int BK, int ST, class Order>
void check_tiled(Order order, int64_t o0, int64_t o1, int64_t o2) {
  auto S = GMMA::make_smem_layout<Bits, MJ, SW>(make_shape(C<BM>{}, C<BK>{}, C<ST>{}), order);
  const rt::SwizzledLayout atom = analysis::gmma_layout_atom({Bits, MJ, SW});
  const int64_t am = atom.layout.mode(0).size(), ak = atom.layout.mode(1).size(), asz = atom.size();
  const int64_t nb[3] = {BM / am, BK / ak, ST};
  // order: the rank of each block mode in the walk (0 first)
  const int64_t rank_of[3] = {o0, o1, o2};
  int bad = 0;
  for (int64_t s = 0; s < ST; ++s)
    for (int64_t k = 0; k < BK; ++k)
      for (int64_t m = 0; m < BM; ++m) {
        const int64_t b[3] = {m / am, k / ak, s};
        int64_t block = 0, pitch = 1;
        for (int64_t r = 0; r < 3; ++r)
          for (int d = 0; d < 3; ++d)
            if (rank_of[d] == r) { block += b[d] * pitch; pitch *= nb[d]; }
        const int64_t inner = atom.layout.at(rt::IntTuple::tuple({m % am, k % ak})) + asz * block;
        bad += int64_t(S(m, k, s)) != atom.swizzle(inner);
      }
  CHECK(bad == 0);
}

TEST_CASE("GMMA atoms: tile_to_shape to (BM, BK, stages) in any order") {
  check_tiled<16, Major::K, 128, 128, 128, 3>(LayoutLeft{}, 0, 1, 2);
  check_tiled<16, Major::K, 128, 64, 128, 2>(tuple<_2, _1, _3>{}, 1, 0, 2);
  check_tiled<16, Major::MN, 128, 128, 64, 2>(tuple<_2, _1, _3>{}, 1, 0, 2);
  check_tiled<16, Major::MN, 32, 64, 32, 3>(LayoutLeft{}, 0, 1, 2);
  check_tiled<32, Major::K, 64, 64, 32, 2>(LayoutLeft{}, 0, 1, 2);
  check_tiled<8, Major::K, 16, 64, 64, 2>(tuple<_3, _2, _1>{}, 2, 1, 0);
  // The bf16 128B K-major atom tiled to (128, 64, 3): each mode coalesced (make_smem_layout keeps
  // CuTe 3.7's tile_to_shape_coalesced form; tile_to_shape itself gives the uncoalesced product).
  auto S = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_128{}, _64{}, _3{}));
  CHECK(rt::to_string(rt::to_runtime(S)) == "Sw<3,3,3> o 0 o (128,64,3):(64,1,8192)");
}

// ------------------------------------------------------------------ descriptors
constexpr uint32_t kBuffer = 3 * 1024;  // a buffer on the 1024-byte swizzle repeat

// For every stage, MN block (of mn_tile rows) and K block of a staged tile, the static
// descriptor must address exactly the layout's elements.
template <int Bits, Major MJ, int SW, int BM, int BK, int ST, int MNT, class Order = LayoutLeft>
void check_descriptors(Order order = {}) {
  constexpr int KI = 256 / Bits;
  auto S = GMMA::make_smem_layout<Bits, MJ, SW>(make_shape(C<BM>{}, C<BK>{}, C<ST>{}), order);
  INFO("bits " << Bits << (MJ == Major::K ? " K" : " MN") << "-major swizzle " << SW << " tile " << BM << "x" << BK << "x"
               << ST << " operand " << MNT << "x" << KI << ": " << to_string(S));
  int bad = 0, tiles = 0;
  const auto divided = logical_divide(S, make_shape(C<MNT>{}, C<KI>{}));  // ((MNT, m), (KI, k), stages)
  for (int s = 0; s < ST; ++s)
    for (int mb = 0; mb < BM / MNT; ++mb)
      for (int kb = 0; kb < BK / KI; ++kb) {
        const auto crd = make_coord(make_coord(_, mb), make_coord(_, kb), s);
        // A swizzled tile's slice keeps its offset; a plain Layout's does not, so it goes with
        // slice_and_offset (the unswizzled modes are plain Layouts).
        const GMMA::GmmaDescriptor d = [&] {
          if constexpr (is_composed_layout_v<decltype(divided)>) return GMMA::make_gmma_descriptor<MJ, Bits>(divided(crd), kBuffer);
          else return GMMA::make_gmma_descriptor<MJ, Bits>(slice_and_offset(crd, divided), kBuffer);
        }();
        CHECK(int(d.layout_type()) == int(GMMA::layout_type_of_swizzle_bytes(SW)));
        CHECK(d.base_offset() == 0);
        ++tiles;
        for (int64_t k = 0; k < KI; ++k)
          for (int64_t mn = 0; mn < MNT; ++mn) {
            const int64_t want = kBuffer + int64_t(S(mb * MNT + mn, kb * KI + k, s)) * Bits / 8;
            bad += isa::gmma_address(d, MJ, Bits, mn, k) != want;
          }
      }
  CHECK(tiles == ST * (BM / MNT) * (BK / KI));
  CHECK(bad == 0);
}

TEST_CASE("wgmma descriptors: every swizzle mode and major address the layout's elements") {
  // 16-bit: both majors, every mode; A tiles (64 rows) and B tiles (N = BM).
  check_descriptors<16, Major::K, 128, 128, 64, 2, 64>();
  check_descriptors<16, Major::K, 128, 128, 128, 2, 128>();
  check_descriptors<16, Major::K, 64, 128, 64, 2, 64>();
  check_descriptors<16, Major::K, 32, 64, 32, 3, 64>();
  check_descriptors<16, Major::K, 16, 64, 32, 2, 64>();
  check_descriptors<16, Major::K, 16, 128, 64, 2, 128>(tuple<_2, _1, _3>{});
  check_descriptors<16, Major::MN, 128, 128, 64, 2, 64>();
  check_descriptors<16, Major::MN, 128, 128, 64, 2, 128>(tuple<_2, _1, _3>{});
  check_descriptors<16, Major::MN, 64, 128, 32, 2, 64>();
  check_descriptors<16, Major::MN, 32, 64, 32, 2, 64>();
  check_descriptors<16, Major::MN, 16, 64, 32, 2, 64>();
  check_descriptors<16, Major::MN, 16, 64, 32, 2, 32>(tuple<_2, _1, _3>{});
  // tf32 and 8-bit: K-major, every mode.
  check_descriptors<32, Major::K, 128, 64, 64, 2, 64>();
  check_descriptors<32, Major::K, 64, 64, 32, 2, 64>();
  check_descriptors<32, Major::K, 32, 64, 16, 2, 64>();
  check_descriptors<32, Major::K, 16, 64, 16, 2, 64>();
  check_descriptors<8, Major::K, 128, 64, 128, 2, 64>();
  check_descriptors<8, Major::K, 64, 128, 64, 2, 128>();
  check_descriptors<8, Major::K, 32, 64, 32, 2, 64>();
  check_descriptors<8, Major::K, 16, 64, 64, 2, 64>();
}

// Known answers: the fields CUTLASS kernels write by hand for these tiles.
TEST_CASE("wgmma descriptors: known fields") {
  // bf16 K-major 128B, (64, 16) from a (128, 64) tile: 8-row groups 1024 B apart, LBO "1".
  constexpr auto S = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_128{}, _64{}));
  constexpr auto A0 = logical_divide(S, make_shape(_64{}, _16{}))(make_coord(_, _0{}), make_coord(_, _0{}));
  constexpr GMMA::GmmaDescriptor d = GMMA::make_gmma_descriptor<Major::K, 16>(A0, 1024);
  static_assert(d.layout_type() == GMMA::LayoutType::B128);
  static_assert(d.stride_byte_offset() == 1024 / 16);
  static_assert(d.leading_byte_offset() == 1);
  static_assert(d.start_address() == 1024 / 16);
  static_assert(d.base_offset() == 0);
  // The next K block starts 32 bytes on, inside the same 128-byte rows.
  constexpr auto A1 = logical_divide(S, make_shape(_64{}, _16{}))(make_coord(_, _0{}), make_coord(_, _1{}));
  static_assert(GMMA::make_gmma_descriptor<Major::K, 16>(A1, 1024).desc == d.advanced(32).desc);
  // bf16 MN-major 128B (128, 16): MN groups of 64 at LBO = 1024 B, K groups of 8 at SBO.
  constexpr auto T = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(_128{}, _64{}));
  constexpr auto B0 = logical_divide(T, make_shape(_128{}, _16{}))(make_coord(_, _0{}), make_coord(_, _0{}));
  constexpr GMMA::GmmaDescriptor e = GMMA::make_gmma_descriptor<Major::MN, 16>(B0, 0);
  static_assert(e.layout_type() == GMMA::LayoutType::B128);
  static_assert(e.leading_byte_offset() == 1024 / 16);
  static_assert(e.stride_byte_offset() == 2048 / 16);
  // No swizzle, K-major: core matrices along K at LBO = 128 B... when the atoms walk K first.
  constexpr auto U = GMMA::make_smem_layout<16, Major::K, 16>(make_shape(_64{}, _16{}), tuple<_2, _1>{});
  constexpr GMMA::GmmaDescriptor f = GMMA::make_gmma_descriptor<Major::K, 16>(U, 0);
  static_assert(f.layout_type() == GMMA::LayoutType::INTERLEAVE);
  static_assert(f.leading_byte_offset() == 128 / 16 && f.stride_byte_offset() == 256 / 16);
  // A buffer off the 1024-byte repeat: the ISA's base offset, (addr >> 7) & 7.
  static_assert(GMMA::make_gmma_descriptor<Major::K, 16>(A0, 1024 + 384).base_offset() == 3);
  CHECK(d.desc != 0);
}

// The trap: slicing a plain Layout drops the slice's offset, so a descriptor of the slice alone
// would describe k-block 0 for every k-block. Plain layouts take the offset.
TEST_CASE("wgmma descriptors: a plain layout's slice offset is given, not lost") {
  // The unswizzled staged tile without its identity swizzle: a plain Layout.
  constexpr auto U = GMMA::make_smem_layout<16, Major::K, 16>(make_shape(_64{}, _64{}, _2{})).inner();
  static_assert(is_layout_v<std::remove_cvref_t<decltype(U)>>);
  const auto divided = logical_divide(U, make_shape(_64{}, _16{}));
  for (int s = 0; s < 2; ++s)
    for (int kb = 0; kb < 4; ++kb) {
      const auto crd = make_coord(make_coord(_, 0), make_coord(_, kb), s);
      const auto so = slice_and_offset(crd, divided);
      const int64_t offset = int64_t(get<1>(so));
      CHECK(offset == int64_t(U(0, 16 * kb, s)));  // the k-block's and the stage's origin
      const GMMA::GmmaDescriptor d = GMMA::make_gmma_descriptor<Major::K, 16>(so, kBuffer);
      const GMMA::GmmaDescriptor e = GMMA::make_gmma_descriptor<Major::K, 16>(get<0>(so), offset, kBuffer);
      const GMMA::GmmaDescriptor zero = GMMA::make_gmma_descriptor<Major::K, 16>(get<0>(so), 0, kBuffer);
      CHECK(d.desc == e.desc);
      CHECK(d.start_address() == (kBuffer + offset * 2) / 16);
      CHECK((offset == 0) == (d.desc == zero.desc));  // the slice alone would describe the wrong block
      for (int64_t k = 0; k < 16; ++k)
        for (int64_t mn = 0; mn < 64; ++mn) CHECK(isa::gmma_address(d, Major::K, 16, mn, k) == kBuffer + int64_t(U(mn, 16 * kb + k, s)) * 2);
    }
}

TEST_CASE("wgmma descriptors: what no descriptor describes is refused, naming the rule") {
  using R = GMMA::DescriptorRule;
  auto fields = [](Major mj, int bits, const std::string& swz, const rt::Layout& l) {
    rt::SwizzledLayout t{rt::Swizzle(0, 0, 0), l};
    if (!swz.empty()) t.swizzle = rt::Swizzle(swz[0] - '0', swz[1] - '0', swz[2] - '0');
    return analysis::gmma_descriptor_fields(mj, bits, t).rule;
  };
  auto L = [](std::vector<int64_t> s, std::vector<int64_t> d) {
    std::vector<rt::IntTuple> S(s.begin(), s.end()), D(d.begin(), d.end());
    return rt::Layout(rt::IntTuple::tuple(S), rt::IntTuple::tuple(D));
  };
  CHECK(fields(Major::K, 16, "333", L({64, 16}, {64, 1})) == R::ok);
  CHECK(fields(Major::K, 16, "", L({64, 16}, {24, 1})) == R::not_canonical);   // padded rows
  CHECK(fields(Major::K, 16, "333", L({64, 16}, {1, 64})) == R::not_canonical);  // MN-contiguous read as K-major
  CHECK(fields(Major::K, 16, "333", L({64, 32}, {64, 1})) == R::k_extent);
  CHECK(fields(Major::K, 16, "333", L({60, 16}, {64, 1})) == R::mn_extent);
  CHECK(fields(Major::MN, 16, "333", L({32, 16}, {1, 64})) == R::mn_extent);
  CHECK(fields(Major::MN, 32, "323", L({32, 8}, {1, 32})) == R::mn_major_bits);
  CHECK(fields(Major::K, 16, "343", L({64, 16}, {64, 1})) == R::swizzle);       // Sw<3,4,3>: bytes, not elements
  CHECK_THROWS_WITH(fields(Major::K, 16, "", L({8, 2, 8}, {8, 512, 1})), Catch::Contains("rank 2"));
  CHECK(fields(Major::K, 16, "", L({8, 16}, {16, 1})) == R::not_canonical);     // unswizzled rows 32 B apart
  // Overlapping core matrices are still a canonical layout (LBO 16 B): reading them is fine.
  CHECK(fields(Major::K, 16, "", L({8, 16}, {8, 1})) == R::ok);
  CHECK(fields(Major::K, 16, "", rt::Layout(rt::IntTuple::tuple({8, rt::IntTuple::tuple({8, 2})}),
                                            rt::IntTuple::tuple({8, rt::IntTuple::tuple({1, 1 << 17})}))) == R::offset_range);
  CHECK(fields(Major::K, 16, "", rt::Layout(rt::IntTuple::tuple({8, rt::IntTuple::tuple({8, 2})}),
                                            rt::IntTuple::tuple({8, rt::IntTuple::tuple({1, 68})}))) == R::offset_alignment);
  CHECK(std::string(GMMA::to_string(R::not_canonical)).find("canonical") != std::string::npos);
}

// Generated tiles (runtime tier): width, major, swizzle, tile size, stages; every operand
// tile of every stage.
TEST_CASE("wgmma descriptors: generated staged tiles (rapidcheck)") {
  rc::prop("the descriptor of every operand tile addresses the layout's elements", [] {
    const int bits = *rc::gen::element(8, 16, 32);
    const Major mj = bits == 16 ? *rc::gen::element(Major::K, Major::MN) : Major::K;
    const int sw = *rc::gen::element(16, 32, 64, 128);
    const rt::SwizzledLayout atom = analysis::gmma_layout_atom({bits, mj, sw});
    const int64_t am = atom.layout.mode(0).size(), ak = atom.layout.mode(1).size();
    const int64_t KI = 256 / bits;
    const int64_t kq = std::max(ak, KI), mq = std::max<int64_t>(am, 8);
    const int64_t BM = mq * *rc::gen::inRange<int64_t>(1, 256 / mq + 1);
    const int64_t BK = kq * *rc::gen::inRange<int64_t>(1, 4);
    const int64_t ST = *rc::gen::inRange<int64_t>(1, 4);
    // operand tile along MN: a multiple of the atom's rows (and of 8) dividing BM
    const int64_t MNT = mq * *rc::gen::element<int64_t>(1, 2, 4);
    RC_PRE(BM % MNT == 0 && MNT <= 256);
    const rt::Layout S = rt::tile_to_shape(atom.layout, rt::IntTuple::tuple({BM, BK, ST}));
    // shared memory holds at most 227 KiB per CTA on sm_90
    const uint32_t buffer = 1024 * *rc::gen::inRange<uint32_t>(0, 64);
    RC_PRE(buffer + S.cosize() * bits / 8 <= 227 * 1024);
    for (int64_t s = 0; s < ST; ++s)
      for (int64_t mb = 0; mb < BM / MNT; ++mb)
        for (int64_t kb = 0; kb < BK / KI; ++kb) {
          auto inner = [&](int64_t mn, int64_t k) {
            return S.at(rt::IntTuple::tuple({mb * MNT + mn, kb * KI + k, s}));
          };
          const int64_t off = inner(0, 0);
          const GMMA::DescriptorFields f = GMMA::gmma_descriptor_fields(
              mj, bits, atom.swizzle.bits, atom.swizzle.base, atom.swizzle.shift, MNT, KI,
              [&](int64_t mn, int64_t k) { return inner(mn, k); });
          RC_ASSERT(f.rule == GMMA::DescriptorRule::ok);
          (void)off;
          const GMMA::GmmaDescriptor d = GMMA::make_gmma_descriptor(f, buffer);
          for (int64_t k = 0; k < KI; ++k)
            for (int64_t mn = 0; mn < MNT; ++mn) {
              RC_ASSERT(isa::gmma_address(d, mj, bits, mn, k) == buffer + atom.swizzle(inner(mn, k)) * bits / 8);
              // the library's reading of the descriptor (gemm's host emulation of wgmma reads through it)
              RC_ASSERT(int64_t(GMMA::descriptor_address(d, mj, bits, mn, k)) == buffer + atom.swizzle(inner(mn, k)) * bits / 8);
            }
        }
  });
}

}  // namespace
