// Every `--cpp` line reads back: `tessera eval --cpp` and `tessera info --cpp` print
// cute_type(v) (src/cli/cute_type.cpp), and the parser reads CuTe's spellings
// (docs/notation.md), so evaluate(cute_type(v)) must be v again: the same kind and the same
// text. Enumerated here: every kind of value eval prints (integers, integer tuples, layouts,
// tilers, swizzles, Sw o off o L, L o off o Sw) over generated nested shapes and strides
// (CuTe's _N / _mN aliases, Int<N> and C<N> beyond int's range), the results of every
// function of eval on a set of operands, and every layout of every MMA and copy atom the
// CLI knows by name. CuTe's own print form (Sw<..> o _0 o (_8,_64):(_64,_1), _-1) reads
// back too.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "../../src/cli/cute_type.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/eval.hpp"

using namespace tessera;

namespace {

// A small deterministic generator (a failure names the value, so no seed is needed).
struct Lcg {
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  std::uint64_t next() { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 33; }
  std::int64_t in(std::int64_t lo, std::int64_t hi) { return lo + static_cast<std::int64_t>(next() % std::uint64_t(hi - lo + 1)); }
  template <class T> const T& pick(const std::vector<T>& v) { return v[next() % v.size()]; }
};

// Stride values: CuTe's aliases (_0.._10, _12, ..., _m32), Int<N> (no alias), C<N> (beyond int).
const std::vector<std::int64_t> kValues = {0, 1, 2, 3, 8, 10, 11, 12, 16, 24, 100, 384, 4096, 524288, 524289,
                                          2147483647, 2147483648ll, 1ll << 40, -1, -2, -9, -11, -32, -33,
                                          -2147483648ll, -2147483649ll, -(1ll << 40)};

rt::IntTuple gen_shape(Lcg& g, int depth) {
  if (depth == 0 || g.in(0, 9) < 4) return rt::IntTuple(g.pick(std::vector<std::int64_t>{1, 2, 3, 4, 8, 11, 16}));
  std::vector<rt::IntTuple> e;
  const int n = static_cast<int>(g.in(1, 3));
  for (int i = 0; i < n; ++i) e.push_back(gen_shape(g, depth - 1));
  return rt::IntTuple::tuple(std::move(e));
}
rt::IntTuple stride_like(Lcg& g, const rt::IntTuple& s) {
  if (s.is_leaf()) return rt::IntTuple(g.pick(kValues));
  std::vector<rt::IntTuple> e;
  for (std::size_t i = 0; i < s.rank(); ++i) e.push_back(stride_like(g, s[i]));
  return rt::IntTuple::tuple(std::move(e));
}
rt::Layout gen_layout(Lcg& g) {
  const rt::IntTuple s = gen_shape(g, 3);
  return rt::Layout(s, stride_like(g, s));
}
rt::Swizzle gen_swizzle(Lcg& g) {
  const int b = static_cast<int>(g.in(0, 3)), m = static_cast<int>(g.in(0, 4));
  const int s = static_cast<int>(g.in(std::max(b, 1), b + 3)) * (g.in(0, 1) ? 1 : -1);
  return rt::Swizzle{b, m, s};
}
rt::Tiler gen_tiler(Lcg& g, int depth) {
  std::vector<rt::Tiler> e;
  const int n = static_cast<int>(g.in(1, 3));
  for (int i = 0; i < n; ++i)
    e.push_back(depth > 0 && g.in(0, 3) == 0 ? gen_tiler(g, depth - 1) : rt::Tiler::of_layout(gen_layout(g)));
  return rt::Tiler::of_tuple(std::move(e));
}

int checked = 0;
void reads_back(const rt::Value& v, const std::string& where) {
  const std::string cpp = cli::cute_type(v), text = rt::to_string(v);
  INFO(where << ": " << text << " printed as " << cpp);
  rt::Value back;
  try {
    back = rt::evaluate(cpp);
  } catch (const rt::Error& e) {
    FAIL_CHECK("does not read back: " << e.what() << " (column " << e.pos() + 1 << ")");
    return;
  }
  CHECK(back.kind() == v.kind());
  CHECK(rt::to_string(back) == text);
  ++checked;
}

}  // namespace

TEST_CASE("every --cpp line reads back as the value it was printed from", "[cli][cpp]") {
  checked = 0;
  Lcg g;
  for (std::int64_t x : kValues) reads_back(rt::Value::of(rt::IntTuple(x)), "integer");
  for (std::int64_t x = -40; x <= 600; ++x) reads_back(rt::Value::of(rt::IntTuple(x)), "integer");  // every alias
  for (int i = 0; i < 400; ++i) reads_back(rt::Value::of(gen_shape(g, 3)), "integer tuple");
  for (int i = 0; i < 1500; ++i) reads_back(rt::Value::of(gen_layout(g)), "layout");
  for (int i = 0; i < 300; ++i) reads_back(rt::Value::of(gen_tiler(g, 2)), "tiler");
  for (int b = 0; b <= 4; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = -6; s <= 6; ++s)
        if ((s > 0 ? s : -s) >= b) reads_back(rt::Value::of(rt::Swizzle{b, m, s}), "swizzle");
  for (int i = 0; i < 500; ++i) {
    const rt::Swizzle sw = gen_swizzle(g);
    const std::int64_t off = g.in(0, 3) == 0 ? 0 : g.pick(kValues);
    reads_back(rt::Value::of(rt::SwizzledLayout{sw, gen_layout(g), off < 0 ? -off : off}), "swizzled layout");
    reads_back(rt::Value::of(rt::LayoutAfterSwizzle{gen_layout(g), off, sw}), "layout after a swizzle");
  }
  // Results of eval's functions (each kind of result it prints, as --cpp prints them).
  for (const char* e : {"composition((4,2):(2,1), 8:1)", "complement((2,2):(1,6), 24)", "right_inverse((4,(2,2)):(2,(1,8)))",
                        "logical_divide((8,8):(1,8), (2:1,4:1))", "zipped_product((2,2):(1,2), (3,4))",
                        "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64,3))", "tile_to_shape((8,4):(4,1), (16,8,2), (2,1,3))",
                        "right_inverse(Sw<3,3,3> o 8 o (8,64):(64,1))", "right_inverse(Sw<3,3,3> o (8,64):(64,1))",
                        "slice(Sw<3,3,3> o (8,64):(64,1), (2,_))", "upcast(Sw<3,3,3>, 32)", "shape((4,(2,3)):(1,(4,8)))",
                        "size((4,2):(1,4))", "max_common_layout((4,8):(1,4), (4,8):(1,4))", "idx2crd(5, (2,(2,2)))",
                        "get((4,(2,3)):(1,(4,8)), 1)", "flatten(((2,2),(3,4)):((1,2),(4,12)))", "(4:1,(2:2,3:1))"})
    reads_back(rt::evaluate(e), e);
  // Every layout of every atom the CLI knows by name.
  for (const auto& a : rt::mma_atoms())
    for (const rt::Layout* l : {&a.thr_id, &a.a_tv, &a.b_tv, &a.c_tv}) reads_back(rt::Value::of(*l), a.name);
  for (const auto& a : rt::copy_atoms())
    for (const rt::Layout* l : {&a.thr_id, &a.src_bits, &a.dst_bits, &a.ref_bits}) reads_back(rt::Value::of(*l), a.name);
  CHECK(checked > 3000);
}

TEST_CASE("CuTe's spellings read as tessera's notation", "[cli][cpp]") {
  const auto ev = [](const char* s) { return rt::to_string(rt::evaluate(s)); };
  // CuTe's print form (cute::print): static markers, _-N, the offset.
  CHECK(ev("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)") == "Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK(ev("(_4,_2):(_-1,_8)") == "(4,2):(-1,8)");
  CHECK(ev("(_64,_8):(_8,_1) o _-8 o Sw<3,3,3>") == "(64,8):(8,1) o -8 o Sw<3,3,3>");
  // C++ spellings: Swizzle<..> in expressions, Int<N>, C<N>, _mN, Layout<S> (column-major).
  CHECK(ev("Swizzle<3,3,3> o (8,64):(64,1)") == "Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK(ev("composition(Swizzle<2,0,3>, (4,8):(8,1))") == rt::to_string(rt::evaluate("composition(Sw<2,0,3>, (4,8):(8,1))")));
  CHECK(ev("Layout<Shape<_4, Int<11>>, Stride<_m1, C<4294967296l>>>") == "(4,11):(-1,4294967296)");
  CHECK(ev("Layout<Shape<_4,_8>>") == "(4,8):(1,4)");
  CHECK(ev("ComposedLayout<Swizzle<3,3,3>, _8, Layout<Shape<_8,_64>, Stride<_64,_1>>>") == "Sw<3,3,3> o 8 o (8,64):(64,1)");
  CHECK(ev("Tile<Layout<_4,_1>, Layout<_2,_2>>") == "(4:1,2:2)");
  CHECK(ev("size(Layout<Shape<_4,_8>,Stride<_1,_4>>)") == "32");
  // Wrong C++ spellings say what is read.
  for (const char* bad : {"Layout<Shape<_4>,Stride<_1>,_1>", "ComposedLayout<_1,_0,_1>", "Vector<_4>", "Int<>", "Shape<>",
                          "Int<4", "Layout<_4:_1>"})
    CHECK_THROWS_AS(rt::evaluate(bad), rt::Error);
}
