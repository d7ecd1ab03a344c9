// Every Blackwell atom the registry lists against CuTe's traits, exactly: the text of ThrID,
// ALayout/BLayout/CLayout and the instruction descriptor of each tcgen05.mma atom, and of ThrID,
// ValID, SrcLayout/DstLayout/RefLayout of each tcgen05.ld/st atom, as CuTe's print writes them
// (underscores removed). The answers (tests/data/cute_sm100_traits.jsonl) were printed by a
// program compiled against CuTe (tools/cute_reference/sm100_atoms.py); nothing here derives
// them. The registry and the vectors must list the same atoms.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "tessera/atom/copy_sm100.hpp"
#include "tessera/atom/mma_sm100.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/rt/to_runtime.hpp"

namespace {

// "key": "value" or "key": number in a one-line JSON object of CuTe's answers (no escapes occur).
std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const std::size_t p = line.find(k);
  if (p == std::string::npos) return "";
  std::size_t b = p + k.size();
  if (line[b] == '"') return line.substr(b + 1, line.find('"', b + 1) - b - 1);
  return line.substr(b, line.find_first_of(",}", b) - b);
}

// The f8f6f4 and block-scaled kinds, checked against their own vectors below.
bool is_narrow(const std::string& name) {
  return name.rfind("SM100_MMA_F8F6F4_", 0) == 0 || name.rfind("SM100_MMA_MXF", 0) == 0;
}

std::map<std::string, std::string> read_vectors() {
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_traits.jsonl");
  REQUIRE(in.good());
  std::map<std::string, std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines[field(line, "atom")] = line;
  return lines;
}

}  // namespace

TEST_CASE("tcgen05.mma atoms: ThrID, A/B/C layouts and instruction descriptors are CuTe's") {
  const auto vectors = read_vectors();
  std::set<std::string> seen;
  for (const auto& a : tessera::rt::mma_atoms()) {
    if (a.arch != "SM100a" || is_narrow(a.name)) continue;  // the narrow kinds: below
    seen.insert(a.name);
    INFO(a.name);
    const auto it = vectors.find(a.name);
    REQUIRE(it != vectors.end());
    CHECK(tessera::rt::to_string(a.thr_id) == field(it->second, "ThrID"));
    CHECK(tessera::rt::to_string(a.a_tv) == field(it->second, "ALayout"));
    CHECK(tessera::rt::to_string(a.b_tv) == field(it->second, "BLayout"));
    CHECK(tessera::rt::to_string(a.c_tv) == field(it->second, "CLayout"));
    CHECK(std::to_string(a.idesc) == field(it->second, "idesc"));
  }
  std::size_t mma_vectors = 0;
  for (const auto& [name, line] : vectors)
    if (name.rfind("SM100_MMA_", 0) == 0) {
      ++mma_vectors;
      INFO(name);
      CHECK(seen.count(name) == 1);
    }
  CHECK(seen.size() == mma_vectors);
  CHECK(seen.size() == 840);  // f16/bf16 480, tf32 160, i8 200 (docs/cli.md, Blackwell atoms)
}

TEST_CASE("tcgen05.ld/st atoms: ThrID, ValID, Src/Dst/RefLayout are CuTe's") {
  const auto vectors = read_vectors();
  std::set<std::string> seen;
  for (const auto& a : tessera::rt::copy_atoms()) {
    if (a.arch != "SM100a") continue;
    seen.insert(a.name);
    INFO(a.name);
    const auto it = vectors.find(a.name);
    REQUIRE(it != vectors.end());
    CHECK(tessera::rt::to_string(a.thr_id) == field(it->second, "ThrID"));
    CHECK(tessera::rt::to_string(a.val_id) == field(it->second, "ValID"));
    CHECK(tessera::rt::to_string(a.src_bits) == field(it->second, "SrcLayout"));
    CHECK(tessera::rt::to_string(a.dst_bits) == field(it->second, "DstLayout"));
    CHECK(tessera::rt::to_string(a.ref_bits) == field(it->second, "RefLayout"));
    CHECK(a.tmem_src == (a.name.find("_LOAD_") != std::string::npos));
  }
  std::size_t copy_vectors = 0;
  for (const auto& [name, line] : vectors)
    if (name.rfind("SM100_TMEM_", 0) == 0) ++copy_vectors;
  CHECK(seen.size() == copy_vectors);
  CHECK(seen.size() == 148);
}

// Properties the ISA states, checked on the static layouts for every repetition count: a LOAD
// gives each (lane, 32-bit column) cell of its block to exactly one (thread, register), and
// thread t of .32x32b holds lane t.
namespace {
template <class Traits, int Lanes, int Columns>
void check_tmem_cover() {
  using namespace tessera;
  using V = typename Traits::ValID;
  using D = typename Traits::DstLayout;
  std::vector<int> owner(Lanes * Columns, -1);
  const int regs = int(size<1>(D{})) / 32;
  for (int t = 0; t < 32; ++t)
    for (int r = 0; r < regs; ++r) {
      const int64_t bit = int64_t(to_i64(D{}(t, 32 * r)));
      const int64_t addr = int64_t(to_i64(V{}(bit)));
      const int64_t lane = addr >> 21, column = (addr & ((1 << 21) - 1)) / 32;
      REQUIRE(lane < Lanes);
      REQUIRE(column < Columns);
      CHECK(owner[lane * Columns + column] == -1);
      owner[lane * Columns + column] = t;
      if constexpr (Lanes == 32) CHECK(lane == t);
    }
  for (int o : owner) CHECK(o != -1);
}
}  // namespace

TEST_CASE("tcgen05.ld: every (lane, column) of the block reaches one thread's register") {
  using namespace tessera;
  check_tmem_cover<Copy_Traits<SM100_TMEM_LOAD_32dp32b1x>, 32, 1>();
  check_tmem_cover<Copy_Traits<SM100_TMEM_LOAD_32dp32b8x>, 32, 8>();
  check_tmem_cover<Copy_Traits<SM100_TMEM_LOAD_16dp64b4x>, 16, 8>();
  check_tmem_cover<Copy_Traits<SM100_TMEM_LOAD_16dp128b2x>, 16, 8>();
  check_tmem_cover<Copy_Traits<SM100_TMEM_LOAD_16dp256b1x>, 16, 8>();
  check_tmem_cover<Copy_Traits<SM100_TMEM_LOAD_16dp32b4x>, 16, 8>();
}

// The accumulator in tensor memory: one cell per element of each CTA's tile, inside 128 lanes x
// 512 columns, in the lanes the ISA's data-path layouts name.
TEST_CASE("tcgen05.mma accumulators: (m, n) -> lane + 128 column, one cell each") {
  using namespace tessera;
  auto check = [](auto layout, int64_t rows, int64_t cols, auto lane_of) {
    std::set<int64_t> cells;
    for (int64_t n = 0; n < cols; ++n)
      for (int64_t m = 0; m < rows; ++m) {
        const int64_t c = int64_t(to_i64(layout(m, n)));
        CHECK(c % 128 == lane_of(m, n));
        CHECK(c / 128 < 512);
        CHECK(cells.insert(c).second);
      }
  };
  check(UMMA::TmemLayoutC<1, 128, 256>{}, 128, 256, [](int64_t m, int64_t) { return m; });
  check(UMMA::TmemLayoutC<1, 64, 64>{}, 64, 64, [](int64_t m, int64_t) { return m % 16 + 32 * (m / 16); });
  check(UMMA::TmemLayoutC<2, 128, 64>{}, 64, 64, [](int64_t m, int64_t n) { return m + 64 * (n / 32); });
  check(UMMA::TmemLayoutC<2, 256, 256>{}, 128, 256, [](int64_t m, int64_t) { return m; });
  using T = MMA_Traits<SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>>;
  STATIC_REQUIRE(std::is_same_v<T::TmemLayoutC, UMMA::TmemLayoutC<2, 128, 64>>);
}

// The accumulator's tensor-memory layout against CuTe's tmem_frg (tests/data/cute_sm100_tmem_c.jsonl,
// printed by tools/cute_reference/sm100_tmem_c.cu): CuTe addresses a cell as lane * 2^16 + column;
// every (m, n) of a CTA's tile lands on the same cell in both.
TEST_CASE("tcgen05.mma accumulators: tensor-memory cells are CuTe's tmem_frg") {
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_tmem_c.jsonl");
  REQUIRE(in.good());
  int cases = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    INFO(line);
    const int cta = std::stoi(field(line, "cta_group")), m = std::stoi(field(line, "m")), n = std::stoi(field(line, "n"));
    const tessera::rt::Value v = tessera::rt::evaluate(field(line, "layout"));
    REQUIRE(v.kind() == tessera::rt::Value::Kind::Layout);
    const tessera::rt::Layout cute = v.layout().mode(0);  // ((M/cta, N), 1, 1): the one MMA's tile
    // An atom of this shape (the layout depends on cta_group, M and N only).
    const tessera::rt::MmaAtomInfo* atom = nullptr;
    for (const auto& a : tessera::rt::mma_atoms())
      if (a.cta_group == cta && a.m == m && a.n == n && !a.a_tmem) { atom = &a; break; }
    REQUIRE(atom != nullptr);
    const int64_t rows = m / cta;
    REQUIRE(cute.size() == rows * n);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t cell = atom->tmem_c(i + rows * j);
        CHECK(cute(i + rows * j) == (cell % 128) * 65536 + cell / 128);
      }
    ++cases;
  }
  CHECK(cases == 9);
}

// The f8f6f4 and block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4) against CuTe
// (tests/data/cute_sm100_narrow_traits.jsonl, tools/cute_reference/sm100_atoms.py narrow): a line
// per shape with CuTe's ThrID, A/B/C layouts and K (CuTe's program checked that every atom of
// the shape has them), a line per atom with its instruction descriptor, then CUTLASS's
// scale-factor block and CuTe's tensor-memory scale-factor layouts.
namespace {
std::map<std::string, std::string> read_narrow(const std::string& key) {
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_narrow_traits.jsonl");
  REQUIRE(in.good());
  std::map<std::string, std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!field(line, key).empty() && (key != "shape" || field(line, "atom").empty()))
      lines[field(line, key)] = line;
  return lines;
}
}  // namespace

TEST_CASE("tcgen05.mma f8f6f4 and block-scaled atoms: layouts, K and instruction descriptors are CuTe's") {
  const auto atoms = read_narrow("atom");
  const auto shapes = read_narrow("shape");
  std::set<std::string> seen;
  for (const auto& a : tessera::rt::mma_atoms()) {
    if (a.arch != "SM100a" || !is_narrow(a.name)) continue;
    INFO(a.name);
    CHECK(seen.insert(a.name).second);
    const auto it = atoms.find(a.name);
    REQUIRE(it != atoms.end());
    CHECK(std::to_string(a.idesc) == field(it->second, "idesc"));
    const auto sh = shapes.find(field(it->second, "shape"));
    REQUIRE(sh != shapes.end());
    CHECK(tessera::rt::to_string(a.thr_id) == field(sh->second, "ThrID"));
    CHECK(tessera::rt::to_string(a.a_tv) == field(sh->second, "ALayout"));
    CHECK(tessera::rt::to_string(a.b_tv) == field(sh->second, "BLayout"));
    CHECK(tessera::rt::to_string(a.c_tv) == field(sh->second, "CLayout"));
    CHECK(std::to_string(a.k) == field(sh->second, "K"));
    // Block-scaled: one scale factor per sf_vec elements of K, supplied by the CTA that holds the
    // row (SM120's convention: SFALayout over A's elements).
    const bool bs = a.name.rfind("SM100_MMA_MXF", 0) == 0;
    CHECK((a.sf_vec != 0) == bs);
    if (bs) {
      CHECK(a.k % a.sf_vec == 0);
      CHECK(a.sfa_tv == a.a_tv);
      CHECK(a.sfb_tv == a.b_tv);
      CHECK(a.tmem_sfa.size() == std::int64_t(4) * a.m / a.cta_group * a.k);  // four copies of each row's
      CHECK(a.tmem_sfb.size() ==  // four copies (two on a 128-row pair's 2x2 data path) of each column's
            std::int64_t(a.cta_group == 2 && a.m == 128 ? 2 : 4) * ((a.n + 127) / 128 * 128) * a.k);
      CHECK(a.name.find("_" + std::string(a.sf_type == "ue4m3" ? "UE4M3" : "UE8M0") + "x" + std::to_string(a.sf_vec)) !=
            std::string::npos);
    }
  }
  CHECK(seen.size() == atoms.size());
  // f8f6f4: 50 type triples x 160 shapes; mxf8f6f4: 25 x 48; mxf4/mxf4nvf4: 3 scale forms x 64.
  CHECK(seen.size() == 8000 + 1200 + 192);
}

// The instruction descriptors the registry computes from format codes are the static traits'
// (make_instr_desc / make_instr_desc_block_scaled, from the types), on a sample of every kind.
TEST_CASE("tcgen05.mma narrow kinds: the registry's descriptors are the static traits'") {
  using namespace tessera;
  using UMMA::Major;
  auto idesc_of = [](const std::string& name) {
    for (const auto& a : rt::mma_atoms())
      if (a.name == name) return a.idesc;
    FAIL("no atom " << name);
    return 0u;
  };
  CHECK(idesc_of("SM100_MMA_F8F6F4_SS_128x64x32_F16E2M1E4M3") ==
        MMA_Traits<SM100_MMA_F8F6F4_SS<float_e2m1_t, float_e4m3_t, half_t, 128, 64, Major::K, Major::K>>::idesc.desc);
  CHECK(idesc_of("SM100_MMA_F8F6F4_2x1SM_TS_256x96x32_F32E3M2E2M3") ==
        MMA_Traits<SM100_MMA_F8F6F4_2x1SM_TS<float_e3m2_t, float_e2m3_t, float, 256, 96, Major::K, Major::K>>::idesc.desc);
  CHECK(idesc_of("SM100_MMA_MXF8F6F4_SS_128x24x32_F32E5M2E2M1_UE8M0x32") ==
        MMA_Traits<SM100_MMA_MXF8F6F4_SS<float_e5m2_t, float_e2m1_t, float, float_ue8m0_t, 128, 24, Major::K,
                                         Major::K>>::idesc.desc);
  CHECK(idesc_of("SM100_MMA_MXF4_2x1SM_SS_128x48x64_F32E2M1E2M1_UE4M3x16") ==
        MMA_Traits<SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 48, 16, Major::K,
                                           Major::K>>::idesc.desc);
  CHECK(idesc_of("SM100_MMA_MXF4_SS_128x256x64_F32E2M1E2M1_UE8M0x32") ==
        MMA_Traits<SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 256, 32, Major::K,
                                     Major::K>>::idesc.desc);
  // The scale-factor IDs come from the top two bits of the scale factors' tensor-memory addresses.
  constexpr auto d = MMA_Traits<SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 64, 16,
                                                  Major::K, Major::K>>::idesc;
  constexpr UMMA::InstrDescriptorBlockScaled with{d.with_scale_addresses(0x80000010u, 0x40000020u)};
  STATIC_REQUIRE(with.a_sf_id() == 2);
  STATIC_REQUIRE(with.b_sf_id() == 1);
  STATIC_REQUIRE(with.m() == 128);
  STATIC_REQUIRE(with.n() == 64);
  STATIC_REQUIRE(with.scale_format() == int(UMMA::ScaleFormat::UE8M0));
}

// CUTLASS's scale-factor block (Sm1xxBlockScaledBasicChunk's SfAtom, K- and MN-major) and CuTe's
// tensor-memory scale-factor layout (tmem_sf_frg, cta_group::1): CuTe addresses a scale factor
// as lane * dp + byte; tessera's cell is lane + 128 * byte, the same (mn, copy, v, s) to the same
// place.
TEST_CASE("tcgen05.mma block scaling: scale-factor layouts are CUTLASS's and CuTe's") {
  using namespace tessera;
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_narrow_traits.jsonl");
  REQUIRE(in.good());
  int atoms = 0, tmem = 0;
  for (std::string line; std::getline(in, line);) {
    if (!field(line, "sf_atom").empty()) {
      INFO(line);
      const int vs = std::stoi(field(line, "vs"));
      const bool k_major = field(line, "sf_atom") == "K";
      const std::string ours = vs == 16 ? (k_major ? rt::to_string(rt::to_runtime(UMMA::SfKMajorAtom<16>{}))
                                                   : rt::to_string(rt::to_runtime(UMMA::SfMNMajorAtom<16>{})))
                                        : (k_major ? rt::to_string(rt::to_runtime(UMMA::SfKMajorAtom<32>{}))
                                                   : rt::to_string(rt::to_runtime(UMMA::SfMNMajorAtom<32>{})));
      CHECK(ours == field(line, "layout"));
      ++atoms;
    } else if (!field(line, "tmem_sf").empty()) {
      INFO(line);
      const int mn = std::stoi(field(line, "mn")), vs = std::stoi(field(line, "vs")), nsf = std::stoi(field(line, "nsf"));
      const std::int64_t dp = std::stoll(field(line, "dp"));
      const rt::Value v = rt::evaluate(field(line, "layout"));
      REQUIRE(v.kind() == rt::Value::Kind::Layout);
      const rt::Layout cute = v.layout().mode(0);  // (((mn, copy), (v, s)), 1, 1): one MMA's
      // An atom whose SFA (mode A) or SFB (mode B) has this shape.
      const rt::MmaAtomInfo* atom = nullptr;
      const bool sfa = field(line, "tmem_sf") == "A";
      for (const auto& a : rt::mma_atoms())
        if (a.cta_group == 1 && a.sf_vec == vs && a.k / vs == nsf && (sfa ? a.m == mn : (a.n + 127) / 128 * 128 == mn)) {
          atom = &a;
          break;
        }
      REQUIRE(atom != nullptr);
      const rt::Layout& ours = sfa ? atom->tmem_sfa : atom->tmem_sfb;
      REQUIRE(ours.size() == cute.size());
      REQUIRE(cute.size() == std::int64_t(4) * mn * vs * nsf);
      for (std::int64_t i = 0; i < cute.size(); ++i) {
        const std::int64_t cell = ours(i);
        CHECK(cute(i) == (cell % 128) * dp + cell / 128);
      }
      ++tmem;
    }
  }
  CHECK(atoms == 4);
  CHECK(tmem == 9);
}

// A tessera tensor-memory scale-factor layout against CuTe's printed one, cell by cell: CuTe
// addresses a scale factor as lane * dp + byte, tessera as lane + 128 * byte. The number of
// indices that land elsewhere.
static std::int64_t sf_cells_differing(const tessera::rt::Layout& ours, const tessera::rt::Layout& cute, std::int64_t dp) {
  if (ours.size() != cute.size()) return std::max(ours.size(), cute.size());
  std::int64_t differ = 0;
  for (std::int64_t i = 0; i < cute.size(); ++i) differ += cute(i) != (ours(i) % 128) * dp + ours(i) / 128;
  return differ;
}

// CuTe's 2x1SM block-scaled traits make their FrgTypeSFA / FrgTypeSFB (tmem_sf_frg with N_SM 2:
// the 4x1 data path for M = 256, the 2x2 one for B when M = 128) from one CTA's shape, the rows
// of A the CTA holds (M / 2) and B's N rounded up to 128; tests/data/cute_sm100_pair_sf.jsonl is
// what CuTe made for a few shapes of each kind (tools/cute_reference/sm100_atoms.py pair-sf).
TEST_CASE("tcgen05.mma block scaling, CTA pair: each CTA's scale factors in tensor memory are CuTe's") {
  using namespace tessera;
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_pair_sf.jsonl");
  REQUIRE(in.good());
  int lines = 0, two_by_two = 0;
  for (std::string line; std::getline(in, line);) {
    if (field(line, "pair_sf").empty()) continue;
    INFO(line);
    const std::string kind = field(line, "kind");
    const int m = std::stoi(field(line, "m")), n = std::stoi(field(line, "n")), vs = std::stoi(field(line, "vs"));
    const std::string name = "SM100_MMA_" + std::string(kind == "mxf8f6f4" ? "MXF8F6F4" : "MXF4") + "_2x1SM_SS_" +
                             std::to_string(m) + "x" + std::to_string(n) +
                             (kind == "mxf8f6f4" ? "x32_F32E4M3E4M3_UE8M0x32"
                                                 : kind == "mxf4" ? "x64_F32E2M1E2M1_UE8M0x32" : "x64_F32E2M1E2M1_UE4M3x16");
    const rt::MmaAtomInfo* atom = nullptr;
    for (const auto& a : rt::mma_atoms())
      if (a.name == name) atom = &a;
    REQUIRE(atom != nullptr);
    REQUIRE(atom->cta_group == 2);
    REQUIRE(atom->sf_vec == vs);
    const bool sfa = field(line, "pair_sf") == "A";
    const rt::Layout& ours = sfa ? atom->tmem_sfa : atom->tmem_sfb;
    // The per-CTA extent CuTe was given is the one tessera's layout spans.
    CHECK(ours.mode(0).mode(0).size() == std::stoi(field(line, "mn")));
    const rt::Value v = rt::evaluate(field(line, "layout"));
    REQUIRE(v.kind() == rt::Value::Kind::Layout);
    const rt::Layout cute = v.layout().mode(0);  // (((mn, copy), (v, s)), 1, 1): one MMA's
    CHECK(sf_cells_differing(ours, cute, std::stoll(field(line, "dp"))) == 0);
    two_by_two += !sfa && m == 128;
    ++lines;
  }
  CHECK(lines == 50);
  CHECK(two_by_two == 10);
}

// The comparison above catches a wrong stride: the 2x2 layout with its half and copy strides
// swapped (columns N/2.. in lanes 32-63, the copy 64 lanes on) puts most cells elsewhere.
TEST_CASE("tcgen05.mma block scaling, CTA pair: a corrupted 2x2 stride differs from CuTe's") {
  using namespace tessera;
  const rt::Layout right = rt::to_runtime(UMMA::TmemLayoutSF2x2<128, 32, 2>{});
  using Swapped = Layout<tuple<tuple<tuple<tuple<_32, _2>, _2>, _2>, tuple<_32, _2>>,
                         tuple<tuple<tuple<tuple<_1, _512>, _32>, _64>, tuple<_0, _128>>>;
  const rt::Layout swapped = rt::to_runtime(Swapped{});
  // CuTe's 2x2 SFB of a 128 x 128 x 64 mxf4 pair, as tessera cells (dp 1, bytes scaled by 128).
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm100_pair_sf.jsonl");
  REQUIRE(in.good());
  for (std::string line; std::getline(in, line);)
    if (field(line, "pair_sf") == "B" && field(line, "kind") == "mxf4" && field(line, "m") == "128" &&
        field(line, "n") == "128") {
      const rt::Layout cute = rt::evaluate(field(line, "layout")).layout().mode(0);
      const std::int64_t dp = std::stoll(field(line, "dp"));
      CHECK(sf_cells_differing(right, cute, dp) == 0);
      CHECK(sf_cells_differing(swapped, cute, dp) == cute.size() / 2);
      return;
    }
  FAIL("no mxf4 128x128 SFB line in cute_sm100_pair_sf.jsonl");
}
