// Folding swizzled addresses to register + immediate (tessera/swizzle.hpp swizzle_fold,
// tessera/algorithm/swizzle_fold.hpp fold_partition_S/D):
//  * the identity sw(o + d) == (sw(o) ^ xor_part) + add_part for every o with bits in o_bits,
//    on generated swizzles, masks and offsets; valid exactly when d and o_bits share no bit;
//  * partition_S/D_offset_bits: the OR of every thread's partition offset;
//  * the tensor-core kernel's partitions (every thread of its ldmatrix and cp.async tiled
//    copies, every operand major, swizzled or not): every value's offset folds (no run-time
//    swizzle is left in the mainloop) to the address of the swizzled partition (every value,
//    run-time indices), the static (C<i>) path the kernel takes gives those addresses (probe
//    values that reach every form of address: instantiating the path for every value costs
//    minutes of compile time and checks the same code), and the fold's o_bits are exactly the
//    bits of the threads' offsets.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>
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

// The indices at which a partition's static (C<i>) path is compiled and checked: the first and
// the last value, and the first step along every mode of the flattened shape (each stride
// entering the offset on its own).  Every other value takes the same code with another
// constant, and the run-time checks below cover every value.
template <class L>
constexpr auto mode_probes() {
  using Flat = decltype(flatten(L{}.shape()));
  return []<std::size_t... I>(std::index_sequence<I...>) {
    std::array<int64_t, sizeof...(I) + 2> probes{};
    int64_t step = 1;
    std::size_t k = 0;
    ((probes[k++] = step, step *= int64_t(std::remove_cvref_t<decltype(get<I>(Flat{}))>::value)), ...);
    probes[k++] = 0;
    probes[k++] = step - 1;  // step is now the size
    for (auto& p : probes) p = p < step ? p : step - 1;  // trailing modes of extent 1 step past the end
    return probes;
  }(seq_of<Flat>{});
}

// mode_probes, and for a folded swizzled partition also the first value whose address needs
// a run-time XOR and the first that is the register plus a nonzero immediate: every form the
// folded iterator's static path emits.
template <class L, class Sw, int64_t OBits>
constexpr auto fold_probes() {
  constexpr auto by_mode = mode_probes<L>();
  std::array<int64_t, by_mode.size() + 2> probes{};
  for (std::size_t k = 0; k < by_mode.size(); ++k) probes[k] = by_mode[k];
  probes[by_mode.size()] = probes[by_mode.size() + 1] = 0;
  bool xor_found = false, immediate_found = false;
  for (int64_t i = 0; i < int64_t(decltype(size(L{}))::value); ++i) {
    const SwizzleFold f = swizzle_fold(Sw{}, int64_t(L{}(i)), OBits);
    if (f.valid && f.xor_part != 0 && !xor_found) probes[by_mode.size()] = i, xor_found = true;
    if (f.valid && f.xor_part == 0 && f.add_part != 0 && !immediate_found)
      probes[by_mode.size() + 1] = i, immediate_found = true;
  }
  return probes;
}

// The o_bits a folded iterator was built with.
template <class It> struct fold_offset_bits;
template <class T, class Sw, int64_t OBits, class D>
struct fold_offset_bits<SwizzleFoldIterator<T, Sw, OBits, D>> : std::integral_constant<int64_t, OBits> {};

// The folded partition f of a thread against its swizzled partition t (the swizzle evaluated at
// run time, the reference), value by value:
//  * every value, with run-time indices: the offset L(i) folds (swizzle_fold is valid for the
//    thread's offset o, whose bits lie in the iterator's o_bits), and the address the fold
//    gives, ptr[(sw(o) ^ xor_part) + add_part], is t's; f's run-time path agrees too;
//  * the probe values, with static indices: f[C<i>] -- the fold evaluated at compile time, the
//    kernel's path -- is t's address.
// Returns o, the thread's offset under the swizzle.
template <class Tn, class Folded>
int64_t check_folded(Tn const& t, Folded const& f, int& unfolded) {
  using Sw = std::remove_cvref_t<decltype(t.layout().outer())>;
  using L = std::remove_cvref_t<decltype(f.layout())>;
  auto const& it = f.data();
  constexpr int64_t o_bits = fold_offset_bits<std::remove_cvref_t<decltype(it)>>::value;
  REQUIRE((int64_t(it.o) & ~o_bits) == 0);
  REQUIRE(it.sw_o == int(Sw::apply(int64_t(it.o))));
  for (int i = 0; i < int(size(f.layout())); ++i) {
    REQUIRE(&f[i] == &t[i]);  // run-time index: the swizzle at run time
    const SwizzleFold fold = swizzle_fold(Sw{}, int64_t(f.layout()(i)), o_bits);
    if (!fold.valid) {
      ++unfolded;
      continue;
    }
    REQUIRE(&it.ptr[(it.sw_o ^ int(fold.xor_part)) + int(fold.add_part)] == &t[i]);
  }
  static constexpr auto probes = fold_probes<L, Sw, o_bits>();
  detail::static_for<int64_t(probes.size())>([&](auto k) {
    constexpr int64_t i = probes[decltype(k)::value];
    REQUIRE(&f[C<i>{}] == &t[int(i)]);  // static index: the folded path
  });
  return it.o;
}

// An unswizzled tile's "folded" partition is the partition itself: the same type, the same
// addresses (every value at run time, the probes with static indices).
template <class Tn, class Folded>
void check_unchanged(Tn const& p, Folded const& f) {
  STATIC_REQUIRE(std::is_same_v<Tn, Folded>);
  for (int i = 0; i < int(size(p.layout())); ++i) REQUIRE(&f[i] == &p[i]);
  static constexpr auto probes = mode_probes<std::remove_cvref_t<decltype(p.layout())>>();
  detail::static_for<int64_t(probes.size())>([&](auto k) {
    constexpr int64_t i = probes[decltype(k)::value];
    REQUIRE(&f[C<i>{}] == &p[int(i)]);
  });
}

// Every thread's partition of the smem tile s by a tiled copy (its source or destination side),
// folded, against the swizzled partition.  The fold's o_bits must be exactly the bits of the
// threads' offsets: OR-ed here from the partitions themselves, independently of the constexpr
// derivation (partition_S/D_offset_bits) that fold_partition_S/D use.
template <bool Source, class Tiled, class Tn>
void check_partitions(Tiled const& tiled, Tn const& s, int& unfolded) {
  auto partition = [&](auto const& thr) {
    if constexpr (Source) return thr.partition_S(s); else return thr.partition_D(s);
  };
  auto folded = [&](auto const& thr) {
    if constexpr (Source) return fold_partition_S(thr, s); else return fold_partition_D(thr, s);
  };
  if constexpr (is_composed_layout_v<decltype(s.layout())>) {
    using It = std::remove_cvref_t<decltype(folded(tiled.get_slice(0)).data())>;
    int64_t offset_bits = 0;
    for (int t = 0; t < int(size(tiled)); ++t) {
      auto thr = tiled.get_slice(t);
      offset_bits |= check_folded(partition(thr), folded(thr), unfolded);
    }
    CHECK(offset_bits == fold_offset_bits<It>::value);
  } else {
    for (int t = 0; t < int(size(tiled)); ++t) {
      auto thr = tiled.get_slice(t);
      check_unchanged(partition(thr), folded(thr));
    }
  }
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
  check_partitions<true>(typename P::S2R_A{}, sA, unfolded);
  check_partitions<true>(typename P::S2R_B{}, sB, unfolded);
  check_partitions<false>(typename P::G2S_A::Tiled{}, sA, unfolded);
  check_partitions<false>(typename P::G2S_B::Tiled{}, sB, unfolded);
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

TEST_CASE("partition_S/D_offset_bits: every bit of any thread's partition offset", "[swizzle][fold]") {
  // ldmatrix x4 over a row-major 32x8 half tile: lane t addresses row t (offset 8t), and holds
  // values of rows t/4 at columns 2(t%4): the two sides' offsets have different bits.
  auto ldsm = make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_layout(make_shape(_32{}, _1{})),
                              make_layout(make_shape(_1{}, _8{})));
  auto tile = make_layout(make_shape(_32{}, _8{}), LayoutRight{});
  std::vector<half_t> smem(std::size_t(cosize(tile)));
  auto s = make_tensor(smem.data(), tile);
  int64_t source_bits = 0, destination_bits = 0;
  for (int t = 0; t < int(size(ldsm)); ++t) {
    auto thr = ldsm.get_slice(t);
    source_bits |= thr.partition_S(s).data() - smem.data();
    destination_bits |= thr.partition_D(s).data() - smem.data();
  }
  CHECK(source_bits != destination_bits);
  CHECK(partition_S_offset_bits(ldsm, tile) == source_bits);
  CHECK(partition_D_offset_bits(ldsm, tile) == destination_bits);
}

TEST_CASE("fold_partition_S/D: the tensor-core kernel's partitions, every thread", "[swizzle][fold][kernels]") {
  check_kernel_partitions<32, true, true, true>();
  check_kernel_partitions<32, true, false, true>();
  check_kernel_partitions<32, false, true, true>();
  check_kernel_partitions<32, false, false, true>();
  check_kernel_partitions<64, true, true, true>();
  check_kernel_partitions<32, true, true, false>();
}
