// Folding swizzled addresses to register + immediate (tessera/swizzle.hpp swizzle_fold,
// tessera/algorithm/swizzle_fold.hpp fold_partition_S/D):
//  * the identity sw(o + d) == (sw(o) ^ xor_part) + add_part for every o with bits in o_bits,
//    on generated swizzles, masks and offsets; valid exactly when d and o_bits share no bit;
//  * the tensor-core kernel's partitions (every thread of its ldmatrix and cp.async tiled
//    copies, every operand major, swizzled or not): the folded tensor addresses every value
//    where the swizzled partition does, and every static offset folds (no run-time swizzle
//    is left in the mainloop).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdint>
#include <vector>

#include "tessera/algorithm.hpp"
#include "tessera/kernels/tensorop_partition.hpp"

using namespace tessera;

namespace {

template <class Sw>
void check_fold_identity() {
  rc::prop("sw(o + d) == (sw(o) ^ X) + A whenever the fold is valid", [] {
    const auto o_bits = *rc::gen::inRange<int64_t>(0, int64_t(1) << 16);
    const auto d = *rc::gen::inRange<int64_t>(0, int64_t(1) << 18);
    const auto o_raw = *rc::gen::inRange<int64_t>(0, int64_t(1) << 16);
    const int64_t o = o_raw & o_bits;
    const SwizzleFold f = swizzle_fold(Sw{}, d, o_bits);
    RC_ASSERT(f.valid == ((d & o_bits) == 0));
    if (f.valid) {
      RC_ASSERT(int64_t(Sw::apply(o + d)) == ((int64_t(Sw::apply(o)) ^ f.xor_part) + f.add_part));
      RC_ASSERT((f.xor_part & f.add_part) == 0);
    }
  });
}

// Does a static offset fold? (The kernel's loops index partitions with static coordinates.)
template <class Tn, class Folded>
void check_folded(Tn const& t, Folded const& f, int64_t o_bits, int& unfolded) {
  using Sw = std::remove_cvref_t<decltype(t.layout().outer())>;
  detail::for_each_index(size(t.layout()), [&](auto i) {
    REQUIRE(&f[i] == &t[i]);  // static index: the folded path
    REQUIRE(&f[int(i)] == &t[int(i)]);  // run-time index: the swizzle at run time
    if (!swizzle_fold(Sw{}, int64_t(f.layout()(i)), o_bits).valid) ++unfolded;
  });
}

template <int BK, bool AK, bool BKM, bool Swizzled>
void check_kernel_partitions() {
  using P = kernels::TensorOpPartition<128, 256, BK, 2, 4, 256, true, AK, BKM, 8, Swizzled>;
  constexpr int Stages = 4;
  using LA = typename P::template SmemLayoutA<Stages>;
  using LB = typename P::template SmemLayoutB<Stages>;
  std::vector<bfloat16_t> smem(std::size_t(cosize(LA{}) + cosize(LB{})));
  auto sA = make_tensor(smem.data(), LA{});
  auto sB = make_tensor(smem.data() + cosize(LA{}), LB{});
  int unfolded = 0;
  for (int t = 0; t < 256; ++t) {
    auto check = [&](auto tiled, auto s, auto source_) {
      constexpr bool source = decltype(source_)::value;
      auto thr = tiled.get_slice(t);
      if constexpr (is_composed_layout_v<decltype(s.layout())>) {
        auto inner = s.layout().inner();
        if constexpr (source) {
          check_folded(thr.partition_S(s), fold_partition_S(thr, s), partition_S_offset_bits(tiled, inner), unfolded);
        } else {
          check_folded(thr.partition_D(s), fold_partition_D(thr, s), partition_D_offset_bits(tiled, inner), unfolded);
        }
      } else {
        // Unswizzled: the partition itself, unchanged.
        auto compare = [&](auto const& p, auto const& f) {
          detail::for_each_index(size(p.layout()), [&](auto i) { REQUIRE(&f[i] == &p[i]); });
        };
        if constexpr (source) compare(thr.partition_S(s), fold_partition_S(thr, s));
        else compare(thr.partition_D(s), fold_partition_D(thr, s));
      }
    };
    check(typename P::S2R_A{}, sA, std::true_type{});
    check(typename P::S2R_B{}, sB, std::true_type{});
    check(typename P::G2S_A::Tiled{}, sA, std::false_type{});
    check(typename P::G2S_B::Tiled{}, sB, std::false_type{});
  }
  CHECK(unfolded == 0);
}

}  // namespace

TEST_CASE("swizzle_fold: the identity on generated offsets", "[swizzle][fold]") {
  check_fold_identity<Swizzle<2, 3, 3>>();
  check_fold_identity<Swizzle<3, 3, 3>>();
  check_fold_identity<Swizzle<3, 3, 4>>();
  check_fold_identity<Swizzle<3, 4, 3>>();
  check_fold_identity<Swizzle<2, 0, -2>>();
  check_fold_identity<Swizzle<0, 4, 0>>();
}

TEST_CASE("swizzle_fold: known splits", "[swizzle][fold]") {
  // The K-major 128x32 bf16 tile, Sw<2,3,3>: a lane's ldmatrix offsets have bits 3, 5-8, 11.
  constexpr int64_t o_bits = 0x9e8;
  // k16 step: bit 4 is one the swizzle writes, so XOR.
  STATIC_REQUIRE(swizzle_fold(Swizzle<2, 3, 3>{}, 16, o_bits).valid);
  STATIC_REQUIRE(swizzle_fold(Swizzle<2, 3, 3>{}, 16, o_bits).xor_part == 16);
  STATIC_REQUIRE(swizzle_fold(Swizzle<2, 3, 3>{}, 16, o_bits).add_part == 0);
  // the next 16 rows (512) and the next stage (4096): above the swizzle, an immediate.
  STATIC_REQUIRE(swizzle_fold(Swizzle<2, 3, 3>{}, 512 + 4096, o_bits).xor_part == 0);
  STATIC_REQUIRE(swizzle_fold(Swizzle<2, 3, 3>{}, 512 + 4096, o_bits).add_part == 512 + 4096);
  // an offset that shares a bit with the thread's: not foldable.
  STATIC_REQUIRE(!swizzle_fold(Swizzle<2, 3, 3>{}, 32, o_bits).valid);
  // A read bit (64) of the static offset moves through the swizzle: sw(64) = 64 ^ 8.
  STATIC_REQUIRE(swizzle_fold(Swizzle<2, 3, 3>{}, 64, 0).add_part == 72);
  STATIC_REQUIRE(Swizzle<2, 3, 3>::image_bits(0x40) == 0x48);
}

TEST_CASE("fold_partition_S/D: the tensor-core kernel's partitions, every thread", "[swizzle][fold][kernels]") {
  check_kernel_partitions<32, true, true, true>();
  check_kernel_partitions<32, true, false, true>();
  check_kernel_partitions<32, false, true, true>();
  check_kernel_partitions<32, false, false, true>();
  check_kernel_partitions<64, true, true, true>();
  check_kernel_partitions<32, true, true, false>();
}
