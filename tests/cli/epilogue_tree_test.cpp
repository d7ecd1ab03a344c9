// Epilogue trees read from text (tessera/rt/epilogue_tree.hpp) and their host check
// (src/epilogue_check/epilogue_check.hpp), on trees generated from a small random grammar: every tree
// prints as text that parses back to the same tree, and its emulation through the nodes' f32
// host ops is within the double reference's bounds on random tiles; the check fails where the
// emulated tree differs from the reference's by one op or where an input moves.
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <random>
#include <string>

#include "tessera/atom/numeric.hpp"
#include "tessera/rt/epilogue_tree.hpp"
#include "../../src/epilogue_check/epilogue_check.hpp"

namespace ep = tessera::rt::epilogue;
namespace check = tessera::epilogue_check;
using K = ep::TreeNode::Kind;

namespace {

struct Generator {
  std::mt19937_64 rng;
  int values = 0, outputs = 0;
  ep::Element c_type = ep::Element::bf16;

  int pick(int n) { return int(rng() % std::uint64_t(n)); }
  ep::Element element() {
    static const ep::Element all[] = {ep::Element::f32, ep::Element::bf16, ep::Element::f16, ep::Element::e4m3, ep::Element::e5m2};
    return all[pick(5)];
  }
  static bool is_fp8(ep::Element e) { return e == ep::Element::e4m3 || e == ep::Element::e5m2; }
  static ep::TreeNode node(K k) {
    ep::TreeNode n;
    n.kind = k;
    return n;
  }
  static ep::TreeNode compute(ep::Op op, std::vector<ep::TreeNode> c) {
    ep::TreeNode n = node(K::Compute);
    n.op = op;
    n.children = std::move(c);
    return n;
  }
  static ep::TreeNode constant(std::int64_t num, std::int64_t den) {
    const std::int64_t g = std::gcd(num, den);
    ep::TreeNode n = node(K::Constant);
    n.num = num / g;
    n.den = den / g;
    return n;
  }
  // x kept inside an FP8 type's range (as the menu's FP8 output clamps)
  static ep::TreeNode within_fp8(ep::TreeNode x) { return compute(ep::Op::clamp, {std::move(x), constant(-400, 1), constant(400, 1)}); }

  ep::TreeNode leaf() {
    switch (pick(6)) {
      case 0: return node(K::Accumulator);
      case 1: {
        static const std::int64_t dens[] = {1, 2, 4, 5, 8, 10};
        return constant(std::int64_t(pick(17)) - 8, dens[pick(6)]);
      }
      case 2: {
        ep::TreeNode n = node(K::Scalar);
        n.pointer = pick(2) == 0;
        n.name = n.pointer ? (pick(2) ? "scale_a" : "scale_d") : (pick(2) ? "alpha" : "beta");
        return n;
      }
      case 3: {
        ep::TreeNode n = node(K::RowBroadcast);
        n.name = pick(2) ? "bias" : "vn";
        n.element = n.name == "bias" ? ep::Element::bf16 : ep::Element::f32;
        return n;
      }
      case 4: {
        ep::TreeNode n = node(K::ColumnBroadcast);
        n.name = pick(2) ? "sm" : "cm";
        n.element = n.name == "cm" ? ep::Element::f16 : ep::Element::f32;
        return n;
      }
      default: {
        ep::TreeNode n = node(K::SourceC);
        n.element = c_type;
        return n;
      }
    }
  }
  ep::TreeNode expr(int depth) {
    if (depth <= 0 || pick(5) == 0) return leaf();
    static const ep::Op ops[] = {ep::Op::plus,     ep::Op::multiplies, ep::Op::multiply_add, ep::Op::maximum, ep::Op::minimum,
                                 ep::Op::absolute, ep::Op::clamp,      ep::Op::relu,         ep::Op::gelu,    ep::Op::gelu_tanh,
                                 ep::Op::silu,     ep::Op::convert};
    const ep::Op op = ops[pick(12)];
    const int arity = op == ep::Op::multiply_add || op == ep::Op::clamp       ? 3
                      : op == ep::Op::plus || op == ep::Op::multiplies || op == ep::Op::maximum || op == ep::Op::minimum ? 2
                                                                                                                         : 1;
    std::vector<ep::TreeNode> c;
    for (int i = 0; i < arity; ++i) c.push_back(sunk(sunk(expr(depth - 1))));  // (a named value's sinks around another's)
    ep::TreeNode n = compute(op, std::move(c));
    if (op == ep::Op::convert) {
      n.element = element();
      if (is_fp8(n.element)) n.children[0] = within_fp8(std::move(n.children[0]));
    }
    return n;
  }
  // x, now and then under sinks: an aux store or a reduction of a named value (x kept inside
  // an FP8 type's range where an aux store rounds to one)
  ep::TreeNode sunk(ep::TreeNode x, const std::string& value = "") {
    if (pick(5) != 0) return x;
    const std::string v = value.empty() ? "v" + std::to_string(values++) : value;
    std::vector<ep::TreeNode> sinks;
    bool fp8 = false;
    for (int k = 1 + pick(2); k > 0; --k) {
      ep::TreeNode s = node(pick(2) ? K::AuxStore : K::Reduction);
      s.value = v;
      s.name = "o" + std::to_string(outputs++);
      if (s.kind == K::AuxStore) {
        s.element = element();
        fp8 = fp8 || is_fp8(s.element);
      } else {
        s.reduce = ep::Reduce(pick(3));
        s.along = ep::Along(pick(3));
      }
      sinks.push_back(std::move(s));
    }
    if (fp8) x = within_fp8(std::move(x));
    for (ep::TreeNode& s : sinks) {
      s.children = {std::move(x)};
      x = std::move(s);
    }
    return x;
  }
  ep::Tree tree() {
    values = outputs = 0;
    c_type = pick(2) ? ep::Element::bf16 : ep::Element::f32;
    ep::Tree t;
    t.output = element();
    ep::TreeNode root = expr(2 + pick(4));
    if (is_fp8(t.output)) root = within_fp8(std::move(root));
    t.root = sunk(sunk(std::move(root)), "D");
    return t;
  }
};

bool passes(const std::vector<check::OutputCheck>& c) {
  for (const auto& o : c)
    if (!o.pass) return false;
  return !c.empty();
}

}  // namespace

TEST_CASE("generated epilogue trees print as text that parses back to them", "[epilogue]") {
  Generator g{std::mt19937_64(12345)};
  for (int i = 0; i < 2000; ++i) {
    const ep::Tree t = g.tree();
    const std::string text = ep::to_text(t);
    INFO(text);
    ep::Tree back;
    REQUIRE_NOTHROW(back = ep::parse_tree(text));
    CHECK(back == t);
    CHECK(ep::to_text(back) == text);
    CHECK(ep::cpp_type(back.root) == ep::cpp_type(t.root));
  }
}

TEST_CASE("the emulation through the nodes' host ops is within the double reference's bounds", "[epilogue]") {
  Generator g{std::mt19937_64(777)};
  for (int i = 0; i < 2000; ++i) {
    const ep::Tree t = g.tree();
    INFO(ep::to_text(t));
    const std::int64_t m = 1 + g.pick(9), n = 1 + g.pick(9);
    const check::Inputs in = check::generate_inputs(t, m, n, std::uint64_t(i));
    const auto emulated = check::emulate(t, in);
    const auto expected = check::reference(t, in);
    REQUIRE(emulated.size() == expected.size());
    const auto c = check::compare(emulated, expected);
    for (const auto& o : c) {
      INFO(o.name << " " << o.kind << " " << o.type << ": error " << o.max_error << ", ratio " << o.worst_ratio);
      CHECK(o.pass);
    }
  }
}

TEST_CASE("the check fails where the emulated tree is not the reference's", "[epilogue]") {
  const ep::Tree silu = ep::parse_tree("D = store(bf16, silu(acc * alpha + bias[n])); a = amax(D)");
  const ep::Tree gelu = ep::parse_tree("D = store(bf16, gelu(acc * alpha + bias[n])); a = amax(D)");
  const check::Inputs in = check::generate_inputs(silu, 16, 24, 1);
  CHECK(passes(check::compare(check::emulate(silu, in), check::reference(silu, in))));
  const auto c = check::compare(check::emulate(silu, in), check::reference(gelu, in));
  REQUIRE(c.size() == 2);
  CHECK_FALSE(c[0].pass);  // D
  CHECK(c[0].worst_ratio > 1);

  // one accumulator moved by a thousandth: an f32 D's bound (a few ulp) sees it
  const ep::Tree f32 = ep::parse_tree("store(f32, acc * alpha + bias[n])");
  check::Inputs moved = check::generate_inputs(f32, 8, 8, 3);
  const auto expected = check::reference(f32, moved);
  CHECK(passes(check::compare(check::emulate(f32, moved), expected)));
  moved.acc[5] += 1e-3f;
  CHECK_FALSE(passes(check::compare(check::emulate(f32, moved), expected)));
}

TEST_CASE("inputs are generated per operand: a name read twice reads the same values", "[epilogue]") {
  const ep::Tree t = ep::parse_tree("store(f32, bias[n] + -1 * bias[n] + s[m]:bf16)");
  const check::Inputs in = check::generate_inputs(t, 5, 7, 9);
  REQUIRE(in.vectors.at("bias").size() == 7);
  REQUIRE(in.vectors.at("s").size() == 5);
  for (float x : in.vectors.at("s")) CHECK(tessera::bfloat16_t::from_float(x).to_float() == x);  // exactly bf16 values
  const auto d = check::emulate(t, in)[0];
  for (std::int64_t j = 0; j < 7; ++j)
    for (std::int64_t i = 0; i < 5; ++i) CHECK(d.values[std::size_t(j * 5 + i)] == in.vectors.at("s")[std::size_t(i)]);
}
