// tcgen05.mma shared-memory descriptors (tessera/atom/umma_descriptor.hpp): the ISA's fields
// decoded from descriptors tessera computes, and the whole descriptor (start address aside:
// CuTe computes it from a device pointer) against CuTe's make_umma_desc for the first K block of
// tiles of every GMMA layout atom (tests/data/cute_sm100_umma_desc.jsonl, printed by
// tools/cute_reference/sm100_umma_desc.cu).
#include <catch2/catch.hpp>

#include <array>
#include <fstream>
#include <map>
#include <string>

#include "tessera/atom/umma_descriptor.hpp"

using namespace tessera;

namespace {

std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const std::size_t p = line.find(k);
  if (p == std::string::npos) return "";
  std::size_t b = p + k.size();
  if (line[b] == '"') return line.substr(b + 1, line.find('"', b + 1) - b - 1);
  return line.substr(b, line.find_first_of(",}", b) - b);
}

template <int B, int M, int S>
constexpr std::array<int, 3> swizzle_params(Swizzle<B, M, S>) { return {B, M, S}; }

// The first (MN, K) block of a (MN, 4K) tile of the atom, K = 256 / Bits; its descriptor at a
// buffer on the 1024-byte boundary, start address cleared. Computed at run time through the
// flat core both tiers share (the static make_umma_descriptor evaluates the same core at
// compile time: the known-fields case below holds the two equal), so that this test costs
// little to compile.
template <int Bits, UMMA::Major MJ, int Swizzle, int MN>
uint64_t first_block_descriptor() {
  constexpr int K = 256 / Bits;
  constexpr GMMA::Major G = MJ == UMMA::Major::K ? GMMA::Major::K : GMMA::Major::MN;
  const auto S = GMMA::make_smem_layout<Bits, G, Swizzle>(make_shape(C<MN>{}, C<4 * K>{}));
  std::array<int, 3> swz{0, 4, 3};
  auto offset = [&](int64_t mn, int64_t k) -> int64_t {
    if constexpr (is_composed_layout_v<std::remove_cv_t<decltype(S)>>) return int64_t(to_i64(S.inner()(mn, k)));
    else return int64_t(to_i64(S(mn, k)));
  };
  if constexpr (is_composed_layout_v<std::remove_cv_t<decltype(S)>>) swz = swizzle_params(S.outer());
  const GMMA::DescriptorFields f = GMMA::gmma_descriptor_fields(G, Bits, swz[0], swz[1], swz[2], MN, K, offset, true);
  REQUIRE(f.rule == GMMA::DescriptorRule::ok);
  const UMMA::SmemDescriptor d = UMMA::make_umma_descriptor(f, 2048);
  CHECK(d.version() == 1);  // bits 46-48 hold 0b001
  CHECK(d.start_address() == 2048 / 16);
  CHECK(d.lbo_mode() == 0);
  return d.desc & ~uint64_t(0x3FFF);
}

template <int Bits, UMMA::Major MJ, int MN>
void all_swizzles(std::map<std::string, uint64_t>& out) {
  const std::string key = std::to_string(Bits) + (MJ == UMMA::Major::K ? " K " : " MN ");
  out[key + "16 " + std::to_string(MN)] = first_block_descriptor<Bits, MJ, 16, MN>();
  out[key + "32 " + std::to_string(MN)] = first_block_descriptor<Bits, MJ, 32, MN>();
  out[key + "64 " + std::to_string(MN)] = first_block_descriptor<Bits, MJ, 64, MN>();
  out[key + "128 " + std::to_string(MN)] = first_block_descriptor<Bits, MJ, 128, MN>();
}

}  // namespace

TEST_CASE("tcgen05.mma descriptors: CuTe's make_umma_desc, field for field") {
  std::map<std::string, uint64_t> ours;
  all_swizzles<16, UMMA::Major::K, 128>(ours);
  all_swizzles<16, UMMA::Major::MN, 128>(ours);
  all_swizzles<16, UMMA::Major::K, 256>(ours);
  all_swizzles<16, UMMA::Major::MN, 256>(ours);
  all_swizzles<32, UMMA::Major::K, 128>(ours);
  all_swizzles<32, UMMA::Major::MN, 128>(ours);
  all_swizzles<8, UMMA::Major::K, 128>(ours);
  all_swizzles<8, UMMA::Major::MN, 128>(ours);
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_umma_desc.jsonl");
  REQUIRE(in.good());
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const std::string key = field(line, "bits") + " " + field(line, "major") + " " + field(line, "swizzle") + " " + field(line, "mn");
    INFO(key);
    REQUIRE(ours.count(key) == 1);
    CHECK(std::to_string(ours[key]) == field(line, "desc"));
    ++n;
  }
  CHECK(n == int(ours.size()));
}

TEST_CASE("tcgen05.mma descriptors: the ISA's fields") {
  // bf16 K-major 128B, (128, 16) from a (128, 64) tile: 8-row groups 1024 B apart, LBO "1" (16 B).
  constexpr auto S = GMMA::make_smem_layout<16, GMMA::Major::K, 128>(make_shape(_128{}, _64{}));
  constexpr auto A0 = logical_divide(S, make_shape(_128{}, _16{}))(make_coord(_, _0{}), make_coord(_, _0{}));
  constexpr UMMA::SmemDescriptor d = UMMA::make_umma_descriptor<UMMA::Major::K, 16>(A0, 1024);
  STATIC_REQUIRE(d.layout_type() == UMMA::LayoutType::SWIZZLE_128B);
  STATIC_REQUIRE(int(d.layout_type()) == 2);  // ISA: 2 = 128-byte swizzling
  STATIC_REQUIRE(d.stride_byte_offset() == 1024 / 16);
  STATIC_REQUIRE(d.leading_byte_offset() == 1);
  STATIC_REQUIRE(d.start_address() == 1024 / 16);
  STATIC_REQUIRE(d.version() == 1);
  STATIC_REQUIRE(d.base_offset() == 0);
  STATIC_REQUIRE((d.desc >> 53 & 0xFF) == 0);  // bits 53-60: constant 0
  // The next K block 32 bytes on; a buffer off the repeat: base offset (addr >> 7) & 7.
  constexpr auto A1 = logical_divide(S, make_shape(_128{}, _16{}))(make_coord(_, _0{}), make_coord(_, _1{}));
  STATIC_REQUIRE(UMMA::make_umma_descriptor<UMMA::Major::K, 16>(A1, 1024).desc == d.advanced(32).desc);
  STATIC_REQUIRE(UMMA::make_umma_descriptor<UMMA::Major::K, 16>(A0, 1024 + 384).base_offset() == 3);
  // The static path and the run-time one (the vector test above) agree.
  CHECK((d.desc & ~uint64_t(0x3FFF)) == first_block_descriptor<16, UMMA::Major::K, 128, 128>());
  // The swizzle modes' encodings (ISA: 0 none, 6 32B, 4 64B, 2 128B), and tf32 MN-major, which
  // wgmma refuses and tcgen05.mma reads.
  STATIC_REQUIRE(int(UMMA::layout_type_of(GMMA::LayoutType::INTERLEAVE)) == 0);
  STATIC_REQUIRE(int(UMMA::layout_type_of(GMMA::LayoutType::B32)) == 6);
  STATIC_REQUIRE(int(UMMA::layout_type_of(GMMA::LayoutType::B64)) == 4);
  constexpr auto T = GMMA::make_smem_layout<32, GMMA::Major::MN, 128>(make_shape(_128{}, _32{}));
  constexpr auto B0 = logical_divide(T, make_shape(_128{}, _8{}))(make_coord(_, _0{}), make_coord(_, _0{}));
  constexpr UMMA::SmemDescriptor e = UMMA::make_umma_descriptor<UMMA::Major::MN, 32>(B0, 0);
  STATIC_REQUIRE(e.layout_type() == UMMA::LayoutType::SWIZZLE_128B);
  STATIC_REQUIRE(e.version() == 1);  // (its LBO and SBO are CuTe's: the vector test above)
}
