// wgmma through the TiledMma: descriptor fragments and gemm(tiled_mma, ...) on them.
//  - DescriptorIterator: it + n moves the start address by n x 16 bytes, nothing else;
//    a move out of the 14-bit field is detected.
//  - partition_fragment_A/B of a staged GMMA smem tensor: for every thread of the TiledMma
//    (1 or 2 consumer warpgroups along M, 1 or 2 M repeats), every (m | n, k, stage), the
//    fragment's descriptor is bit for bit the one the SM90 mainloop builds by hand
//    (make_gmma_descriptor of the tile at ((_, wg + W m), (_, k), stage) of
//    logical_divide(smem, (64 | N, AtomK))), whether the stage is sliced before or after; and,
//    independently of both, decoding it as the PTX ISA defines (isa_gmma.hpp) addresses
//    exactly the smem layout's element at every (mn, k) of the tile. (16-bit, tf32 and 8-bit
//    elements: the descriptors' fields are in bytes, the tiles' K extents in elements.)
//  - gemm(tiled_mma, A, B, C [, ScaleOut]) on descriptor fragments, issued into a recording
//    stand-in for the wgmma instruction (the host has none): one instruction per (k, m, n),
//    k outermost, with those descriptors, C(_, m, n)'s own registers (f32: no copy) or its
//    values packed and written back (f16 accumulators), and scale-d Zero for the first
//    k-block only when asked.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <vector>

#include "isa_gmma.hpp"
#include "tessera/algorithm/gemm.hpp"
#include "tessera/atom/gmma_descriptor_iterator.hpp"
#include "tessera/atom/gmma_layout.hpp"
#include "tessera/atom/mma_sm90.hpp"
#include "tessera/atom/mma_sm90_8bit.hpp"
#include "tessera/tiled_mma.hpp"

using namespace tessera;
using GMMA::Major;

// A stand-in for a wgmma SS atom whose fma records what it was given (defined at namespace
// scope: MMA_Traits and is_wgmma_v are specialised for it below).
namespace wgmma_record {
struct Call {
  uint64_t a, b;
  void const* d;  // the accumulator registers the instruction got
  GMMA::ScaleOut scale;
};
inline std::vector<Call> calls;
}  // namespace wgmma_record

namespace tessera {
// F32 accumulators (float registers) or F16 ones (half_t values in uint32_t registers). Each
// call adds one to every accumulator (to both halves of an f16 pair), after zeroing them when
// scale-d is Zero: the accumulators end at (Zero ? 0 : before) + instructions.
template <int N, bool F16Acc>
struct RecordingWgmmaSS {
  using Acc = std::conditional_t<F16Acc, uint32_t, float>;
  using DRegisters = Acc[F16Acc ? N / 4 : N / 2];
  using ARegisters = uint64_t[1];
  using BRegisters = uint64_t[1];
  using CRegisters = DRegisters;
  static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, GMMA::ScaleOut scale) {
    wgmma_record::calls.push_back({a[0], b[0], &d[0], scale});
    for (auto& x : d) {
      if (scale == GMMA::ScaleOut::Zero) x = 0;
      if constexpr (F16Acc) x += 0x00010001u; else x += 1.f;
    }
  }
};
template <int N, bool F16Acc>
struct MMA_Traits<RecordingWgmmaSS<N, F16Acc>> {
  static constexpr const char* name = "RecordingWgmmaSS";
  using ValTypeD = std::conditional_t<F16Acc, half_t, float>;
  using ValTypeA = bfloat16_t;
  using ValTypeB = bfloat16_t;
  using ValTypeC = ValTypeD;
  using Shape_MNK = tuple<_64, C<N>, _16>;
  using ThrID = GMMA::ThrID;
  using ALayout = GMMA::A_64x16_SS;
  using BLayout = GMMA::B_Nx16_SS<N>;
  using CLayout = GMMA::C_64xN<N>;
  static constexpr Major major_A = Major::K;
  static constexpr Major major_B = Major::MN;
};
namespace GMMA {
template <int N, bool F16Acc> inline constexpr bool is_wgmma_v<RecordingWgmmaSS<N, F16Acc>> = true;
}
}  // namespace tessera

namespace {

// ------------------------------------------------------------------ the iterator
TEST_CASE("DescriptorIterator: it + n moves the start address n x 16 bytes, nothing else") {
  const GMMA::GmmaDescriptor d = GMMA::GmmaDescriptor::make(3 * 1024, 16, 1024, 0, GMMA::LayoutType::B128);
  const GMMA::DescriptorIterator it{d};
  CHECK((*it).desc == d.desc);
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(2), int64_t(64), int64_t(1000), int64_t(-64)}) {
    INFO("n = " << n);
    const GMMA::GmmaDescriptor e = it[n];
    CHECK((it + n).desc_.desc == e.desc);
    CHECK(int64_t(e.start_address()) == int64_t(d.start_address()) + n);
    CHECK(e.desc == d.advanced(16 * n).desc);  // the byte-wise, masked form agrees in range
    CHECK((e.desc >> 14) == (d.desc >> 14));    // LBO, SBO, base offset and swizzle mode untouched
  }
  CHECK(it[C<2>{}].desc == it[2].desc);
  // The 14-bit field holds the 2^18-byte window: the last 16 bytes of it, and no further.
  CHECK(GMMA::start_address_stays_in_field(d, (1 << 14) - 1 - 3 * 64));
  CHECK_FALSE(GMMA::start_address_stays_in_field(d, (1 << 14) - 3 * 64));
  CHECK_FALSE(GMMA::start_address_stays_in_field(d, -3 * 64 - 1));
}

// ------------------------------------------------------------------ fragments vs the mainloop
// The mainloop's operand tile at `crd` of a divided smem layout: a swizzled layout's slice
// keeps its offset, a plain Layout's goes as slice_and_offset (its hand-written helper).
template <class Divided, class Crd>
constexpr auto operand_tile(Divided const& divided, Crd const& crd) {
  if constexpr (is_composed_layout_v<Divided>) return divided(crd);
  else return slice_and_offset(crd, divided);
}

template <class T> struct ss_atom;
template <> struct ss_atom<bfloat16_t> { template <int N, Major MA, Major MB> using type = SM90_64xNx16_F32BF16BF16_SS<N, MA, MB>; };
template <> struct ss_atom<half_t> { template <int N, Major MA, Major MB> using type = SM90_64xNx16_F16F16F16_SS<N, MA, MB>; };
template <> struct ss_atom<tfloat32_t> { template <int N, Major MA, Major MB> using type = SM90_64xNx8_F32TF32TF32_SS<N, MA, MB>; };
template <> struct ss_atom<float_e4m3_t> { template <int N, Major MA, Major MB> using type = SM90_64xNx32_F32E4M3E4M3_SS<N, MA, MB>; };
template <> struct ss_atom<int8_t> { template <int N, Major MA, Major MB> using type = SM90_64xNx32_S32S8S8_SS<N, MA, MB>; };

// The mainloop's shapes: W consumer warpgroups along M (the TiledMma's atom layout (W,1,1)),
// AtomsM repeats of it over BM = 64 W AtomsM rows, BN = N, BK, `Stages` stages; atoms walk
// K first for MN-major operands, as the mainloop's smem layouts do.
template <class T, int N, Major MA, Major MB, int Swizzle, int W, int AtomsM, int BK, int Stages>
void check_fragments_against_mainloop() {
  constexpr int Bits = sizeof_bits_v<T>;
  constexpr int BM = 64 * W * AtomsM, BN = N;
  using Atom = typename ss_atom<T>::template type<N, MA, MB>;
  constexpr int AtomK = int(get<2>(typename MMA_Traits<Atom>::Shape_MNK{}));
  using OrderA = std::conditional_t<MA == Major::K, tuple<_1, _2, _3>, tuple<_2, _1, _3>>;
  using OrderB = std::conditional_t<MB == Major::K, tuple<_1, _2, _3>, tuple<_2, _1, _3>>;
  constexpr auto smem_a = GMMA::make_smem_layout<Bits, MA, Swizzle>(make_shape(C<BM>{}, C<BK>{}, C<Stages>{}), OrderA{});
  constexpr auto smem_b = GMMA::make_smem_layout<Bits, MB, Swizzle>(make_shape(C<BN>{}, C<BK>{}, C<Stages>{}), OrderB{});
  constexpr int bytes_a = int(cosize(smem_a.inner())) * Bits / 8;
  const auto tiled = make_tiled_mma(MMA_Atom<Atom>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  // A buffer on the 1 KiB swizzle repeat, B right after A (the mainloop's SharedStorage).
  const uint32_t a0 = 2 * 1024, b0 = a0 + uint32_t(bytes_a);
  const auto sA = make_tensor(reinterpret_cast<T*>(uintptr_t(a0)), smem_a);
  const auto sB = make_tensor(reinterpret_cast<T*>(uintptr_t(b0)), smem_b);
  constexpr auto div_a = logical_divide(smem_a, make_shape(_64{}, C<AtomK>{}));
  constexpr auto div_b = logical_divide(smem_b, make_shape(C<BN>{}, C<AtomK>{}));
  INFO((Bits == 32 ? "tf32" : Bits == 8 ? "8-bit" : "16-bit") << " N " << N << " A " << (MA == Major::K ? "K" : "MN") << "-major, B "
                                        << (MB == Major::K ? "K" : "MN") << "-major, swizzle " << Swizzle << ", " << BM << "x" << BN
                                        << "x" << BK << " x " << Stages << " stages, " << W << " warpgroups");
  int checked = 0, bad_hand = 0, bad_sliced = 0, bad_isa = 0;
  for (int t = 0; t < W * 128; t += (t % 128 == 0 ? 37 : 91)) {  // threads 0, 37, 128, 165, ...: each warpgroup, not only lane 0
    const int wg = t / 128;
    const auto thr = tiled.get_slice(t);
    const auto tCrA = thr.partition_fragment_A(sA);  // (1, AtomsM, BK / AtomK, Stages)
    const auto tCrB = thr.partition_fragment_B(sB);  // (1, 1, BK / AtomK, Stages)
    // (A K-major swizzled row shorter than BK splits the K mode: (2,2) k-blocks for 64B, say.)
    static_assert(decltype(rank(tCrA))::value == 4 && decltype(size<0>(tCrA))::value == 1 && decltype(size<1>(tCrA))::value == AtomsM &&
                  decltype(size<2>(tCrA))::value == BK / AtomK && decltype(size<3>(tCrA))::value == Stages);
    static_assert(decltype(rank(tCrB))::value == 4 && decltype(size<0>(tCrB))::value == 1 && decltype(size<1>(tCrB))::value == 1 &&
                  decltype(size<2>(tCrB))::value == BK / AtomK && decltype(size<3>(tCrB))::value == Stages);
    for (int s = 0; s < Stages; ++s) {
      const auto stage_a = tCrA(_, _, _, s), stage_b = tCrB(_, _, _, s);  // the stage sliced first (dynamic)
      for (int kb = 0; kb < BK / AtomK; ++kb) {
        const GMMA::GmmaDescriptor db = GMMA::make_gmma_descriptor<MB, Bits>(operand_tile(div_b, make_coord(make_coord(_, 0), make_coord(_, kb), s)), b0);
        bad_hand += tCrB(0, 0, kb, s).desc != db.desc;
        bad_sliced += stage_b(0, 0, kb).desc != db.desc;
        for (int i = 0; i < AtomsM; ++i) {
          const GMMA::GmmaDescriptor da = GMMA::make_gmma_descriptor<MA, Bits>(
              operand_tile(div_a, make_coord(make_coord(_, wg + W * i), make_coord(_, kb), s)), a0);
          bad_hand += tCrA(0, i, kb, s).desc != da.desc;
          bad_sliced += stage_a(0, i, kb).desc != da.desc;
          ++checked;
          // The ISA's reading of the fragment's descriptor against the smem layout, element by element.
          if (t % 128 == 0) {
            for (int64_t k = 0; k < AtomK; ++k) {
              for (int64_t mn = 0; mn < 64; ++mn) {
                const int64_t want = a0 + int64_t(smem_a(64 * (wg + W * i) + mn, AtomK * kb + k, s)) * Bits / 8;
                bad_isa += isa::gmma_address(tCrA(0, i, kb, s), MA, Bits, mn, k) != want;
              }
              if (i == 0)
                for (int64_t mn = 0; mn < BN; ++mn) {
                  const int64_t want = b0 + int64_t(smem_b(mn, AtomK * kb + k, s)) * Bits / 8;
                  bad_isa += isa::gmma_address(tCrB(0, 0, kb, s), MB, Bits, mn, k) != want;
                }
            }
          }
        }
      }
    }
  }
  CHECK(checked > 0);
  CHECK(bad_hand == 0);
  CHECK(bad_sliced == 0);
  CHECK(bad_isa == 0);
}

TEST_CASE("partition_fragment_A/B: the mainloop's hand-built descriptors, bit for bit, and the ISA's addresses") {
  // bf16: N 64 / 128 / 256, every (major A, major B) pair, every swizzle, both tile heights.
  check_fragments_against_mainloop<bfloat16_t, 256, Major::K, Major::K, 128, 2, 1, 64, 4>();
  check_fragments_against_mainloop<bfloat16_t, 256, Major::MN, Major::MN, 128, 2, 2, 64, 3>();
  check_fragments_against_mainloop<bfloat16_t, 128, Major::K, Major::MN, 128, 2, 1, 64, 4>();
  check_fragments_against_mainloop<bfloat16_t, 128, Major::MN, Major::K, 128, 1, 2, 64, 2>();
  check_fragments_against_mainloop<bfloat16_t, 64, Major::K, Major::K, 64, 2, 2, 64, 3>();
  check_fragments_against_mainloop<bfloat16_t, 128, Major::MN, Major::MN, 64, 2, 1, 64, 2>();
  check_fragments_against_mainloop<bfloat16_t, 256, Major::K, Major::MN, 64, 2, 1, 64, 2>();
  check_fragments_against_mainloop<bfloat16_t, 64, Major::K, Major::MN, 32, 2, 1, 64, 4>();
  check_fragments_against_mainloop<bfloat16_t, 128, Major::MN, Major::K, 32, 2, 2, 64, 2>();
  check_fragments_against_mainloop<bfloat16_t, 256, Major::K, Major::K, 16, 2, 1, 64, 2>();
  check_fragments_against_mainloop<bfloat16_t, 64, Major::MN, Major::MN, 16, 2, 2, 64, 3>();
  // f16: the same descriptors (16-bit elements).
  check_fragments_against_mainloop<half_t, 256, Major::MN, Major::K, 128, 2, 1, 64, 4>();
  check_fragments_against_mainloop<half_t, 128, Major::K, Major::MN, 128, 1, 2, 64, 4>();
  // tf32: K-major only (the ISA transposes 16-bit operands only), AtomK 8.
  check_fragments_against_mainloop<tfloat32_t, 256, Major::K, Major::K, 128, 2, 1, 32, 4>();
  check_fragments_against_mainloop<tfloat32_t, 128, Major::K, Major::K, 64, 2, 2, 32, 3>();
  check_fragments_against_mainloop<tfloat32_t, 64, Major::K, Major::K, 32, 2, 1, 32, 2>();
  check_fragments_against_mainloop<tfloat32_t, 256, Major::K, Major::K, 16, 2, 1, 32, 2>();
  // 8-bit (e4m3, s8): K-major only, AtomK 32; a 128-byte swizzle row is 128 elements of K.
  check_fragments_against_mainloop<float_e4m3_t, 256, Major::K, Major::K, 128, 2, 1, 128, 3>();
  // The cooperative 256-row tile: two warpgroups, each the TiledMma's M repeat of 2 (rows 64 w
  // and 128 + 64 w), 256x128x128 FP8 and 256x128x64 bf16 in 4 stages, as the builder plans them.
  check_fragments_against_mainloop<float_e4m3_t, 128, Major::K, Major::K, 128, 2, 2, 128, 4>();
  check_fragments_against_mainloop<bfloat16_t, 128, Major::K, Major::K, 128, 2, 2, 64, 4>();
  check_fragments_against_mainloop<int8_t, 128, Major::K, Major::K, 32, 1, 2, 64, 2>();
}

// The fragment's layout is the smem layout's, in 16-byte units: known answers.
TEST_CASE("partition_fragment_A/B: (1, M, K, stages) in 16-byte steps") {
  constexpr auto smem_a = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_256{}, _64{}, _3{}));  // Sw o (256,64,3):(64,1,16384)
  constexpr auto smem_b = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(_128{}, _64{}, _3{}), tuple<_2, _1, _3>{});
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<128, Major::K, Major::MN>>{}, make_layout(make_shape(_2{}, _1{}, _1{})));
  const auto thr = tiled.get_slice(130);  // warpgroup 1: rows 64.., 192..
  const auto fA = thr.partition_fragment_A(make_tensor(reinterpret_cast<bfloat16_t*>(uintptr_t(2048)), smem_a));
  const auto fB = thr.partition_fragment_B(make_tensor(reinterpret_cast<bfloat16_t*>(uintptr_t(2048)), smem_b));
  // A: M repeat 128 rows x 64 = 8192 elements = 1024 units; k-block 16 elements = 2; stage 16384 elements = 2048.
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(fA.layout())>, Layout<tuple<_1, _2, _4, _3>, tuple<_0, C<1024>, _2, C<2048>>>>);
  // B, MN-major, atoms (64, 8) walking K first: a k-block is two atoms, 1024 elements = 128
  // units; a stage 8192 elements = 1024 units.
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(fB.layout())>, Layout<tuple<_1, _1, _4, _3>, tuple<_0, _0, C<128>, C<1024>>>>);
  // Warpgroup 1's A starts 64 rows (4096 elements, 8 KiB) into the buffer.
  CHECK(fA(0, 0, 0, 0).start_address() == (2048 + 8192) / 16);
  CHECK(fA(0, 1, 2, 1).start_address() == (2048 + 2 * (4096 + 8192 + 32 + 16384)) / 16);
  CHECK(fA(0, 0, 0, 0).layout_type() == GMMA::LayoutType::B128);
  // B's 64-element MN groups: the next one after the 8 atoms of its K (8 x 512 elements, 8 KiB).
  CHECK(fB(0, 0, 0, 0).leading_byte_offset() == 8192 / 16);
  CHECK(fB(0, 0, 0, 0).stride_byte_offset() == 1024 / 16);
}

// The descriptor comes from the smem tensor's pointer: on the host, its value in the
// 2^18-byte window (a real buffer aligned like the smem buffer gives the same descriptors).
TEST_CASE("partition_fragment_A: the address is the pointer's, modulo the shared window") {
  constexpr auto smem_a = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(_64{}, _64{}, _2{}));
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<64>>{});
  alignas(1024) static bfloat16_t buffer[64 * 64 * 2];
  const uint32_t address = uint32_t(reinterpret_cast<uintptr_t>(&buffer[0]) % (1u << 18));
  const auto from_pointer = tiled.get_slice(5).partition_fragment_A(make_tensor(&buffer[0], smem_a));
  const auto from_value = tiled.get_slice(5).partition_fragment_A(make_tensor(reinterpret_cast<bfloat16_t*>(uintptr_t(address)), smem_a));
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 4; ++k) CHECK(from_pointer(0, 0, k, s).desc == from_value(0, 0, k, s).desc);
  CHECK(from_pointer(0, 0, 0, 0).start_address() == address / 16);
  CHECK(from_pointer(0, 0, 0, 0).base_offset() == 0);
}

// A shared operand's partition goes through the atom's value mode alone (the thread mode, all
// strides 0, put in front after): the same layout as composing with the whole TV layout,
// written out here as thrfrg's steps (small N and K keep the full composition's check cheap).
template <class TM, class L>
constexpr auto thrfrg_B_by_full_composition(L const& l) {
  auto atom_tiles = zipped_divide(logical_divide(l, make_tile(_, _)), make_tile(make_layout(C<8>{}), make_layout(_16{})));
  auto tv = composition(atom_tiles, make_tile(typename TM::AtomLayoutB_TV{}, _));
  return zipped_divide(tv, make_tile(_, make_tile(make_layout(_1{}), make_layout(_1{}))));
}
TEST_CASE("TiledMma: a shared operand's partition equals the one through the whole thread-value map") {
  using TM = decltype(make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<8, Major::MN, Major::MN>>{}, make_layout(make_shape(_2{}, _1{}, _1{}))));
  constexpr auto l = GMMA::make_smem_layout<16, Major::MN, 16>(make_shape(_16{}, _32{}, _2{})).inner();
  static_assert(std::is_same_v<decltype(TM::thrfrg_B(l)), decltype(thrfrg_B_by_full_composition<TM>(l))>);
  CHECK(TM::thrfrg_B(l) == thrfrg_B_by_full_composition<TM>(l));
}

// ------------------------------------------------------------------ gemm on descriptor fragments
template <bool F16Acc>
void check_gemm_issue(GMMA::ScaleOut scale) {
  constexpr int N = 64, W = 2, AtomsM = 2, BM = 64 * W * AtomsM, BK = 64, Stages = 3;
  using Acc = std::conditional_t<F16Acc, half_t, float>;
  const auto tiled = make_tiled_mma(MMA_Atom<RecordingWgmmaSS<N, F16Acc>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  constexpr auto smem_a = GMMA::make_smem_layout<16, Major::K, 128>(make_shape(C<BM>{}, C<BK>{}, C<Stages>{}));
  constexpr auto smem_b = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(C<N>{}, C<BK>{}, C<Stages>{}), tuple<_2, _1, _3>{});
  const uint32_t a0 = 0, b0 = uint32_t(cosize(smem_a.inner())) * 2;
  const auto sA = make_tensor(reinterpret_cast<bfloat16_t*>(uintptr_t(a0)), smem_a);
  const auto sB = make_tensor(reinterpret_cast<bfloat16_t*>(uintptr_t(b0)), smem_b);
  constexpr auto div_a = logical_divide(smem_a, make_shape(_64{}, _16{}));
  constexpr auto div_b = logical_divide(smem_b, make_shape(C<N>{}, _16{}));
  for (int t : {0, 77, 128, 255}) {
    const auto thr = tiled.get_slice(t);
    const auto tCrA = thr.partition_fragment_A(sA);
    const auto tCrB = thr.partition_fragment_B(sB);
    auto tCrC = partition_fragment_C(tiled, make_shape(C<BM>{}, C<N>{}));
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(shape(tCrC))>, tuple<tuple<_2, _2, C<N / 8>>, C<AtomsM>, _1>>);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(tCrC(0))>, Acc>);
    auto before = [&](int i) { return scale == GMMA::ScaleOut::Zero ? 0 : 100 + i % 7; };
    for (int i = 0; i < int(size(tCrC)); ++i) {
      if constexpr (F16Acc) tCrC(i) = half_t::from_bits(uint16_t(100 + i % 7));  // raw bits, as the stand-in adds to them
      else tCrC(i) = float(100 + i % 7);
    }
    const int s = t % Stages;
    wgmma_record::calls.clear();
    gemm(tiled, tCrA(_, _, _, s), tCrB(_, _, _, s), tCrC, scale);
    // One instruction per (k, m, n), k outermost, with the mainloop's descriptors.
    REQUIRE(wgmma_record::calls.size() == size_t((BK / 16) * AtomsM));
    int bad = 0;
    for (int kb = 0; kb < BK / 16; ++kb) {
      for (int i = 0; i < AtomsM; ++i) {
        const auto& c = wgmma_record::calls[size_t(kb * AtomsM + i)];
        const auto da = GMMA::make_gmma_descriptor<Major::K, 16>(div_a(make_coord(make_coord(_, t / 128 + W * i), make_coord(_, kb), s)), a0);
        const auto db = GMMA::make_gmma_descriptor<Major::MN, 16>(div_b(make_coord(make_coord(_, 0), make_coord(_, kb), s)), b0);
        bad += c.a != da.desc;
        bad += c.b != db.desc;
        bad += c.scale != (kb == 0 ? scale : GMMA::ScaleOut::One);
        // f32 accumulators: the instruction's registers are C(_, i, 0)'s own storage.
        if constexpr (!F16Acc) bad += c.d != static_cast<void const*>(&tCrC(0, i, 0));
      }
    }
    CHECK(bad == 0);
    // Every accumulator saw BK / 16 instructions, after zeroing (Zero) or on its old value (One).
    int wrong = 0;
    for (int i = 0; i < int(size(tCrC)); ++i) {
      if constexpr (F16Acc) wrong += int(tCrC(i).bits) != before(i) + BK / 16;
      else wrong += tCrC(i) != float(before(i) + BK / 16);
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("gemm(tiled_mma, ...) on descriptor fragments: one wgmma per (k, m, n), C in place, scale-d") {
  check_gemm_issue<false>(GMMA::ScaleOut::Zero);
  check_gemm_issue<false>(GMMA::ScaleOut::One);
  check_gemm_issue<true>(GMMA::ScaleOut::Zero);
  check_gemm_issue<true>(GMMA::ScaleOut::One);
}


// The host's wgmma: gemm(tiled_mma, ...) with tessera's own SS atoms inside host_warp::launch
// reads both operands through the fragments' descriptors from host_warp's shared memory. Two
// consumer warpgroups, A K-major (64B swizzle, 32 of K per stage), B MN-major (128B), two
// stages accumulated (ScaleOut::Zero over NaN accumulators, then One): every thread's every
// accumulator against the reference product at the (m, n) its C partition names.
// (AtomsM 2: the cooperative 256-row tile, each warpgroup the TiledMma's M repeat of 2; K-major
// A with the 128-byte swizzle, 64 of K per stage, as the builder makes it.)
template <int W, int AtomsM, int N, int BK, int SwizzleA>
void check_ss_emulation() {
  constexpr int BM = 64 * W * AtomsM, Stages = 2;
  constexpr auto smem_a = GMMA::make_smem_layout<16, Major::K, SwizzleA>(make_shape(C<BM>{}, C<BK>{}, C<Stages>{}));
  constexpr auto smem_b = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(C<N>{}, C<BK>{}, C<Stages>{}), tuple<_2, _1, _3>{});
  constexpr int a_elements = int(cosize(smem_a.inner())), b_elements = int(cosize(smem_b.inner()));
  // (on a 2^18-byte boundary: the descriptors' addresses, the pointers modulo the shared window, start at 0)
  std::unique_ptr<void, decltype(&std::free)> storage(std::aligned_alloc(std::size_t(1) << 18, std::size_t(1) << 18), &std::free);
  auto* a = static_cast<bfloat16_t*>(storage.get());
  bfloat16_t* b = a + a_elements;  // (a multiple of 1 KiB after a)
  auto av = [](int m, int k) { return float((m * 3 + k * 5) % 7 - 3); };
  auto bv = [](int n, int k) { return float((n * 2 + k * 3) % 5 - 2); };
  for (int s = 0; s < Stages; ++s)
    for (int k = 0; k < BK; ++k) {
      for (int m = 0; m < BM; ++m) a[int(smem_a(m, k, s))] = bfloat16_t(av(m, BK * s + k));
      for (int n = 0; n < N; ++n) b[int(smem_b(n, k, s))] = bfloat16_t(bv(n, BK * s + k));
    }
  host_warp::set_shared_memory(a, std::size_t(a_elements + b_elements) * sizeof(bfloat16_t));
  constexpr auto tiled = make_tiled_mma(SM90_64xNx16_F32BF16BF16_SS<N, Major::K, Major::MN>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  std::vector<float> c(std::size_t(BM * N), -1.f);
  host_warp::launch(W * 128, [&](int t) {
    const auto thr = tiled.get_slice(t);
    const auto tCrA = thr.partition_fragment_A(make_tensor(a, smem_a));
    const auto tCrB = thr.partition_fragment_B(make_tensor(b, smem_b));
    auto tCrC = partition_fragment_C(tiled, make_shape(C<BM>{}, C<N>{}));
    for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = std::numeric_limits<float>::quiet_NaN();
    for (int s = 0; s < Stages; ++s)
      gemm(tiled, tCrA(_, _, _, s), tCrB(_, _, _, s), tCrC, s == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
    const auto tCgC = thr.partition_C(make_tensor(c.data(), make_layout(make_shape(C<BM>{}, C<N>{}))));
    for (int i = 0; i < int(size(tCrC)); ++i) tCgC(i) = tCrC(i);
  });
  int wrong = 0;
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < BM; ++m) {
      float want = 0;
      for (int k = 0; k < Stages * BK; ++k) want += av(m, k) * bv(n, k);
      wrong += c[std::size_t(m + BM * n)] != want;
    }
  INFO(BM << " x " << N << " x " << BK << ", " << W << " warpgroups, M repeat " << AtomsM);
  CHECK(wrong == 0);
}

TEST_CASE("gemm(tiled_mma, ...) on the host: wgmma SS emulated through the descriptors") {
  check_ss_emulation<2, 1, 64, 32, 64>();
  check_ss_emulation<2, 2, 128, 64, 128>();  // 256 x 128: 128 x 128 per warpgroup
}

// The host's RS wgmma: A from registers (partition_fragment_A of the tile's shape, filled from
// the thread's partition of A), B by descriptor; thread t's A(m, k) comes from the lane of its
// warp that the atom's A layout names. Two warpgroups, B MN-major (128B), NaN accumulators
// under ScaleOut::Zero, then One over the same K: every accumulator against 1x and 2x the
// reference product.
TEST_CASE("gemm(tiled_mma, ...) on the host: wgmma RS emulated, A from the warp's registers") {
  constexpr int W = 2, BM = 64 * W, N = 64, BK = 32;
  constexpr auto smem_b = GMMA::make_smem_layout<16, Major::MN, 128>(make_shape(C<N>{}, C<BK>{}));
  constexpr int b_elements = int(cosize(smem_b.inner()));
  std::unique_ptr<void, decltype(&std::free)> storage(std::aligned_alloc(std::size_t(1) << 18, std::size_t(1) << 18), &std::free);
  auto* b = static_cast<bfloat16_t*>(storage.get());
  auto av = [](int m, int k) { return float((m * 5 + k * 3) % 9 - 4); };
  auto bv = [](int n, int k) { return float((n * 2 + k * 7) % 5 - 2); };
  std::vector<bfloat16_t> ag(std::size_t(BM * BK));  // (BM, BK) column-major
  for (int k = 0; k < BK; ++k) {
    for (int m = 0; m < BM; ++m) ag[std::size_t(m + BM * k)] = bfloat16_t(av(m, k));
    for (int n = 0; n < N; ++n) b[int(smem_b(n, k))] = bfloat16_t(bv(n, k));
  }
  host_warp::set_shared_memory(b, std::size_t(b_elements) * sizeof(bfloat16_t));
  constexpr auto tiled = make_tiled_mma(SM90_64xNx16_F32BF16BF16_RS<N, Major::K, Major::MN>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  std::vector<float> c1(std::size_t(BM * N), -1.f), c2 = c1;
  host_warp::launch(W * 128, [&](int t) {
    const auto thr = tiled.get_slice(t);
    const auto tCgA = thr.partition_A(make_tensor(ag.data(), make_layout(make_shape(C<BM>{}, C<BK>{}))));
    auto tCrA = partition_fragment_A(tiled, make_shape(C<BM>{}, C<BK>{}));
    for (int i = 0; i < int(size(tCrA)); ++i) tCrA(i) = tCgA(i);
    const auto tCrB = thr.partition_fragment_B(make_tensor(b, smem_b));
    auto tCrC = partition_fragment_C(tiled, make_shape(C<BM>{}, C<N>{}));
    for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = std::numeric_limits<float>::quiet_NaN();
    const auto tCgC1 = thr.partition_C(make_tensor(c1.data(), make_layout(make_shape(C<BM>{}, C<N>{}))));
    const auto tCgC2 = thr.partition_C(make_tensor(c2.data(), make_layout(make_shape(C<BM>{}, C<N>{}))));
    gemm(tiled, tCrA, tCrB, tCrC, GMMA::ScaleOut::Zero);
    for (int i = 0; i < int(size(tCrC)); ++i) tCgC1(i) = tCrC(i);
    gemm(tiled, tCrA, tCrB, tCrC, GMMA::ScaleOut::One);
    for (int i = 0; i < int(size(tCrC)); ++i) tCgC2(i) = tCrC(i);
  });
  int wrong = 0;
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < BM; ++m) {
      float want = 0;
      for (int k = 0; k < BK; ++k) want += av(m, k) * bv(n, k);
      wrong += c1[std::size_t(m + BM * n)] != want || c2[std::size_t(m + BM * n)] != 2 * want;
    }
  CHECK(wrong == 0);
}

}  // namespace
