// Maps and traces for the verifier's tests: real TV maps (SM80 MMA fragments) and
// rapidcheck generators of valid maps, traces and names.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "tessera/rt/int_tuple.hpp"
#include "tessera/rt/layout.hpp"
#include "tessera/verify/trace.hpp"

namespace verify_fixtures {

namespace rt = tessera::rt;
namespace tv = tessera::verify;
using IT = rt::IntTuple;
// T({a, b}): a tuple; T(n): an integer.
inline IT T(std::initializer_list<IT> e) { return IT::tuple(e); }
inline IT T(std::int64_t v) { return IT(v); }

// SM80 16x8x16 (and 16x8x8) C fragment: 32 threads x 4 values over the 16x8 tile.
inline tv::Map sm80_c() {
  return tv::make_map("mma.C", T({16, 8}), rt::Layout(T({T({4, 8}), T({2, 2})}), T({T({32, 1}), T({16, 8})})));
}
// SM80 16x8x16 A fragment: 32 threads x 8 values over the 16x16 (M,K) tile.
inline tv::Map sm80_a() {
  return tv::make_map("mma.A", T({16, 16}),
                      rt::Layout(T({T({4, 8}), T({2, 2, 2})}), T({T({32, 1}), T({16, 8, 128})})));
}
// SM80 16x8x16 B fragment: 32 threads x 4 values over the 8x16 (N,K) tile.
inline tv::Map sm80_b() {
  return tv::make_map("mma.B", T({8, 16}), rt::Layout(T({T({4, 8}), T({2, 2})}), T({T({16, 1}), T({8, 64})})));
}

// A valid map with a random TV layout: thread and value modes of one or two leaves,
// non-negative strides, and a tile (M,N) (M sometimes hierarchical) covering its cosize.
inline rc::Gen<tv::Map> gen_map(std::string name) {
  return rc::gen::exec([name] {
    auto mode = [] {
      const int leaves = *rc::gen::inRange(1, 3);
      std::vector<IT> s, d;
      for (int i = 0; i < leaves; ++i) {
        s.push_back(T(*rc::gen::inRange<std::int64_t>(1, 7)));
        d.push_back(T(*rc::gen::inRange<std::int64_t>(0, 13)));
      }
      return leaves == 1 ? std::pair{s[0], d[0]} : std::pair{IT::tuple(s), IT::tuple(d)};
    };
    auto [ts, td] = mode();
    auto [vs, vd] = mode();
    rt::Layout l(T({ts, vs}), T({td, vd}));
    const std::int64_t cosize = l.cosize();
    const std::int64_t m = *rc::gen::inRange<std::int64_t>(1, 9);
    const std::int64_t n = (cosize + m - 1) / m + *rc::gen::inRange<std::int64_t>(0, 2);
    const IT rows = (m % 2 == 0 && *rc::gen::arbitrary<bool>()) ? T({T(2), T(m / 2)}) : T(m);
    return tv::make_map(name, T({rows, T(n)}), l);
  });
}

// A real map or a generated one.
inline rc::Gen<tv::Map> gen_any_map(std::string name) {
  return rc::gen::exec([name] {
    switch (*rc::gen::element(0, 1, 2, 3, 4, 5)) {
      case 0: { tv::Map m = sm80_c(); m.name = name; return m; }
      case 1: { tv::Map m = sm80_a(); m.name = name; return m; }
      case 2: { tv::Map m = sm80_b(); m.name = name; return m; }
      default: return *gen_map(name);
    }
  });
}

// Names as the format holds them: no whitespace, no control bytes.
inline rc::Gen<std::string> gen_name() {
  static const std::string chars = "abcmnAZ019._->[]#/:";
  return rc::gen::exec([] {
    const int n = *rc::gen::inRange(1, 9);
    std::string s;
    for (int i = 0; i < n; ++i) s += chars[static_cast<std::size_t>(*rc::gen::inRange<int>(0, int(chars.size())))];
    return s;
  });
}

}  // namespace verify_fixtures
