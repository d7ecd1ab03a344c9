// The static checks of check.hpp against the runtime tier's definitions on generated
// layouts: is_compact must mean what `tessera info` prints and what the testing kit's
// IsCompact matcher checks (filter(L) is a bijection onto [0, cosize)), and
// is_injective what `tessera info` calls injective; what the runtime tier composes is
// admissible here.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>
#include "gen.hpp"
#include "tessera/rt/algebra.hpp"
#include "tessera/rt/to_runtime.hpp"
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
  int64_t cur = 1;
  in_random_order(n, [&](int i) {
    switch (*rc::gen::inRange(0, 8)) {
      case 0: st[i] = 0; break;
      case 1: st[i] = *rc::gen::inRange<int64_t>(1, cur + 1); cur = std::max(cur, st[i] * sh[i]); break;
      case 2: st[i] = 2 * cur; cur = st[i] * sh[i]; break;
      case 3: st[i] = -cur; cur *= sh[i]; break;
      default: st[i] = cur; cur *= sh[i]; break;
    }
  });
  int si = 0;
  with_structure(k, [&] { return sh[si++]; }, [&](int i) { return st[i]; }, f);
}

// No size-1 leaf (unless it is the only one) and no neighbours with s_k * d_k == d_{k+1}.
template <class L> bool coalesced_by_value(L const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  std::vector<std::int64_t> s, d;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((s.push_back(std::int64_t(get<I>(fs))), d.push_back(std::int64_t(get<I>(fd)))), ...);
  }(seq_of<decltype(fs)>{});
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s.size() > 1 && s[k] == 1) return false;
    if (k + 1 < s.size() && s[k] * d[k] == d[k + 1]) return false;
  }
  return true;
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

TEST_CASE("is_admissible_composition against the runtime tier's composition rules", "[core][check][tiers][composition]") {
  // The runtime tier (what `tessera eval` runs) rejects a composition unless CuTe's
  // stride and shape divisibility rules hold and R(i) == A(B(i)) at every index of B (A
  // read past its size as CuTe reads it), the rule is_admissible_composition checks, so
  // everything it accepts must be admissible here, with the same function. The runtime tier treats its
  // integers as static and coalesces A by value first; the static tier cannot merge
  // dynamic modes (neither can CuTe), so with dynamic leaves an A with mergeable
  // neighbours, e.g. ((4,2),1):((2,8),3) o 2:6, is composed unmerged and may be
  // inadmissible here (is_admissible_composition then says so). Compared: A already
  // coalesced by value.
  rc::prop("rt::composition accepts => is_admissible_composition and the same R(i) (A coalesced)", [] {
    any_layout([](auto A) {
      auto with_b = [&](auto B) {
        rt::Layout rr;
        try {
          rr = rt::composition(rt::to_runtime(A), rt::to_runtime(B));
        } catch (const rt::Error&) {
          RC_TAG("runtime rejects");
          return;
        }
        if (!coalesced_by_value(A)) {
          RC_TAG("runtime accepts, A not coalesced");
          return;
        }
        RC_TAG("runtime accepts");
        RC_ASSERT(is_admissible_composition(A, B));
        auto R = composition(A, B);
        RC_ASSERT(rr.size() == std::int64_t(size(R)));
        for (std::int64_t i = 0; i < rr.size(); ++i)
          if (std::int64_t(B(i)) < std::int64_t(size(A))) RC_ASSERT(rr(i) == std::int64_t(R(i)));
      };
      if (*rc::gen::arbitrary<bool>()) any_layout(with_b);
      else admissible_for(A, with_b);
    });
  });
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
