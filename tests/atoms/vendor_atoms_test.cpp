// The atoms beyond SM80/SM90/SM100: Ada's FP8 mma.sync (SM89), SM120's FP8/FP6/FP4 and
// block-scaled mma.sync, AMD's MFMA (CDNA3, 64-lane wavefronts) and WMMA (RDNA3/4), Intel's
// DPAS (Xe-HPC, Xe-HPG). For each family:
//  - every element of the A (MxK), B (NxK) and C (MxN) tiles is held exactly once (or, RDNA3's A
//    and B, exactly twice: the documented duplicate half-wave), and nothing outside them;
//  - each element sits at the lane and register item the vendor's document gives, written
//    below as the document states it (element -> lane, item), independently of the layouts;
//  - a few cells written out by hand from those tables, and for AMD every element as AMD's
//    Matrix Instruction Calculator prints it (tests/data/amd_matrix_layouts.jsonl);
//  - the trait text equals CuTe's where CuTe has the atom (SM89, SM120: every atom against
//    tests/data/cute_sm89_sm120_traits.jsonl, printed by a program compiled against CuTe; DPAS:
//    Intel's fork sycl-tla, as it prints, and its definitions evaluated by tessera's algebra for
//    every repeat count);
// and the registry lists them with their vendor, arch and wavefront size, and a drawing of an
// MFMA atom has 64 distinct lanes and no warp boundary between lanes 31 and 32.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "isa_reference.hpp"
#include "tessera/atom/mma_amd.hpp"
#include "tessera/atom/mma_intel.hpp"
#include "tessera/atom/mma_sm120.hpp"
#include "tessera/atom/mma_sm89.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/viz/atom_diagrams.hpp"

namespace {

using tessera::rt::Layout;
using tessera::rt::MmaAtomInfo;

const MmaAtomInfo& atom(const std::string& name) {
  const MmaAtomInfo* a = tessera::rt::find_mma(name);
  INFO(name);
  REQUIRE(a != nullptr);
  return *a;
}

// "key": "value" or "key": number of a one-line JSON object (no escapes occur in the data).
std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\": ";
  const std::size_t p = line.find(k);
  if (p == std::string::npos) return "";
  const std::size_t b = p + k.size();
  if (line[b] == '"') return line.substr(b + 1, line.find('"', b + 1) - b - 1);
  return line.substr(b, line.find_first_of(",}", b) - b);
}
// (thread, value) of a TV layout -> its index (the thread mode first, colexicographic).
std::int64_t at(const Layout& tv, std::int64_t t, std::int64_t v) { return tv(t + tv.mode(0).size() * v); }

// How often each index 0..tile-1 is hit; an index outside the tile fails here.
std::vector<int> hits(const Layout& tv, std::int64_t tile) {
  std::vector<int> h(std::size_t(tile), 0);
  for (std::int64_t t = 0; t < tv.mode(0).size(); ++t)
    for (std::int64_t v = 0; v < tv.mode(1).size(); ++v) {
      const std::int64_t i = at(tv, t, v);
      INFO("(t,v) = (" << t << "," << v << ") -> " << i << ", tile " << tile);
      REQUIRE((i >= 0 && i < tile));
      ++h[std::size_t(i)];
    }
  return h;
}
void require_hit(const Layout& tv, std::int64_t tile, int times) {
  for (int h : hits(tv, tile)) REQUIRE(h == times);
}

// The document's table as a function: element (row, col) of the operand's matrix (A: m,k;
// B: k,n; C: m,n) -> the lanes and item holding it.
struct Where {
  std::vector<int> lanes;
  int item;
};
using Table = std::function<Where(int row, int col)>;
enum class Operand { A, B, C };

// Every element of the operand at the document's (lane, item): the TV layout sends that pair to
// the element's index (A: m + M*k, B: n + N*k, C: m + M*n). Lanes are ThrID's identity here.
void check_table(const MmaAtomInfo& a, Operand op, const Table& table) {
  const Layout& tv = op == Operand::A ? a.a_tv : op == Operand::B ? a.b_tv : a.c_tv;
  const std::int64_t rows = op == Operand::A ? a.m : op == Operand::B ? a.k : a.m;
  const std::int64_t cols = op == Operand::A ? a.k : a.n;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const Where w = table(r, c);
      const std::int64_t index = op == Operand::A ? r + a.m * c : op == Operand::B ? c + a.n * r : r + a.m * c;
      for (int lane : w.lanes) {
        INFO(a.name << " " << "ABC"[int(op)] << "[" << r << "][" << c << "]: lane " << lane << " item " << w.item);
        REQUIRE(at(tv, lane, w.item) == index);
      }
    }
}

}  // namespace

// ------------------------------------------------------------------ SM89 FP8 mma.sync
TEST_CASE("SM89 FP8 mma.sync: the 8-bit m16n8k32 fragments of the PTX ISA, CuTe's traits") {
  using namespace tessera;
  // The layouts are the s8 m16n8k32 ones (PTX ISA: one figure for .s8/.u8/.e4m3/.e5m2).
  static_assert(std::is_same_v<MMA_Traits<SM89_16x8x32_F32E4M3E5M2F32_TN>::ALayout,
                               MMA_Traits<SM80_16x8x32_S32S8S8S32_TN>::ALayout>);
  static_assert(std::is_same_v<MMA_Traits<SM89_16x8x32_F16E5M2E5M2F16_TN>::BLayout,
                               MMA_Traits<SM80_16x8x32_S32S8S8S32_TN>::BLayout>);
  static_assert(std::is_same_v<MMA_Traits<SM89_16x8x32_F16E5M2E5M2F16_TN>::ValTypeC, half_t>);
  static_assert(std::is_same_v<MMA_Traits<SM89_16x8x32_F32E5M2E4M3F32_TN>::ValTypeA, float_e5m2_t>);
  int n = 0;
  for (const MmaAtomInfo& a : rt::mma_atoms()) {
    if (a.arch != "SM89") continue;
    ++n;
    INFO(a.name);
    CHECK(a.vendor == "nvidia");
    CHECK(a.wave_size == 32);
    // CuTe's MMA_Traits<SM89_16x8x32_F32E4M3E4M3F32_TN> (cute/atom/mma_traits_sm89.hpp).
    CHECK(rt::to_string(a.thr_id) == "32:1");
    CHECK(rt::to_string(a.a_tv) == "((4,8),(4,2,2)):((64,1),(16,8,256))");
    CHECK(rt::to_string(a.b_tv) == "((4,8),(4,2)):((32,1),(8,128))");
    CHECK(rt::to_string(a.c_tv) == "((4,8),(2,2)):((32,1),(16,8))");
    require_hit(a.a_tv, 16 * 32, 1);
    require_hit(a.b_tv, 8 * 32, 1);
    require_hit(a.c_tv, 16 * 8, 1);
    for (int lane = 0; lane < 32; ++lane) {
      for (int i = 0; i < 16; ++i) {
        const isa::RC rc = isa::m16n8k32_s8_A(lane, i);
        REQUIRE(at(a.a_tv, lane, i) == rc.row + 16 * rc.col);
      }
      for (int i = 0; i < 8; ++i) {
        const isa::RC rc = isa::m16n8k32_s8_B(lane, i);
        REQUIRE(at(a.b_tv, lane, i) == rc.col + 8 * rc.row);
      }
      for (int i = 0; i < 4; ++i) {
        const isa::RC rc = isa::m16n8_C(lane, i);
        REQUIRE(at(a.c_tv, lane, i) == rc.row + 16 * rc.col);
      }
    }
  }
  CHECK(n == 8);  // e4m3/e5m2 x e4m3/e5m2, f32 and f16 accumulators
}

// ------------------------------------------------------------------ SM120
namespace {
// PTX ISA, "Matrix Fragments for mma.m16n8k64" (4-bit types; .kind::mxf4nvf4's .e2m1): A a_i at
// row groupID (+8 for 8 <= i%16 < 16), col threadID_in_group*8 + i%8 (+32 for i >= 16); B b_i at
// row (k) threadID_in_group*8 + i%8 (+32 for i >= 8), col groupID.
isa::RC m16n8k64_f4_A(int lane, int i) {
  return {isa::group_id(lane) + ((i % 16) >= 8 ? 8 : 0), isa::thread_in_group(lane) * 8 + i % 8 + (i >= 16 ? 32 : 0)};
}
isa::RC m16n8k64_f4_B(int lane, int i) {
  return {isa::thread_in_group(lane) * 8 + i % 8 + (i >= 8 ? 32 : 0), isa::group_id(lane)};
}
}  // namespace

TEST_CASE("SM120 mma.sync: f8f6f4 fragments, m16n8k64 e2m1 fragments, scale factors as CuTe's") {
  using namespace tessera;
  std::map<std::string, int> kinds;
  for (const MmaAtomInfo& a : rt::mma_atoms()) {
    if (a.arch != "SM120a") continue;
    INFO(a.name);
    CHECK(a.vendor == "nvidia");
    CHECK(rt::to_string(a.thr_id) == "32:1");
    CHECK(rt::to_string(a.c_tv) == "((4,8),(2,2)):((32,1),(16,8))");
    require_hit(a.a_tv, a.m * a.k, 1);
    require_hit(a.b_tv, a.n * a.k, 1);
    require_hit(a.c_tv, a.m * a.n, 1);
    if (a.k == 32) {
      // CuTe: MMA_Traits<SM120_16x8x32_TN<...>> : MMA_Traits<SM80_16x8x32_S32S8S8S32_TN>.
      CHECK(rt::to_string(a.a_tv) == "((4,8),(4,2,2)):((64,1),(16,8,256))");
      CHECK(rt::to_string(a.b_tv) == "((4,8),(4,2)):((32,1),(8,128))");
    } else {
      REQUIRE(a.k == 64);
      // CuTe: MMA_Traits<SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<...>> (cute/atom/mma_traits_sm120.hpp).
      CHECK(rt::to_string(a.a_tv) == "((4,8),(8,2,2)):((128,1),(16,8,512))");
      CHECK(rt::to_string(a.b_tv) == "((4,8),(8,2)):((64,1),(8,256))");
      for (int lane = 0; lane < 32; ++lane) {
        for (int i = 0; i < 32; ++i) {
          const isa::RC rc = m16n8k64_f4_A(lane, i);
          REQUIRE(at(a.a_tv, lane, i) == rc.row + 16 * rc.col);
        }
        for (int i = 0; i < 16; ++i) {
          const isa::RC rc = m16n8k64_f4_B(lane, i);
          REQUIRE(at(a.b_tv, lane, i) == rc.col + 8 * rc.row);
        }
      }
    }
    if (a.sf_vec == 0) {
      ++kinds["f8f6f4"];
      continue;
    }
    ++kinds[a.k == 32 ? "mxf8f6f4" : "mxf4nvf4"];
    // CuTe's SFALayout / SFBLayout for K = 32 and 64.
    const std::string K = std::to_string(a.k);
    CHECK(rt::to_string(a.sfa_tv) == "((2,2,8)," + K + "):((8,0,1),16)");
    CHECK(rt::to_string(a.sfb_tv) == "((4,8)," + K + "):((0,1),8)");
    CHECK((a.sf_vec == 16 || a.sf_vec == 32));
    CHECK((a.sf_type == "ue8m0" || (a.sf_type == "ue4m3" && a.sf_vec == 16)));
    // Every (m,k) of A's scale matrix is held by two lanes (the ISA's selector-0 lanes of a
    // quad, t = 0 and 1, and their stride-0 copies t = 2 and 3), every (n,k) of B's by four.
    require_hit(a.sfa_tv, a.m * a.k, 2);
    require_hit(a.sfb_tv, a.n * a.k, 4);
    // Row m's factors sit in lane 4*(m%8) + m/8 (PTX ISA: thread-id-a 0), and column n's in
    // lanes 4n..4n+3; the value index runs over K.
    for (int m = 0; m < 16; ++m)
      for (int k = 0; k < a.k; ++k) CHECK(at(a.sfa_tv, 4 * (m % 8) + m / 8, k) == m + 16 * k);
    for (int n = 0; n < 8; ++n)
      for (int t = 0; t < 4; ++t) CHECK(at(a.sfb_tv, 4 * n + t, 5) == n + 8 * 5);
  }
  // 5 x 5 operand types for .kind::f8f6f4 (f32 and f16 accumulators) and .kind::mxf8f6f4 (f32);
  // e2m1 with ue8m0 x32, ue8m0 x16 and ue4m3 x16 for .kind::mxf4nvf4 (CuTe's cute/arch/mma_sm120.hpp).
  CHECK(kinds["f8f6f4"] == 50);
  CHECK(kinds["mxf8f6f4"] == 25);
  CHECK(kinds["mxf4nvf4"] == 3);
  CHECK(atom("SM120_16x8x32_TN_E2M1E3M2F32").types == "D=f32 A=e2m1 B=e3m2 C=f32");
  CHECK(atom("SM120_16x8x32_TN_E2M1E3M2F32").a_bits == 4);
  CHECK(atom("SM120_16x8x64_TN_VS_E2M1E2M1F32_UE4M3x16").sf_type == "ue4m3");
  CHECK(atom("SM120_16x8x32_TN_E5M2E2M3F16").types == "D=f16 A=e5m2 B=e2m3 C=f16");
}

// Every SM89 and SM120 atom's traits as CuTe prints them (tests/data/cute_sm89_sm120_traits.jsonl,
// printed by a program compiled against CuTe: tools/cute_reference/sm89_sm120_atoms.py); the
// registry and the vectors list the same atoms, in the same order.
TEST_CASE("SM89 and SM120 atoms: ThrID, A/B/C and scale-factor layouts are CuTe's") {
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../cute_sm89_sm120_traits.jsonl");
  REQUIRE(in.good());
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const MmaAtomInfo& a = atom(field(line, "atom"));
    names.push_back(a.name);
    INFO(a.name);
    CHECK(tessera::rt::to_string(a.thr_id) == field(line, "ThrID"));
    CHECK(tessera::rt::to_string(a.a_tv) == field(line, "ALayout"));
    CHECK(tessera::rt::to_string(a.b_tv) == field(line, "BLayout"));
    CHECK(tessera::rt::to_string(a.c_tv) == field(line, "CLayout"));
    const std::string vs = field(line, "SFVecSize");
    CHECK(a.sf_vec == (vs.empty() ? 0 : std::stoi(vs)));
    if (a.sf_vec) {
      CHECK(tessera::rt::to_string(a.sfa_tv) == field(line, "SFALayout"));
      CHECK(tessera::rt::to_string(a.sfb_tv) == field(line, "SFBLayout"));
    }
  }
  std::vector<std::string> listed;
  for (const MmaAtomInfo& a : tessera::rt::mma_atoms())
    if (a.arch == "SM89" || a.arch == "SM120a") listed.push_back(a.name);
  CHECK(listed == names);
  CHECK(names.size() == 8 + 78);
}

// ------------------------------------------------------------------ AMD
namespace {
// AMD Matrix Instruction Calculator, --architecture cdna3 --detail-instruction, one block:
// v_mfma_*_32x32xK: A[i][k] lane i + 32*(k/V), item k%V; B[k][j] lane j + 32*(k/V), item k%V;
// D[i][j] lane j + 32*((i/4)%2), item 4*(i/8) + i%4. v_mfma_*_16x16xK: A[i][k] lane
// i + 16*(k/V), item k%V; B[k][j] lane j + 16*(k/V); D[i][j] lane j + 16*(i/4), item i%4.
Table mfma_ab(int mn, int v, bool b) {
  return [=](int r, int c) {
    const int row = b ? c : r, k = b ? r : c;  // A[i][k] / B[k][j]
    return Where{{row + mn * (k / v)}, k % v};
  };
}
Table mfma_d(int mn) {
  if (mn == 32) return [](int i, int j) { return Where{{j + 32 * ((i / 4) % 2)}, 4 * (i / 8) + i % 4}; };
  return [](int i, int j) { return Where{{j + 16 * (i / 4)}, i % 4}; };
}
// RDNA3 ISA 7.9 / GPUOpen's WMMA article: A[i][k] lanes i and i+16, item k; B[k][j] lanes j,
// j+16, item k; D[i][j] lane j + 16*(i%2), item i/2.
// RDNA4 ISA 7.9: 16-bit A[i][k] lane i + 16*((k/4)%2), item k%4 + 4*(k/8); 8-bit A[i][k] lane
// i + 16*(k/8), item k%8; B[k][j] the same with j; D[i][j] lane j + 16*(i/8), item i%8.
Where rdna4_ab(int row, int k, int bits) {
  if (bits == 16) return Where{{row + 16 * ((k / 4) % 2)}, k % 4 + 4 * (k / 8)};
  return Where{{row + 16 * (k / 8)}, k % 8};
}

// One register reference of the calculator, v<register>{<lane>} or v<register>{<lane>}.[hi:lo].
struct Reg {
  int reg = 0, lane = 0, lo = 0;
  friend bool operator<(const Reg& a, const Reg& b) { return std::pair(a.reg, a.lo) < std::pair(b.reg, b.lo); }
};
Reg parse_reg(const std::string& t) {
  INFO("register text '" << t << "'");
  REQUIRE((t.size() > 3 && t[0] == 'v'));
  Reg r;
  const std::size_t brace = t.find('{'), close = t.find('}');
  REQUIRE((brace != std::string::npos && close != std::string::npos));
  r.reg = std::stoi(t.substr(1, brace - 1));
  r.lane = std::stoi(t.substr(brace + 1, close - brace - 1));
  const std::size_t colon = t.find(':', close);
  if (colon != std::string::npos) r.lo = std::stoi(t.substr(colon + 1, t.find(']', colon) - colon - 1));
  return r;
}
}  // namespace

TEST_CASE("AMD CDNA3 MFMA: 64-lane wavefronts, the calculator's element positions") {
  using namespace tessera;
  int n = 0;
  for (const MmaAtomInfo& a : rt::mma_atoms()) {
    if (a.arch != "gfx942") continue;
    ++n;
    INFO(a.name);
    CHECK(a.vendor == "amd");
    CHECK(a.wave_size == 64);
    CHECK(rt::to_string(a.thr_id) == "64:1");
    CHECK(a.instruction.rfind("v_mfma_", 0) == 0);
    require_hit(a.a_tv, a.m * a.k, 1);
    require_hit(a.b_tv, a.n * a.k, 1);
    require_hit(a.c_tv, a.m * a.n, 1);
    const int v = int(a.a_tv.mode(1).size());
    CHECK(v * 64 == a.m * a.k);  // every lane of the 64 holds the same number of A values
    check_table(a, Operand::A, mfma_ab(int(a.m), v, false));
    check_table(a, Operand::B, mfma_ab(int(a.n), v, true));
    check_table(a, Operand::C, mfma_d(int(a.m)));
  }
  CHECK(n == 16);  // f32, f16, bf16, i8 and four fp8/bf8 pairings, 32x32 and 16x16 each
  // Cells written out by hand from the calculator's formulas.
  const MmaAtomInfo& f16 = atom("AMD_CDNA3_MFMA_32x32x8_F32F16F16F32");
  CHECK(f16.instruction == "v_mfma_f32_32x32x8_f16");
  CHECK(at(f16.a_tv, 33, 2) == 1 + 32 * 6);      // A[1][6]: lane 33, item 2
  CHECK(at(f16.b_tv, 5, 3) == 5 + 32 * 3);       // B[3][5]: lane 5, item 3
  CHECK(at(f16.c_tv, 40, 5) == 13 + 32 * 8);     // D[13][8]: lane 40, item 5
  CHECK(at(f16.c_tv, 63, 15) == 31 + 32 * 31);   // D[31][31]: lane 63, item 15
  const MmaAtomInfo& i8 = atom("AMD_CDNA3_MFMA_16x16x32_S32S8S8S32");
  CHECK(at(i8.a_tv, 50, 7) == 2 + 16 * 31);      // A[2][31]: lane 2 + 16*3, item 7
  CHECK(at(i8.c_tv, 50, 1) == 13 + 16 * 2);      // D[13][2]: lane 2 + 16*3, item 1
  const MmaAtomInfo& f32 = atom("AMD_CDNA3_MFMA_16x16x4_F32F32F32F32");
  CHECK(at(f32.a_tv, 47, 0) == 15 + 16 * 2);     // A[15][2]: lane 47, item 0
}

TEST_CASE("AMD RDNA3/RDNA4 WMMA: 32-lane wavefronts, RDNA3's duplicated half-wave") {
  using namespace tessera;
  int n3 = 0, n4 = 0;
  for (const MmaAtomInfo& a : rt::mma_atoms()) {
    if (a.arch != "gfx1100" && a.arch != "gfx1200") continue;
    INFO(a.name);
    CHECK(a.vendor == "amd");
    CHECK(a.wave_size == 32);
    CHECK(rt::to_string(a.thr_id) == "32:1");
    CHECK((a.m == 16 && a.n == 16 && a.k == 16));
    require_hit(a.c_tv, 256, 1);
    if (a.arch == "gfx1100") {
      ++n3;
      require_hit(a.a_tv, 256, 2);  // lanes 16-31 repeat lanes 0-15
      require_hit(a.b_tv, 256, 2);
      check_table(a, Operand::A, [](int i, int k) { return Where{{i, i + 16}, k}; });
      check_table(a, Operand::B, [](int k, int j) { return Where{{j, j + 16}, k}; });
      check_table(a, Operand::C, [](int i, int j) { return Where{{j + 16 * (i % 2)}, i / 2}; });
    } else {
      ++n4;
      require_hit(a.a_tv, 256, 1);
      require_hit(a.b_tv, 256, 1);
      const int bits = a.a_bits;
      check_table(a, Operand::A, [bits](int i, int k) { return rdna4_ab(i, k, bits); });
      check_table(a, Operand::B, [bits](int k, int j) { return rdna4_ab(j, k, bits); });
      check_table(a, Operand::C, [](int i, int j) { return Where{{j + 16 * (i / 8)}, i % 8}; });
    }
  }
  CHECK(n3 == 4);
  CHECK(n4 == 8);
  const MmaAtomInfo& r3 = atom("AMD_RDNA3_WMMA_16x16x16_F32F16F16F32");
  CHECK(at(r3.a_tv, 21, 9) == 5 + 16 * 9);   // A[5][9]: lane 21 (= 5 + 16), item 9
  CHECK(at(r3.c_tv, 20, 3) == 7 + 16 * 4);   // D[7][4]: lane 4 + 16, item 3
  const MmaAtomInfo& r4 = atom("AMD_RDNA4_WMMA_16x16x16_F32F16F16F32");
  CHECK(at(r4.a_tv, 5, 5) == 5 + 16 * 9);    // A[5][9] = v2{5}.[31:16]: lane 5, item 5
  CHECK(at(r4.a_tv, 21, 2) == 5 + 16 * 6);   // A[5][6] = v1{21}.[15:0]: lane 21, item 2
  CHECK(at(r4.c_tv, 20, 1) == 9 + 16 * 4);   // D[9][4] = v1{20}: lane 20, item 1
  const MmaAtomInfo& r4i8 = atom("AMD_RDNA4_WMMA_16x16x16_S32S8S8S32");
  CHECK(at(r4i8.a_tv, 21, 1) == 5 + 16 * 9);  // A[5][9] = v0{21}.[15:8]: lane 21, item 1
}

// Every element of every AMD atom where AMD's Matrix Instruction Calculator puts it
// (tests/data/amd_matrix_layouts.jsonl, printed by tools/amd_reference/matrix_layouts.py from the
// calculator's --register-layout tables): an element in register r of lane l, bits from lo, is
// value i of lane l in the TV layout, i its rank among the (register, lo) pairs lane l holds.
TEST_CASE("AMD atoms: every element where AMD's Matrix Instruction Calculator puts it") {
  std::ifstream in(TESSERA_CONFORMANCE_DIR "/../amd_matrix_layouts.jsonl");
  REQUIRE(in.good());
  std::set<std::string> seen;
  int lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    ++lines;
    const MmaAtomInfo& a = atom(field(line, "atom"));
    seen.insert(a.name);
    CHECK(a.instruction == field(line, "instruction"));
    const char op = field(line, "operand")[0];
    INFO(a.name << " operand " << op);
    const Layout& tv = op == 'A' ? a.a_tv : op == 'B' ? a.b_tv : a.c_tv;
    const int rows = std::stoi(field(line, "rows")), cols = std::stoi(field(line, "cols"));
    // The calculator's tables: A[M][K], B[K][N], D[M][N].
    REQUIRE(rows == (op == 'B' ? a.k : a.m));
    REQUIRE(cols == (op == 'A' ? a.k : a.n));
    std::vector<std::vector<Reg>> cells;
    std::map<int, std::set<Reg>> held;  // lane -> its (register, lo) pairs
    std::istringstream words(field(line, "cells"));
    for (std::string cell; words >> cell;) {
      cells.emplace_back();
      for (std::size_t b = 0, e; b <= cell.size(); b = e + 1) {
        e = std::min(cell.find('|', b), cell.size());
        const Reg r = parse_reg(cell.substr(b, e - b));
        cells.back().push_back(r);
        held[r.lane].insert(r);
      }
    }
    REQUIRE(cells.size() == std::size_t(rows * cols));
    CHECK(held.size() == std::size_t(tv.mode(0).size()));  // every lane holds some element
    for (const auto& [lane, regs] : held) CHECK(regs.size() == std::size_t(tv.mode(1).size()));
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const std::int64_t index = op == 'B' ? c + a.n * r : r + a.m * c;
        for (const Reg& reg : cells[std::size_t(r * cols + c)]) {
          const auto& regs = held[reg.lane];
          const std::int64_t item = std::distance(regs.begin(), regs.find(reg));
          INFO("[" << r << "][" << c << "] = v" << reg.reg << "{" << reg.lane << "}, bits from " << reg.lo << ": item "
                   << item);
          REQUIRE(at(tv, reg.lane, item) == index);
        }
      }
  }
  CHECK(lines == 3 * 28);
  std::size_t amd = 0;
  for (const MmaAtomInfo& a : tessera::rt::mma_atoms()) amd += a.vendor == "amd";
  CHECK(seen.size() == amd);
}

// ------------------------------------------------------------------ Intel
TEST_CASE("Intel Xe DPAS: subgroups of 16 (Xe-HPC) and 8 (Xe-HPG), repeat counts 1-8") {
  using namespace tessera;
  static_assert(MMA_Traits<INTEL_XE_HPC_DPAS_F32BF16BF16F32<8>>::wave_size == 16 &&
                MMA_Traits<INTEL_XE_HPG_DPAS_S32S8S8S32<4>>::wave_size == 8);
  // Intel's CuTe fork (intel/sycl-tla), MMA_Traits<XE_DPAS_TT<8, float, bfloat16_t, bfloat16_t,
  // float>> and <8, int32_t, int8_t, int8_t, int32_t>, as its print writes them.
  const MmaAtomInfo& bf16 = atom("INTEL_XE_HPC_DPAS_8x16x16_F32BF16BF16F32");
  CHECK(rt::to_string(bf16.thr_id) == "16:1");
  CHECK(rt::to_string(bf16.a_tv) == "(16,8):(8,1)");
  CHECK(rt::to_string(bf16.b_tv) == "((2,8),(2,8)):((16,1),(8,32))");
  CHECK(rt::to_string(bf16.c_tv) == "(16,8):(8,1)");
  const MmaAtomInfo& s8 = atom("INTEL_XE_HPC_DPAS_8x16x32_S32S8S8S32");
  CHECK(rt::to_string(s8.a_tv) == "(16,(2,8)):(8,(128,1))");
  CHECK(rt::to_string(s8.b_tv) == "((4,4),(4,8)):((16,1),(4,64))");
  std::map<std::string, int> per_arch;
  for (const MmaAtomInfo& a : rt::mma_atoms()) {
    if (a.vendor != "intel") continue;
    ++per_arch[a.arch];
    INFO(a.name);
    const int sg = a.arch == "xe-hpc" ? 16 : 8;
    const int bv = 32 / a.a_bits, K = int(a.k), M = int(a.m), N = int(a.n);
    CHECK(a.wave_size == sg);
    CHECK(N == sg);                          // N = the execution size
    CHECK(K == 8 * 32 / a.a_bits);           // systolic depth 8 of 32-bit dwords
    CHECK((M >= 1 && M <= 8));               // repeat count
    CHECK(a.instruction == "dpas.8x" + std::to_string(M));
    require_hit(a.a_tv, a.m * a.k, 1);
    require_hit(a.b_tv, a.n * a.k, 1);
    require_hit(a.c_tv, a.m * a.n, 1);
    // The ISA's operand formats in the SIMT view of the registers: element v of work-item t is
    // element v*SG + t of the block; A and C row-major, B in VNNI form (BV of K per dword).
    auto simt = [sg](int p) { return Where{{p % sg}, p / sg}; };
    check_table(a, Operand::A, [&](int m, int k) { return simt(m * K + k); });
    check_table(a, Operand::B, [&](int k, int n) { return simt((k / bv) * N * bv + n * bv + k % bv); });
    check_table(a, Operand::C, [&](int m, int n) { return simt(m * N + n); });
    // sycl-tla's definitions (wi_interleave of the row-major A, of the VNNI B), evaluated by
    // tessera's CuTe algebra, with the subgroup size SG for its 16.
    const std::string SG = std::to_string(sg), RC = std::to_string(M), Ks = std::to_string(K);
    const std::string interleave = "(" + SG + ",(1,";
    const std::string a_def = "coalesce(composition((" + Ks + "," + RC + "):(" + RC + ",1), " + interleave +
                              std::to_string(K * M / sg) + ")):(1,(1," + SG + "))), (1,1))";
    const std::string b_def = "coalesce(composition((" + std::to_string(bv) + "," + SG + "," + std::to_string(K / bv) +
                              "):(" + SG + ",1," + std::to_string(sg * bv) + "), " + interleave + Ks + ")):(1,(1," + SG +
                              "))), (1,1))";
    CHECK(rt::to_string(a.a_tv) == rt::to_string(rt::evaluate(a_def).layout()));
    CHECK(rt::to_string(a.b_tv) == rt::to_string(rt::evaluate(b_def).layout()));
    CHECK(rt::to_string(a.c_tv) == "(" + SG + "," + RC + "):(" + RC + ",1)");
  }
  CHECK(per_arch["xe-hpc"] == 24);  // bf16, f16, s8 x repeat counts 1-8
  CHECK(per_arch["xe-hpg"] == 24);
  // Cells written out by hand: Xe-HPG s8, RC 8: A[6][14] at 6*32 + 14 = 206 = 25*8 + 6:
  // work-item 6, element 25; B[13][5] at (13/4)*32 + 5*4 + 1 = 117 = 14*8 + 5: work-item 5, element 14.
  const MmaAtomInfo& hpg = atom("INTEL_XE_HPG_DPAS_8x8x32_S32S8S8S32");
  CHECK(at(hpg.a_tv, 6, 25) == 6 + 8 * 14);
  CHECK(at(hpg.b_tv, 5, 14) == 5 + 8 * 13);
}

// ------------------------------------------------------------------ registry and drawing
TEST_CASE("registry: vendors and wavefront sizes of every atom") {
  std::map<std::string, int> vendors;
  for (const MmaAtomInfo& a : tessera::rt::mma_atoms()) {
    ++vendors[a.vendor];
    INFO(a.name);
    CHECK(a.thr_id.size() <= a.wave_size * 4);  // at most a warpgroup (SM90) or one wavefront
    if (a.vendor == "amd") CHECK(a.name.rfind("AMD_", 0) == 0);
    if (a.vendor == "intel") CHECK(a.name.rfind("INTEL_", 0) == 0);
    if (a.vendor == "nvidia") CHECK(a.wave_size == 32);
  }
  CHECK(vendors["amd"] == 28);
  CHECK(vendors["intel"] == 48);
  CHECK(vendors["any"] == 1);
}

TEST_CASE("an MFMA atom is drawn over 64 lanes of one wavefront") {
  using namespace tessera;
  const MmaAtomInfo& a = atom("AMD_CDNA3_MFMA_16x16x16_F32F16F16F32");
  const rt::TiledMma t = rt::make_tiled_mma(a, rt::parse_atom_layout("1x1x1"));
  const viz::Diagram d = viz::mma_diagram(viz::mma_tv_layouts(t, a.name));
  std::set<std::int64_t> lanes, warps;
  for (const viz::Panel& p : d.panels)
    for (const viz::Cell& c : p.cells)
      if (c.present && c.thread != viz::Cell::kNone) {
        lanes.insert(c.thread);
        warps.insert(c.warp());
      }
  CHECK(lanes.size() == 64);
  CHECK(*lanes.rbegin() == 63);
  CHECK(warps == std::set<std::int64_t>{0});  // one wavefront: no boundary at lane 32
  CHECK(d.warp_lanes() == 64);
  // Two atoms along M: two wavefronts, lanes 64-127 the second, and a boundary between them.
  const rt::TiledMma t2 = rt::make_tiled_mma(a, rt::parse_atom_layout("2x1x1"));
  const viz::Diagram d2 = viz::mma_diagram(viz::mma_tv_layouts(t2, a.name));
  std::set<std::int64_t> warps2;
  for (const viz::Panel& p : d2.panels)
    for (const viz::Cell& c : p.cells)
      if (c.present && c.thread != viz::Cell::kNone) warps2.insert(c.warp());
  CHECK(warps2 == std::set<std::int64_t>{0, 1});
  bool boundary_line = false;
  for (const std::string& line : d2.legend.lines)
    boundary_line = boundary_line || line.find("threads 64w to 64w+63") != std::string::npos;
  CHECK(boundary_line);
}
