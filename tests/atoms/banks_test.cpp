// Bank-conflict model: known answers and generated cases against a brute-force count.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <map>
#include <set>
#include <vector>

#include "tessera/analysis/smem_banks.hpp"

using namespace tessera::analysis;

namespace {

// Brute force, written differently from the model: walk every byte each thread touches,
// group the threads into phases by byte volume (128 bytes per phase, never fewer than 32
// threads for sub-word widths), and count distinct words per bank with std::set.
struct Brute {
  int wavefronts = 0;
  int max_degree = 0;
  std::vector<std::map<int, int>> degrees;  // per phase: bank -> degree
};
Brute brute_force(const std::vector<int64_t>& addr, const std::vector<bool>& active, int width) {
  int per_phase = width >= 4 ? 128 / width : 32;
  Brute b;
  for (size_t first = 0; first < addr.size(); first += per_phase) {
    std::map<int, std::set<int64_t>> words_by_bank;
    for (size_t t = first; t < std::min(addr.size(), first + per_phase); ++t) {
      if (!active[t]) continue;
      for (int64_t byte = addr[t]; byte < addr[t] + width; ++byte)
        words_by_bank[int((byte / 4) % 32)].insert(byte / 4);
    }
    int phase_max = 0;
    std::map<int, int> deg;
    for (auto& [bank, words] : words_by_bank) {
      deg[bank] = int(words.size());
      phase_max = std::max(phase_max, int(words.size()));
    }
    b.degrees.push_back(deg);
    b.wavefronts += phase_max;
    b.max_degree = std::max(b.max_degree, phase_max);
  }
  return b;
}

// Sw<3,3,3> on an element offset: bits [6,9) xor-ed into bits [3,6).
int64_t sw333(int64_t o) { return o ^ ((o & (0b111 << 6)) >> 3); }

// ldmatrix x4 over an 8x64 fp16 row-major tile (128-byte rows): lane t gives the address
// of row t%8 of the 8x8 matrix t/8, i.e. the 16-byte chunk t/8 of row t%8.
std::vector<int64_t> ldsm_rows_8x64(bool swizzled) {
  std::vector<int64_t> a(32);
  for (int t = 0; t < 32; ++t) {
    int64_t elem = (t % 8) * 64 + (t / 8) * 8;
    a[t] = 2 * (swizzled ? sw333(elem) : elem);
  }
  return a;
}

}  // namespace

TEST_CASE("ldmatrix x4 over an 8x64 fp16 row-major tile is 8-way conflicted", "[banks]") {
  auto a = ldsm_rows_8x64(false);
  AccessReport r = analyze_ldmatrix(a.data(), 4);
  REQUIRE(r.ok());
  CHECK(r.num_phases == 4);
  CHECK(r.max_degree == 8);
  CHECK(r.wavefronts == 32);
  CHECK(r.ideal_wavefronts() == 4);
  // Phase j reads chunk j of all 8 rows: banks 4j..4j+3 hold 8 words each.
  for (int p = 0; p < 4; ++p)
    for (int bank = 0; bank < 32; ++bank)
      CHECK(r.phase[p].degree[bank] == ((bank / 4 == p) ? 8 : 0));
}

TEST_CASE("under Sw<3,3,3> the same ldmatrix x4 is conflict-free", "[banks]") {
  auto a = ldsm_rows_8x64(true);
  AccessReport r = analyze_ldmatrix(a.data(), 4);
  REQUIRE(r.ok());
  CHECK(r.conflict_free());
  CHECK(r.wavefronts == 4);
  for (int p = 0; p < 4; ++p)
    for (int bank = 0; bank < 32; ++bank) CHECK(r.phase[p].degree[bank] == 1);
}

TEST_CASE("classic 4-byte patterns", "[banks]") {
  std::vector<int64_t> a(32);
  SECTION("unit stride: conflict-free") {
    for (int t = 0; t < 32; ++t) a[t] = 4 * t;
    auto r = analyze_access(a.data(), 32, 4);
    CHECK(r.wavefronts == 1);
    CHECK(r.conflict_free());
  }
  SECTION("broadcast: all threads read one word") {
    for (int t = 0; t < 32; ++t) a[t] = 256;
    auto r = analyze_access(a.data(), 32, 4);
    CHECK(r.wavefronts == 1);
    CHECK(r.phase[0].degree[0] == 1);
  }
  SECTION("stride 2 words: 2-way") {
    for (int t = 0; t < 32; ++t) a[t] = 8 * t;
    CHECK(analyze_access(a.data(), 32, 4).wavefronts == 2);
  }
  SECTION("column of a 32x32 float tile: 32-way") {
    for (int t = 0; t < 32; ++t) a[t] = 128 * t;
    auto r = analyze_access(a.data(), 32, 4);
    CHECK(r.wavefronts == 32);
    CHECK(r.phase[0].degree[0] == 32);
  }
  SECTION("column of a 32x33 padded float tile: conflict-free") {
    for (int t = 0; t < 32; ++t) a[t] = 4 * 33 * t;
    CHECK(analyze_access(a.data(), 32, 4).conflict_free());
  }
  SECTION("2-byte accesses sharing words broadcast") {
    for (int t = 0; t < 32; ++t) a[t] = 2 * t;
    auto r = analyze_access(a.data(), 32, 2);
    CHECK(r.wavefronts == 1);
    CHECK(r.num_phases == 1);
  }
}

TEST_CASE("8- and 16-byte accesses split into phases", "[banks]") {
  std::vector<int64_t> a(32);
  for (int t = 0; t < 32; ++t) a[t] = 16 * t;
  auto r16 = analyze_access(a.data(), 32, 16);
  CHECK(r16.num_phases == 4);
  CHECK(r16.wavefronts == 4);
  CHECK(r16.conflict_free());
  for (int t = 0; t < 32; ++t) a[t] = 8 * t;
  auto r8 = analyze_access(a.data(), 32, 8);
  CHECK(r8.num_phases == 2);
  CHECK(r8.wavefronts == 2);
  // 16-byte accesses 256 bytes apart: 8 threads of a phase in the same 4 banks.
  for (int t = 0; t < 32; ++t) a[t] = 256 * t;
  auto rc = analyze_access(a.data(), 32, 16);
  CHECK(rc.max_degree == 8);
  CHECK(rc.wavefronts == 32);
}

TEST_CASE("inactive threads do not count; bad input is reported", "[banks]") {
  std::vector<int64_t> a(32, 0);
  bool active[32] = {};
  for (int t = 0; t < 32; ++t) a[t] = 128 * t;
  active[0] = active[5] = true;
  auto r = analyze_access(a.data(), 32, 4, active);
  CHECK(r.wavefronts == 2);
  CHECK(r.phase[0].active_threads == 2);

  a[3] = 6;
  auto m = analyze_access(a.data(), 32, 4);
  CHECK(m.error == BankError::misaligned);
  CHECK(m.error_thread == 3);
  CHECK(analyze_access(a.data(), 32, 3).error == BankError::bad_width);
  CHECK(analyze_access(a.data(), 33, 4).error == BankError::too_many_threads);
  a[3] = -4;
  CHECK(analyze_access(a.data(), 32, 4).error == BankError::negative_address);
  CHECK(analyze_ldmatrix(a.data(), 3).error == BankError::bad_matrix_count);
}

TEST_CASE("the model is usable in constant expressions", "[banks]") {
  constexpr auto r = [] {
    int64_t a[32] = {};
    for (int t = 0; t < 32; ++t) a[t] = 128 * t;
    return analyze_access(a, 32, 4);
  }();
  static_assert(r.wavefronts == 32);
  static_assert(!r.conflict_free());
  SUCCEED();
}

TEST_CASE("generated accesses agree with a brute-force count", "[banks][property]") {
  rc::prop("model == brute force", [] {
    const int width = *rc::gen::element(1, 2, 4, 8, 16);
    const int n = *rc::gen::inRange(1, 33);
    // Addresses drawn from a small window so collisions, broadcasts and conflicts are common.
    const int64_t window = *rc::gen::element<int64_t>(64, 256, 1024, 8192);
    std::vector<int64_t> addr(n);
    std::vector<bool> act(n);
    bool active[32] = {};
    for (int t = 0; t < n; ++t) {
      addr[t] = width * *rc::gen::inRange<int64_t>(0, window / width);
      act[t] = active[t] = *rc::gen::weightedElement<bool>({{5, true}, {1, false}});
    }
    AccessReport r = analyze_access(addr.data(), n, width, active);
    Brute b = brute_force(addr, act, width);
    RC_ASSERT(r.ok());
    RC_ASSERT(r.wavefronts == b.wavefronts);
    RC_ASSERT(r.max_degree == b.max_degree);
    RC_ASSERT(size_t(r.num_phases) == b.degrees.size());
    for (int p = 0; p < r.num_phases; ++p)
      for (int bank = 0; bank < 32; ++bank) {
        auto it = b.degrees[p].find(bank);
        RC_ASSERT(r.phase[p].degree[bank] == (it == b.degrees[p].end() ? 0 : it->second));
      }
  });
}
