// The static checks of check.hpp against the runtime tier's definitions on generated
// layouts: is_compact must mean what `tessera info` prints and what the testing kit's
// IsCompact matcher checks (filter(L) is a bijection onto [0, cosize)), and
// is_injective what `tessera info` calls injective.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"
#include "runtime/algebra.hpp"
#include "runtime/to_runtime.hpp"
#include "tessera/testing/claims.hpp"
#include <algorithm>
#include <vector>

using namespace tessera;
using namespace tessera_test;

namespace {
std::vector<std::int64_t> offsets(const rt::Layout& l) {
  std::vector<std::int64_t> v;
  rt::for_each_offset(l, [&](std::int64_t o) { v.push_back(o); });
  return v;
}
// `tessera info` (src/cli/info.cpp): injective = the offsets are distinct; compact = the
// offsets of rt::filter(L) are distinct and exactly [0, cosize(filter(L))).
bool info_injective(const rt::Layout& l) {
  std::vector<std::int64_t> v = offsets(l);
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}
bool info_compact(const rt::Layout& l) {
  const rt::Layout f = rt::filter(l);
  std::vector<std::int64_t> v = offsets(f);
  std::sort(v.begin(), v.end());
  if (std::adjacent_find(v.begin(), v.end()) != v.end()) return false;
  const auto n = static_cast<std::int64_t>(v.size());
  return n == f.cosize() && (n == 0 || (v.front() == 0 && v.back() == n - 1));
}

// Layouts near the compact/not-compact boundary: modes in a random order, each either
// chained onto the extent so far (compact), a broadcast (stride 0), an alias (a stride
// inside the extent so far) or a gap (twice the extent); sizes 1..4 (size-1 modes with
// any stride), sometimes a negative stride.
template <class F> void boundary_layout(F&& f) {
  int k = *rc::gen::inRange(0, num_structures);
  int n = leaves_of(k);
  int64_t sh[3], st[3];
  for (int i = 0; i < n; ++i) sh[i] = shape_value(4);
  auto order = *rc::gen::element<int>(0, 1, 2, 3, 4, 5);
  int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int64_t cur = 1;
  for (int j = 0; j < 3; ++j) {
    int i = perms[order][j];
    if (i >= n) continue;
    switch (*rc::gen::inRange(0, 8)) {
      case 0: st[i] = 0; break;
      case 1: st[i] = *rc::gen::inRange<int64_t>(1, cur + 1); cur = std::max(cur, st[i] * sh[i]); break;
      case 2: st[i] = 2 * cur; cur = st[i] * sh[i]; break;
      case 3: st[i] = -cur; cur *= sh[i]; break;
      default: st[i] = cur; cur *= sh[i]; break;
    }
  }
  int si = 0;
  with_structure(k, [&] { return sh[si++]; }, [&](int i) { return st[i]; }, f);
}

template <class L> void agree(L const& l) {
  const rt::Layout r = rt::to_runtime(l);
  const bool compact = is_compact(l);
  RC_TAG(compact ? "compact" : "not compact");
  RC_ASSERT(compact == info_compact(r));
  RC_ASSERT(compact == testing::IsCompactClaim{}.verify(r).empty());
  RC_ASSERT(is_injective(l) == info_injective(r));
}
}  // namespace

TEST_CASE("check.hpp agrees with the runtime tier's definitions", "[core][check][tiers]") {
  rc::prop("is_compact == tessera info's compact == the kit's IsCompact; is_injective == info's injective (dynamic leaves)", [] {
    if (*rc::gen::inRange(0, 3) == 0) any_layout([](auto l) { agree(l); });
    else boundary_layout([](auto l) { agree(l); });
  });
  rc::prop("the same with static and mixed leaves", [] { mixed_layout([](auto l) { agree(l); }); });
}

TEST_CASE("is_compact: the examples of tessera info's help", "[core][check]") {
  // "(4,2):(1,0): not injective, but compact"
  auto b = make_layout(make_shape(_4{}, _2{}), make_stride(_1{}, _0{}));
  CHECK(!is_injective(b));
  CHECK(is_compact(b));
  CHECK(info_compact(rt::to_runtime(b)));
  auto a = make_layout(make_shape(2, 2), make_stride(1, 1));
  CHECK(!is_compact(a));
  CHECK(!info_compact(rt::to_runtime(a)));
}
