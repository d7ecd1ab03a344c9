// The Hopper 8-bit wgmma atoms (m64nNk32: e4m3/e5m2 with f16/f32 accumulators, s8/u8 with
// s32) against CuTe's traits for the same names: tests/data/cute_sm90_gmma_8bit_traits.jsonl
// holds, for each of CuTe's 656 dense 8-bit atoms (SM90_64xNx32_<types>_<SS|RS>_TN, every N),
// its value types, Shape_MNK, ThrID, ALayout, BLayout and CLayout as cute::print prints them
// (integers' underscores removed), printed by a host program compiled against CUTLASS's
// include/cute (mma_traits_sm90_gmma.hpp and _ext.hpp with CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED).
// Every line must name a registered atom with exactly those traits (the registry's layouts are
// the static traits through to_runtime), and every registered 8-bit wgmma atom must have a line.
// The static side: the aliases are the templates, value types and widths as the ISA names them.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <string>

#include "tessera/atom/mma_sm90_8bit.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/layout.hpp"

using namespace tessera;

namespace {

// The value of "key": "..." in a one-line JSON object (the file has no escapes).
std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\": \"";
  const std::size_t p = line.find(k);
  if (p == std::string::npos) return "<missing " + key + ">";
  const std::size_t q = line.find('"', p + k.size());
  return line.substr(p + k.size(), q - p - k.size());
}

bool is_8bit_wgmma(const std::string& name) {
  return name.rfind("SM90_64x", 0) == 0 && name.find("x32_") != std::string::npos;
}

}  // namespace

TEST_CASE("8-bit wgmma atoms: traits equal CuTe's for every atom name") {
  std::ifstream in(TESSERA_CUTE_GMMA_8BIT_TRAITS);
  REQUIRE(in.good());
  std::set<std::string> seen;
  std::string line;
  int lines = 0, mismatches = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++lines;
    const std::string name = field(line, "atom");
    INFO(name);
    const rt::MmaAtomInfo* a = rt::find_mma(name);
    if (a == nullptr) {
      FAIL_CHECK("not registered: " << name);
      ++mismatches;
      continue;
    }
    seen.insert(name);
    const std::string shape = "(" + std::to_string(a->m) + "," + std::to_string(a->n) + "," + std::to_string(a->k) + ")";
    const bool same = a->types == field(line, "types") && shape == field(line, "shape_mnk") &&
                      rt::to_string(a->thr_id) == field(line, "thr_id") && rt::to_string(a->a_tv) == field(line, "a") &&
                      rt::to_string(a->b_tv) == field(line, "b") && rt::to_string(a->c_tv) == field(line, "c");
    if (!same) {
      ++mismatches;
      CHECK(a->types == field(line, "types"));
      CHECK(shape == field(line, "shape_mnk"));
      CHECK(rt::to_string(a->thr_id) == field(line, "thr_id"));
      CHECK(rt::to_string(a->a_tv) == field(line, "a"));
      CHECK(rt::to_string(a->b_tv) == field(line, "b"));
      CHECK(rt::to_string(a->c_tv) == field(line, "c"));
    }
    // Operands in shared memory: B always, A for SS; 8-bit elements.
    CHECK(a->b_smem);
    CHECK(a->a_smem == (name.find("_SS_") != std::string::npos));
    CHECK((a->a_bits == 8 && a->b_bits == 8));
    CHECK(a->arch == "SM90a");
  }
  CHECK(lines == 4 * 2 * 2 * 32 + 4 * 2 * 18);  // fp8: 4 type pairs x 2 accumulators x SS/RS x 32 N; int8: 4 x SS/RS x 18 N
  CHECK(mismatches == 0);
  // No registered 8-bit wgmma atom without CuTe's answer.
  int unanswered = 0;
  for (const auto& n : rt::mma_names())
    if (is_8bit_wgmma(n) && !seen.count(n)) {
      UNSCOPED_INFO("no CuTe answer for " << n);
      ++unanswered;
    }
  CHECK(unanswered == 0);
}

// Aliases with N spelled out are the templates; value types and register counts.
static_assert(std::is_same_v<SM90_64x128x32_F32E4M3E4M3_SS_TN, SM90_64xNx32_F32E4M3E4M3_SS<128>>);
static_assert(std::is_same_v<SM90_64x8x32_F16E5M2E4M3_RS_TN, SM90_64xNx32_F16E5M2E4M3_RS<8>>);
static_assert(std::is_same_v<SM90_64x48x32_S32U8S8_RS_TN, SM90_64xNx32_S32U8S8_RS<48>>);
static_assert(std::is_same_v<MMA_Traits<SM90_64x256x32_F32E4M3E5M2_SS_TN>::ValTypeA, float_e4m3_t> &&
              std::is_same_v<MMA_Traits<SM90_64x256x32_F32E4M3E5M2_SS_TN>::ValTypeB, float_e5m2_t> &&
              std::is_same_v<MMA_Traits<SM90_64x256x32_F32E4M3E5M2_SS_TN>::ValTypeD, float>);
static_assert(std::is_same_v<MMA_Traits<SM90_64x64x32_F16E4M3E4M3_SS_TN>::ValTypeC, half_t>);
static_assert(std::is_same_v<MMA_Traits<SM90_64x256x32_S32S8U8_SS_TN>::ValTypeA, int8_t> &&
              std::is_same_v<MMA_Traits<SM90_64x256x32_S32S8U8_SS_TN>::ValTypeB, uint8_t> &&
              std::is_same_v<MMA_Traits<SM90_64x256x32_S32S8U8_SS_TN>::ValTypeD, int32_t>);
// D registers: f32 and s32 one value each (N/2), f16 two per 32-bit register (N/4); A of RS
// atoms four 32-bit registers = 16 bytes (the thread's values of the 64 x 32 tile).
static_assert(sizeof(SM90_64xNx32_F32E4M3E4M3_SS<256>::DRegisters) == 128 * 4);
static_assert(sizeof(SM90_64xNx32_F16E4M3E4M3_SS<256>::DRegisters) == 64 * 4);
static_assert(sizeof(SM90_64xNx32_S32S8S8_SS<8>::DRegisters) == 4 * 4);
static_assert(sizeof(SM90_64xNx32_S32S8S8_RS<8>::ARegisters) == 16 && decltype(size<1>(GMMA::A_64x32_RS{}))::value == 16);
static_assert(sizeof_bits_v<float_e4m3_t> == 8 && sizeof_bits_v<float_e5m2_t> == 8);
static_assert(GMMA::is_wgmma_v<SM90_64xNx32_S32U8U8_RS<256>> && GMMA::is_wgmma_v<SM90_64xNx32_F16E5M2E5M2_SS<40>>);
