// Epilogue trees (tessera/kernels/epilogue_tree.hpp) on the host: each node's defining result
// against a direct FP64 computation over generated accumulators and coordinates, the example
// tree of docs/gemm_epilogue.md over every tile of residue problems (broadcasts read the right
// coordinate, the aux store writes exactly the problem's elements, reductions equal the max
// and sum of the elements they saw), the fixed menu's trees bit-equal to the menu's formula,
// and the argument checks with the node they name.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "tessera/atom/mma_sm90.hpp"
#include "tessera/kernels/epilogue_tree.hpp"
#include "tessera/kernels/epilogue_tree/fragment.hpp"
#include "tessera/tiled_mma.hpp"

using namespace tessera;
using namespace tessera::kernels;
using namespace tessera::kernels::tree;

namespace {

std::vector<float> randoms(std::mt19937& g, std::size_t n, float lo = -2.0f, float hi = 2.0f) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(g);
  return v;
}
template <class T>
std::vector<T> rounded(std::vector<float> const& v) {
  std::vector<T> r;
  for (float x : v) r.push_back(T::from_float(x));
  return r;
}
// An accumulator value of (m, n, l) that differs for every element.
float acc_of(std::int64_t m, std::int64_t n, std::int64_t l) { return float(std::sin(0.37 * double(m) + 1.91 * double(n) + 0.53 * double(l)) * 3.0); }

// A node's value at one element, in a frame of that element alone (a fresh state: begin_tile,
// visit, end_tile).
template <class Node>
float value_at(typename Node::Params const& p, TreeCoord const& c, float acc) {
  const TileFrame<1, 1> f = element_frame(TreeShape{c.m + 1, c.n + 1, c.l + 1}, c);
  typename Node::template State<1, 1> state{};
  Node::begin_tile(p, state, f);
  const float x = Node::visit(p, state, c, acc);
  Node::end_tile(p, state, f);
  return x;
}

template <class Tree>
typename Tree::Params params_of(TreeShape const& s, typename Tree::Arguments const& a) {
  const GemmResult r = tree::can_implement<Tree>(s, a);
  INFO(r.message);
  REQUIRE(bool(r));
  REQUIRE(Tree::workspace_size(s, a) == 0);
  return Tree::to_underlying_arguments(s, a, nullptr);
}

// The worked example: D = relu(alpha acc s_m[m] s_n[n] + bias[n]), z (the pre-activation)
// stored in bf16, r[n] = max over m of D, amax = max |D|.
using Z = Compute<plus, Compute<multiplies, Compute<multiplies, Compute<multiplies, Scalar<>, Accumulator>, ColumnBroadcast<float>>,
                                RowBroadcast<float>>,
                  RowBroadcast<bfloat16_t>>;
using Example = ScalarReduction<absolute_maximum, RowReduction<maximum_value, Compute<relu, AuxStore<bfloat16_t, Z>>>>;

}  // namespace

TEST_CASE("leaves read their operand at the element's coordinate") {
  std::mt19937 g(7);
  const TreeShape s{13, 9, 3};
  const std::int64_t vbs = 17;  // vectors per batch, 17 apart (past the length)
  const auto rv = randoms(g, std::size_t(vbs * s.l)), cv = randoms(g, std::size_t(vbs * s.l)), sv = randoms(g, 3);
  const auto rb = rounded<bfloat16_t>(rv);
  const auto cb = rounded<half_t>(cv);
  const std::int64_t ldc = 16;
  const auto c = randoms(g, std::size_t(ldc * s.n * s.l));
  const auto row = params_of<RowBroadcast<bfloat16_t>>(s, {rb.data(), vbs});
  const auto col = params_of<ColumnBroadcast<half_t>>(s, {cb.data(), vbs});
  const auto shared_row = params_of<RowBroadcast<bfloat16_t>>(s, {rb.data(), 0});
  const auto scalar_value = params_of<Scalar<>>(s, {2.5f});
  const auto scalar_ptr = params_of<Scalar<>>(s, {2.5f, sv.data(), 1});
  const auto c_col = params_of<SourceC<float>>(s, {c.data(), 1, ldc, ldc * s.n});
  const auto c_row = params_of<SourceC<float>>(s, {c.data(), s.n, 1, s.m * s.n});
  for (std::int64_t l = 0; l < s.l; ++l)
    for (std::int64_t n = 0; n < s.n; ++n)
      for (std::int64_t m = 0; m < s.m; ++m) {
        const TreeCoord x{m, n, l};
        const float a = acc_of(m, n, l);
        CHECK(value_at<Accumulator>({}, x, a) == a);
        CHECK(value_at<Constant<448>>({}, x, a) == 448.0f);
        CHECK(value_at<Constant<-1, 4>>({}, x, a) == -0.25f);
        CHECK(value_at<RowBroadcast<bfloat16_t>>(row, x, a) == rb[std::size_t(l * vbs + n)].to_float());
        CHECK(value_at<RowBroadcast<bfloat16_t>>(shared_row, x, a) == rb[std::size_t(n)].to_float());
        CHECK(value_at<ColumnBroadcast<half_t>>(col, x, a) == cb[std::size_t(l * vbs + m)].to_float());
        CHECK(value_at<Scalar<>>(scalar_value, x, a) == 2.5f);
        CHECK(value_at<Scalar<>>(scalar_ptr, x, a) == sv[std::size_t(l)]);
        CHECK(value_at<SourceC<float>>(c_col, x, a) == c[std::size_t(l * ldc * s.n + m + n * ldc)]);
        CHECK(value_at<SourceC<float>>(c_row, x, a) == c[std::size_t(l * s.m * s.n + m * s.n + n)]);
      }
}

// A register-only tree (an epilogue evaluates it at every value of a fragment and drops the
// values past M or N by a select) reads no memory at an element: past the problem its
// broadcasts give the 0 begin_tile left at their slots, never the element after the vector's end.
TEST_CASE("register-only trees: which ones, and their value past the problem reads nothing") {
  static_assert(registers_only_v<Accumulator> && registers_only_v<Constant<448>> && registers_only_v<Scalar<>> &&
                registers_only_v<Scalar<float>> && registers_only_v<RowBroadcast<bfloat16_t>> && registers_only_v<ColumnBroadcast<half_t>>);
  static_assert(registers_only_v<BiasActivation<bfloat16_t, RowBroadcast<bfloat16_t>, Activation::GELU>> &&
                registers_only_v<BiasActivation<bfloat16_t, ColumnBroadcast<float>, Activation::SiLU>> && registers_only_v<Z>);
  // a load per element, a store, a reduction, anywhere in the tree: not register-only
  static_assert(!registers_only_v<SourceC<float>> && !registers_only_v<LinearCombination<bfloat16_t>> &&
                !registers_only_v<LinearCombinationBias<bfloat16_t, RowBroadcast<bfloat16_t>, Activation::GELU>> &&
                !registers_only_v<AuxStore<bfloat16_t, Accumulator>> && !registers_only_v<Compute<relu, AuxStore<bfloat16_t, Z>>> &&
                !registers_only_v<Example> && !registers_only_v<QuantizedOutputAmax<float_e4m3_t>>);
  using Tree = Compute<activation_op<Activation::GELU>,
                       Compute<multiply_add, Scalar<>, Accumulator, Compute<plus, RowBroadcast<bfloat16_t>, ColumnBroadcast<float>>>>;
  static_assert(registers_only_v<Tree>);
  const TreeShape s{3, 5, 1};
  // each vector followed by a NaN: a read past its end would show
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<bfloat16_t> row{bfloat16_t::from_float(0.5f), bfloat16_t::from_float(-1.0f), bfloat16_t::from_float(0.25f),
                                    bfloat16_t::from_float(2.0f), bfloat16_t::from_float(-0.75f), bfloat16_t::from_float(nan)};
  const std::vector<float> col{1.5f, -0.5f, 0.125f, nan};
  const auto p = params_of<Tree>(s, {{{1.25f}, {}, {{row.data(), 0}, {col.data(), 0}}}});
  // a 2 x 2 frame at the problem's corner (2, 4): row slot 1 (m = 3) and column slot 1 (n = 5) past it
  TileFrame<2, 2> f;
  f.m0 = 2;
  f.n0 = 4;
  f.dm[1] = 1;
  f.dn[1] = 1;
  f.resid_m = s.m - f.m0;
  f.resid_n = s.n - f.n0;
  Tree::State<2, 2> state{};
  Tree::begin_tile(p, state, f);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const TreeCoord at{f.m(i), f.n(j), 0, i, j, f.dm[i], f.dn[j]};
      const float a = acc_of(at.m, at.n, 0);
      const float x = Tree::visit(p, state, at, a);
      // the slots past the problem hold 0: the value is the tree's with that term 0
      const float r = i == 0 ? col[2] : 0.0f, c = j == 0 ? row[4].to_float() : 0.0f;
      INFO("slot (" << i << ", " << j << ")");
      CHECK(x == epilogue::gelu(1.25f * a + (c + r)));
      if (i == 0 && j == 0) CHECK(x == value_at<Tree>(p, at, a));
    }
  Tree::end_tile(p, state, f);
}

TEST_CASE("compute nodes apply their op to their children's values") {
  std::mt19937 g(11);
  const TreeShape s{4, 4, 1};
  const auto xs = randoms(g, 200, -6.0f, 6.0f);
  using Lo = Constant<-1>;
  using Hi = Constant<3, 2>;
  for (float x : xs) {
    const TreeCoord at{1, 2, 0};
    const double d = x;
    CHECK(value_at<Compute<plus, Accumulator, Constant<3>>>({}, at, x) == float(d + 3.0));
    CHECK(value_at<Compute<multiplies, Accumulator, Accumulator>>({}, at, x) == float(d * d));
    CHECK(value_at<Compute<multiply_add, Accumulator, Constant<2>, Constant<1>>>({}, at, x) == float(2.0 * d + 1.0));
    CHECK(value_at<Compute<relu, Accumulator>>({}, at, x) == float(d < 0 ? 0.0 : d));
    CHECK(value_at<Compute<absolute, Accumulator>>({}, at, x) == float(std::fabs(d)));
    CHECK(value_at<Compute<clamp, Accumulator, Lo, Hi>>({}, at, x) == float(std::fmin(std::fmax(d, -1.0), 1.5)));
    CHECK(value_at<Compute<maximum, Accumulator, Constant<0>>>({}, at, x) == float(std::fmax(d, 0.0)));
    CHECK(value_at<Compute<minimum, Accumulator, Constant<0>>>({}, at, x) == float(std::fmin(d, 0.0)));
    CHECK(value_at<Compute<gelu_tanh, Accumulator>>({}, at, x) ==
          Approx(0.5 * d * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (d + 0.044715 * d * d * d)))).margin(1e-5));
    CHECK(value_at<Compute<silu, Accumulator>>({}, at, x) == Approx(d / (1.0 + std::exp(-d))).margin(1e-5));
    CHECK(value_at<Compute<gelu, Accumulator>>({}, at, x) == Approx(0.5 * d * (1.0 + std::erf(d / std::sqrt(2.0)))).margin(1e-5));
    CHECK(value_at<Compute<convert<bfloat16_t>, Accumulator>>({}, at, x) == bfloat16_t::from_float(x).to_float());
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(maximum{}(nan, 1.0f)));
  CHECK(std::isnan(maximum{}(1.0f, nan)));
  CHECK(std::isnan(clamp{}(nan, 0.0f, 1.0f)));
  CHECK(std::isnan(value_at<Compute<relu, Accumulator>>({}, {}, nan)));
}

TEST_CASE("the fixed menu's trees compute the menu's formula, bit for bit") {
  std::mt19937 g(5);
  const TreeShape s{8, 6, 2};
  const auto cf = randoms(g, std::size_t(s.m * s.n * s.l));
  const auto c = rounded<bfloat16_t>(cf);
  const auto bias = rounded<bfloat16_t>(randoms(g, std::size_t(s.n)));
  const auto biasm = rounded<bfloat16_t>(randoms(g, std::size_t(s.m)));
  const float alpha = 1.25f, beta = -0.75f;
  using LC = LinearCombination<bfloat16_t>;
  const auto lc = params_of<LC>(s, linear_combination_arguments(alpha, beta, c.data(), 1, s.m, s.m * s.n));
  using LCB = LinearCombinationBias<bfloat16_t, RowBroadcast<bfloat16_t>, Activation::GELUTanh>;
  const auto lcb = params_of<LCB>(s, {{linear_combination_arguments(alpha, beta, c.data(), 1, s.m, s.m * s.n), {bias.data()}}});
  using BA = BiasActivation<bfloat16_t, ColumnBroadcast<bfloat16_t>, Activation::SiLU>;
  const auto ba = params_of<BA>(s, {{{alpha}, {}, {biasm.data()}}});
  for (std::int64_t l = 0; l < s.l; ++l)
    for (std::int64_t n = 0; n < s.n; ++n)
      for (std::int64_t m = 0; m < s.m; ++m) {
        const float a = acc_of(m, n, l), cv = c[std::size_t(m + s.m * n + s.m * s.n * l)].to_float();
        const TreeCoord x{m, n, l};
        CHECK(value_at<LC>(lc, x, a) == epilogue::value<Activation::Identity>(alpha, a, beta, cv, 0.0f));
        CHECK(value_at<LCB>(lcb, x, a) == epilogue::value<Activation::GELUTanh>(alpha, a, beta, cv, bias[std::size_t(n)].to_float()));
        CHECK(value_at<BA>(ba, x, a) == epilogue::silu(alpha * a + biasm[std::size_t(m)].to_float()));
      }
}

TEST_CASE("the example tree over every tile of residue problems, against FP64") {
  std::mt19937 g(3);
  struct Case {
    TreeShape s;
    std::int64_t bm, bn;
  };
  for (const Case k : {Case{{37, 29, 1}, 16, 8}, Case{{64, 24, 3}, 16, 8}, Case{{5, 70, 2}, 8, 32}}) {
    const TreeShape s = k.s;
    INFO("M N L " << s.m << " " << s.n << " " << s.l << ", tile " << k.bm << " x " << k.bn);
    const float alpha = 0.75f;
    const auto sm = randoms(g, std::size_t(s.m), 0.5f, 1.5f), sn = randoms(g, std::size_t(s.n * s.l), 0.5f, 1.5f);
    const auto bias = rounded<bfloat16_t>(randoms(g, std::size_t(s.n)));
    // the aux tensor column-major with ld > M, every element poisoned: only the problem's
    // elements may change
    const std::int64_t ld = s.m + 3, bs = ld * s.n + 5;
    const bfloat16_t poison = bfloat16_t::from_bits(0x7fc1);
    std::vector<bfloat16_t> aux(std::size_t(bs * s.l), poison);
    std::vector<float> rowmax(std::size_t(s.n * s.l), -std::numeric_limits<float>::infinity());
    float amax = 0.0f;
    Example::Arguments a{&amax, 0,
                         {rowmax.data(), s.n,
                          {{aux.data(), 1, ld, bs, {{{{{alpha}, {}}, {sm.data()}}, {sn.data(), s.n}}, {bias.data()}}}}}};
    const auto p = params_of<Example>(s, a);
    std::vector<float> d(std::size_t(s.m * s.n * s.l), std::numeric_limits<float>::quiet_NaN());
    std::vector<int> visits(d.size(), 0);
    const std::int64_t tiles_m = (s.m + k.bm - 1) / k.bm, tiles_n = (s.n + k.bn - 1) / k.bn;
    for (std::int64_t l = 0; l < s.l; ++l)
      for (std::int64_t tm = 0; tm < tiles_m; ++tm)
        for (std::int64_t tn = 0; tn < tiles_n; ++tn)
          evaluate_tile<Example>(
              p, s, tm, tn, l, k.bm, k.bn, [&](std::int64_t m, std::int64_t n) { return acc_of(m, n, l); },
              [&](std::int64_t m, std::int64_t n, float v) {
                const std::size_t i = std::size_t(m + s.m * n + s.m * s.n * l);
                d[i] = v;
                ++visits[i];
              });
    double amax_ref = 0.0;
    for (std::int64_t l = 0; l < s.l; ++l)
      for (std::int64_t n = 0; n < s.n; ++n) {
        double colmax = -INFINITY;
        for (std::int64_t m = 0; m < s.m; ++m) {
          const std::size_t i = std::size_t(m + s.m * n + s.m * s.n * l);
          REQUIRE(visits[i] == 1);
          const double z = double(alpha) * acc_of(m, n, l) * sm[std::size_t(m)] * sn[std::size_t(n + s.n * l)] +
                           double(bias[std::size_t(n)].to_float());
          const double want = z < 0 ? 0.0 : z;
          CHECK(std::fabs(d[i] - want) <= 1e-5 * (1.0 + std::fabs(want)));
          // the aux store holds z rounded to bf16: within half a bf16 ulp of FP64's z (plus f32's error)
          const float stored = aux[std::size_t(m + ld * n + bs * l)].to_float();
          CHECK(std::fabs(stored - z) <= std::ldexp(std::fabs(z), -8) + 1e-5);
          colmax = std::fmax(colmax, double(d[i]));
          amax_ref = std::fmax(amax_ref, std::fabs(double(d[i])));
        }
        // reductions: exactly the max of the values D got
        CHECK(rowmax[std::size_t(n + s.n * l)] == float(colmax));
      }
    CHECK(amax == float(amax_ref));
    // nothing outside the problem's elements was written: the padding rows and batch gaps
    for (std::int64_t l = 0; l < s.l; ++l)
      for (std::int64_t off = 0; off < bs; ++off) {
        const bool element = off < ld * s.n && off % ld < s.m;
        if (!element) CHECK(aux[std::size_t(l * bs + off)].bits == poison.bits);
      }
  }
}

TEST_CASE("reductions combine into what their output holds") {
  const TreeShape s{3, 2, 1};
  using Sum = ScalarReduction<tree::sum, Accumulator>;
  using AbsMax = ColumnReduction<absolute_maximum, Accumulator>;
  float total = 10.0f;
  std::vector<float> am{5.0f, 0.0f, 0.0f};
  const auto ps = params_of<Sum>(s, {&total});
  const auto pa = params_of<AbsMax>(s, {am.data()});
  double want = 10.0;
  Sum::State<1, 1> partial{};  // a scalar reduction's: combined at the tile's end
  const TileFrame<1, 1> frame = element_frame(s, {0, 0, 0});
  Sum::begin_tile(ps, partial, frame);
  for (std::int64_t n = 0; n < s.n; ++n)
    for (std::int64_t m = 0; m < s.m; ++m) {
      const float v = float(m) - 1.5f * float(n);
      CHECK(Sum::visit(ps, partial, {m, n, 0}, v) == v);  // a sink passes its child's value on
      CHECK(value_at<AbsMax>(pa, {m, n, 0}, v) == v);
      want += v;
    }
  CHECK(total == 10.0f);
  Sum::end_tile(ps, partial, frame);
  CHECK(total == float(want));
  CHECK(am == std::vector<float>{5.0f, 1.0f, 2.0f});  // max |m - 1.5 n| over n; row 0 kept the running 5
  // NaN wins absolute_maximum; maximum_value propagates it
  float r = 1.0f;
  absolute_maximum::combine(&r, absolute_maximum::element(std::numeric_limits<float>::quiet_NaN()));
  absolute_maximum::combine(&r, absolute_maximum::element(-std::numeric_limits<float>::infinity()));
  CHECK(std::isnan(r));
  CHECK(std::isnan(absolute_maximum::of(absolute_maximum::element(-std::numeric_limits<float>::quiet_NaN()), 3.0f)));
  CHECK(absolute_maximum::of(absolute_maximum::element(-4.0f), 3.0f) == 4.0f);
  float mx = -std::numeric_limits<float>::infinity();
  maximum_value::combine(&mx, -3.0f);
  CHECK(mx == -3.0f);
  maximum_value::combine(&mx, std::numeric_limits<float>::quiet_NaN());
  maximum_value::combine(&mx, 7.0f);
  CHECK(std::isnan(mx));
}

TEST_CASE("argument checks name the node and the reason") {
  const TreeShape s{64, 32, 2};
  std::vector<float> v(4096);
  alignas(16) unsigned char bytes[64] = {};
  auto* misaligned = reinterpret_cast<float*>(bytes + 2);
  auto refusal = [&](auto tree_tag, auto const& args, GemmStatus status, const char* where, const char* what) {
    using Tree = typename decltype(tree_tag)::type;
    const GemmResult r = tree::can_implement<Tree>(s, args);
    INFO(r.message);
    CHECK(r.status == status);
    CHECK(r.message.find(where) != std::string::npos);
    CHECK(r.message.find(what) != std::string::npos);
  };
  using Tree = Compute<plus, Compute<multiplies, Accumulator, ColumnBroadcast<float>>, RowBroadcast<float>>;
  struct Tag {
    using type = Tree;
  };
  refusal(Tag{}, Tree::Arguments{{{}, {nullptr}}, {v.data()}}, GemmStatus::NullPointer, "root.0.1 (ColumnBroadcast)",
          "null pointer for a vector of M = 64 f32 elements");
  refusal(Tag{}, Tree::Arguments{{{}, {v.data()}}, {nullptr}}, GemmStatus::NullPointer, "root.1 (RowBroadcast)", "N = 32");
  refusal(Tag{}, Tree::Arguments{{{}, {v.data()}}, {misaligned}}, GemmStatus::Misaligned, "root.1 (RowBroadcast)",
          "not aligned to its element type f32 (4 bytes)");
  refusal(Tag{}, Tree::Arguments{{{}, {v.data(), -1}}, {v.data()}}, GemmStatus::InvalidBatchStride, "root.0.1", "batch_stride -1 < 0");
  refusal(Tag{}, Tree::Arguments{{{}, {v.data(), std::numeric_limits<std::int64_t>::max() - 10}}, {v.data()}}, GemmStatus::Overflow, "root.0.1",
          "does not fit in 64 bits");
  CHECK(bool(tree::can_implement<Tree>(s, Tree::Arguments{{{}, {v.data()}}, {v.data()}})));
  // scalars: a pointer is optional, but checked where set
  struct ScalarTag {
    using type = Scalar<>;
  };
  CHECK(bool(tree::can_implement<Scalar<>>(s, {1.0f})));
  refusal(ScalarTag{}, Scalar<>::Arguments{1.0f, misaligned}, GemmStatus::Misaligned, "root (Scalar)", "not aligned");
  // matrices: C and the aux store
  struct CTag {
    using type = SourceC<half_t>;
  };
  refusal(CTag{}, SourceC<half_t>::Arguments{nullptr, 1, 64, 0}, GemmStatus::NullPointer, "root (SourceC)", "M x N = 64 x 32 matrix of f16");
  refusal(CTag{}, SourceC<half_t>::Arguments{reinterpret_cast<const half_t*>(v.data()), 1, 63, 0}, GemmStatus::InvalidLeadingDim,
          "root (SourceC)", "neither column-major");
  refusal(CTag{}, SourceC<half_t>::Arguments{reinterpret_cast<const half_t*>(v.data()), 2, 64, 0}, GemmStatus::InvalidLeadingDim,
          "root (SourceC)", "strides (2, 64)");
  using Aux = AuxStore<float, Compute<relu, Accumulator>>;
  struct AuxTag {
    using type = Aux;
  };
  refusal(AuxTag{}, Aux::Arguments{v.data(), 32, 1, 100}, GemmStatus::InvalidBatchStride, "root (AuxStore)", "overlap");
  // an element offset that fits, a byte offset (4 bytes per f32) that does not
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 100;  // last element offset 63 huge: fits; 4 x that does not
  refusal(AuxTag{}, Aux::Arguments{v.data(), 1, huge, 32 * huge}, GemmStatus::Overflow, "root (AuxStore)", "last byte offset does not fit");
  CHECK(bool(tree::can_implement<Aux>(s, Aux::Arguments{v.data(), 32, 1, 2048})));
  using Red = RowReduction<absolute_maximum, Accumulator>;
  struct RedTag {
    using type = Red;
  };
  refusal(RedTag{}, Red::Arguments{v.data(), 16}, GemmStatus::InvalidBatchStride, "root (RowReduction)", "overlap");
  refusal(RedTag{}, Red::Arguments{nullptr}, GemmStatus::NullPointer, "root (RowReduction)", "N = 32 f32");
  CHECK(bool(tree::can_implement<Red>(s, Red::Arguments{v.data(), 0})));
  CHECK(bool(tree::can_implement<Red>(s, Red::Arguments{v.data(), 32})));
  CHECK(tree::can_implement<Red>(TreeShape{0, 32, 1}, Red::Arguments{v.data()}).status == GemmStatus::InvalidSize);
}

// The SM90 tree epilogues' frames (tree/fragment.hpp), for every thread of a TiledMma of W
// warpgroups over BM x BN tiles (the cooperative kernel's: two warpgroups, 128 x 128; the
// ping-pong kernel's: one warpgroup with a whole tile, 64 x 256, or 128 x 128 as two M
// repeats): each C value's coordinate is (m[row slot], n[column slot]), the lane masks name
// exactly the lanes of the warp that hold the same columns (rows), and a tree visited thread
// by thread within its frame (loads once per frame, partials per row or column, combined at
// the frame's end) gives what the direct evaluation (a frame per element: evaluate_tile)
// gives, in full and residue tiles.
template <int W, int BM, int BN>
void check_wgmma_frames() {
  const auto tiled = make_tiled_mma(MMA_Atom<SM90_64xNx16_F32BF16BF16_SS<BN>>{}, make_layout(make_shape(C<W>{}, _1{}, _1{})));
  const auto tile = make_shape(C<BM>{}, C<BN>{});
  using F = WgmmaFragment<decltype(tiled), decltype(tile)>;
  constexpr int threads = 128 * W;
  INFO("warpgroups " << W << ", tile " << BM << " x " << BN);
  STATIC_REQUIRE(F::rows * F::cols * threads == BM * BN);  // every element of the tile held once
  const auto id = make_identity_tensor(tile);

  // where each thread's values are, against its frame
  const TreeShape s{200, 150, 2};  // tile (1, 1): residues in M and N
  for (std::int64_t tm : {0, 1})
    for (std::int64_t tn : {0, 1}) {
      std::vector<typename F::Frame> frames;
      for (int t = 0; t < threads; ++t) frames.push_back(wgmma_frame(tiled, tile, t, tm, tn, 1, s));
      for (int t = 0; t < threads; ++t) {
        INFO("thread " << t << " tile " << tm << " " << tn);
        const auto part = tiled.get_slice(t).partition_C(id);
        for (int r = 0; r < F::repeats; ++r)
          for (int j = 0; j < F::groups; ++j)
            for (int b = 0; b < 2; ++b)
              for (int a = 0; a < 2; ++a) {
                const auto mn = part(make_coord(make_coord(a, b, j), r, 0));
                CHECK(frames[t].m(F::row_slot(b, r)) == tm * BM + std::int64_t(get<0>(mn)));
                CHECK(frames[t].n(F::col_slot(a, j)) == tn * BN + std::int64_t(get<1>(mn)));
              }
        CHECK(frames[t].l == 1);
        // the lanes of t's warp that hold t's columns (rows) are t XOR a subset of the mask
        for (int x = 0; x < 32; ++x) {
          const int u = (t & ~31) | x;
          bool same_cols = true, same_rows = true;
          for (int i = 0; i < F::rows; ++i) same_rows = same_rows && frames[u].m(i) == frames[t].m(i);
          for (int j = 0; j < F::cols; ++j) same_cols = same_cols && frames[u].n(j) == frames[t].n(j);
          CHECK(same_cols == ((unsigned(x ^ t) & 31u & ~frames[t].same_columns) == 0u));
          CHECK(same_rows == ((unsigned(x ^ t) & 31u & ~frames[t].same_rows) == 0u));
        }
      }
    }

  // a tree with every per-tile node: a scalar in memory, both broadcasts, C, an aux store, the
  // three reductions
  using Pre = Compute<plus, Compute<multiplies, Compute<multiplies, Scalar<>, Accumulator>, ColumnBroadcast<half_t>>, RowBroadcast<bfloat16_t>>;
  using WithC = Compute<plus, Pre, SourceC<float>>;
  using Aux = AuxStore<bfloat16_t, WithC>;
  using Act = Compute<gelu_tanh, Aux>;
  using Tree = ScalarReduction<absolute_maximum, ColumnReduction<tree::sum, RowReduction<maximum_value, Act>>>;
  std::mt19937 g(29);
  for (const TreeShape sh : {TreeShape{256, 256, 2}, TreeShape{200, 150, 2}, TreeShape{70, 33, 1}}) {
    INFO("M N L " << sh.m << " " << sh.n << " " << sh.l);
    const auto alphas = randoms(g, std::size_t(sh.l), 0.5f, 1.5f);
    const auto sm = rounded<half_t>(randoms(g, std::size_t(sh.m), 0.5f, 1.5f));
    const auto bias = rounded<bfloat16_t>(randoms(g, std::size_t(sh.n * sh.l)));
    const auto c = randoms(g, std::size_t(sh.m * sh.n * sh.l));  // row-major, batches M N apart
    const std::int64_t ld = sh.m + 3, bs = ld * sh.n + 5;        // the aux store: column-major, padded
    struct Out {
      std::vector<float> d, colmax, rowsum;
      std::vector<bfloat16_t> aux;
      float amax = 0.0f;
    };
    auto outputs = [&] {
      return Out{std::vector<float>(std::size_t(sh.m * sh.n * sh.l), std::numeric_limits<float>::quiet_NaN()),
                 std::vector<float>(std::size_t(sh.n * sh.l), -std::numeric_limits<float>::infinity()),
                 std::vector<float>(std::size_t(sh.m * sh.l), 0.0f), std::vector<bfloat16_t>(std::size_t(bs * sh.l), bfloat16_t::from_bits(0x7fc1)),
                 0.0f};
    };
    Out direct = outputs(), framed = outputs();
    auto params = [&](Out& o) {
      const Pre::Arguments pre{{{{0.0f, alphas.data(), 1}, {}}, {sm.data()}}, {bias.data(), sh.n}};
      const WithC::Arguments with_c{pre, {c.data(), sh.n, 1, sh.m * sh.n}};
      const Act::Arguments act{Aux::Arguments{o.aux.data(), 1, ld, bs, with_c}};
      return params_of<Tree>(sh, Tree::Arguments{&o.amax, 0, {o.rowsum.data(), sh.m, {o.colmax.data(), sh.n, act}}});
    };
    const auto pd = params(direct), pf = params(framed);
    auto at = [&](std::int64_t m, std::int64_t n, std::int64_t l) { return std::size_t(m + sh.m * n + sh.m * sh.n * l); };
    const std::int64_t tiles_m = (sh.m + BM - 1) / BM, tiles_n = (sh.n + BN - 1) / BN;
    for (std::int64_t l = 0; l < sh.l; ++l)
      for (std::int64_t tm = 0; tm < tiles_m; ++tm)
        for (std::int64_t tn = 0; tn < tiles_n; ++tn) {
          evaluate_tile<Tree>(
              pd, sh, tm, tn, l, BM, BN, [&](std::int64_t m, std::int64_t n) { return acc_of(m, n, l); },
              [&](std::int64_t m, std::int64_t n, float v) { direct.d[at(m, n, l)] = v; });
          for (int t = 0; t < threads; ++t) {
            const auto f = wgmma_frame(tiled, tile, t, tm, tn, l, sh);
            typename Tree::template State<F::rows, F::cols> state{};
            Tree::begin_tile(pf, state, f);
            for (int i = 0; i < F::rows; ++i)
              for (int j = 0; j < F::cols; ++j)
                if (f.row_inside(i) && f.col_inside(j)) {
                  const TreeCoord x{f.m(i), f.n(j), l, i, j, f.dm[i], f.dn[j]};
                  framed.d[at(x.m, x.n, l)] = Tree::visit(pf, state, x, acc_of(x.m, x.n, l));
                }
            Tree::end_tile(pf, state, f);
          }
        }
    for (std::size_t i = 0; i < direct.d.size(); ++i) REQUIRE(tessera::detail::float_bits(framed.d[i]) == tessera::detail::float_bits(direct.d[i]));
    for (std::size_t i = 0; i < direct.aux.size(); ++i) REQUIRE(framed.aux[i].bits == direct.aux[i].bits);  // (padding kept too)
    CHECK(framed.colmax == direct.colmax);  // max is exact in any order
    CHECK(framed.amax == direct.amax);
    for (std::size_t i = 0; i < direct.rowsum.size(); ++i) CHECK(framed.rowsum[i] == Approx(direct.rowsum[i]).epsilon(1e-5).margin(1e-4));
  }
}

TEST_CASE("a tree over the wgmma threads' frames equals the direct evaluation") {
  check_wgmma_frames<2, 128, 128>();  // cooperative
  check_wgmma_frames<1, 64, 256>();   // ping-pong, 64 x 256 per consumer
  check_wgmma_frames<1, 128, 128>();  // ping-pong, 128 x 128 per consumer (two M repeats)
}

namespace {
// e4m3 with saturation, by search: the finite code nearest to x (ties: the even code), |x| past
// 448 giving +-448, NaN the NaN code; independent of numeric.hpp's rounding (its decoding of the
// 254 finite codes is what it compares against).
std::uint8_t e4m3_satfinite_reference(double x) {
  if (std::isnan(x)) return 0x7f;
  std::uint8_t best = 0;
  double best_err = INFINITY;
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7f) == 0x7f) continue;  // NaN
    const double v = float_e4m3_t::from_bits(std::uint8_t(code)).to_float();
    const double err = std::fabs(v - (x > 448.0 ? 448.0 : x < -448.0 ? -448.0 : x));
    if (err < best_err || (err == best_err && (code & 1) == 0 && (best & 1) == 1)) {
      // (+0 and -0: the sign of x)
      if (v == 0.0 && std::signbit(v) != std::signbit(x) && err == best_err) continue;
      best = std::uint8_t(code);
      best_err = err;
    }
  }
  return best;
}
}  // namespace

// The prebuilt quantized-output tree (tessera::gemm's e4m3 D): D = e4m3(clamp(scale_d z, -448,
// 448)), amax = max |z| over every element, z = alpha (acc (sa sb)) + beta C.
TEST_CASE("the quantized-output tree: e4m3 rounding with saturation, NaN, infinities") {
  using Q = QuantizedOutputAmax<float_e4m3_t>;
  const TreeShape s{1, 1, 1};
  float amax = 0.0f;
  const float big = std::numeric_limits<float>::max(), inf = std::numeric_limits<float>::infinity();
  // 448 = e4m3's largest; 464 halfway to 480 (not a value: saturates); ties at 1 + 1/16 (between
  // codes 1 and 1.125: to even 1), subnormals 2^-9 (the smallest) and half of it (to 0)
  for (float x : {0.0f, -0.0f, 1.0f, 1.0625f, 1.1875f, -3.3f, 100.7f, 447.9f, 448.0f, 449.0f, 464.0f, 480.0f, 1.0e6f, -1.0e6f, big,
                  -big, inf, -inf, 0.001953125f, 0.0009765625f, 0.00146484375f, -0.0043f}) {
    INFO("x = " << x);
    amax = 0.0f;
    const auto p = params_of<Q>(s, quantized_output_amax_arguments<float_e4m3_t>(1.0f, nullptr, nullptr, 0.0f, nullptr, 1, 1, 0,
                                                                                 nullptr, &amax));
    const float v = value_at<Q>(p, {0, 0, 0}, x);
    CHECK(std::fabs(v) <= 448.0f);  // saturated before the rounding
    CHECK(float_e4m3_t::from_float(v).bits == e4m3_satfinite_reference(double(x)));
    CHECK(amax == std::fabs(x));  // before the saturation
  }
  // NaN: D is NaN, and so is the amax (NaN wins the reduction)
  amax = 0.0f;
  const auto p = params_of<Q>(s, quantized_output_amax_arguments<float_e4m3_t>(1.0f, nullptr, nullptr, 0.0f, nullptr, 1, 1, 0,
                                                                               nullptr, &amax));
  const float v = value_at<Q>(p, {0, 0, 0}, std::numeric_limits<float>::quiet_NaN());
  CHECK(std::isnan(v));
  CHECK((float_e4m3_t::from_float(v).bits & 0x7f) == 0x7f);
  CHECK(std::isnan(amax));
}

TEST_CASE("the quantized-output tree over every tile of residue problems: D exact, amax exact, optional parts") {
  using Q = QuantizedOutputAmax<float_e4m3_t>;
  // Values whose f32 arithmetic is exact (integers times powers of two, e4m3 C), so FP64 gives
  // the tree's f32 bits whatever the order of operations or contraction: D and amax compared exactly.
  auto acc = [](std::int64_t m, std::int64_t n, std::int64_t l) { return float((m * 7 + n * 13 + l * 5) % 61 - 30); };
  struct Case {
    TreeShape s;
    std::int64_t bm, bn;
  };
  for (const Case k : {Case{{37, 29, 2}, 16, 8}, Case{{5, 70, 1}, 8, 32}}) {
    const TreeShape s = k.s;
    for (const bool with_c : {false, true})
      for (const bool with_amax : {false, true}) {
        INFO("M N L " << s.m << " " << s.n << " " << s.l << ", C " << with_c << ", amax " << with_amax);
        const float alpha = 0.75f, beta = with_c ? 0.5f : 0.0f, sa = 0.5f, sb = 4.0f, sd = 16.0f;
        // C column-major, ld > M, batches apart by more than a matrix
        const std::int64_t ld = s.m + 3, bs = ld * s.n + 5;
        std::vector<float_e4m3_t> c(std::size_t(bs * s.l));
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = float_e4m3_t::from_bits(std::uint8_t((i * 37) % 0x7e));  // finite codes
        float amax = -1.0f;  // (the library sets it to 0 before a launch; here: what the reduction combines into)
        if (with_amax) amax = 0.0f;
        const auto p = params_of<Q>(s, quantized_output_amax_arguments<float_e4m3_t>(alpha, &sa, &sb, beta, with_c ? c.data() : nullptr,
                                                                                     1, ld, bs, &sd, with_amax ? &amax : nullptr));
        std::vector<std::uint8_t> d(std::size_t(s.m * s.n * s.l), 0xff);
        std::vector<int> visits(d.size(), 0);
        for (std::int64_t l = 0; l < s.l; ++l)
          for (std::int64_t tm = 0; tm < (s.m + k.bm - 1) / k.bm; ++tm)
            for (std::int64_t tn = 0; tn < (s.n + k.bn - 1) / k.bn; ++tn)
              evaluate_tile<Q>(
                  p, s, tm, tn, l, k.bm, k.bn, [&](std::int64_t m, std::int64_t n) { return acc(m, n, l); },
                  [&](std::int64_t m, std::int64_t n, float v) {
                    const std::size_t i = std::size_t(m + s.m * n + s.m * s.n * l);
                    d[i] = float_e4m3_t::from_float(v).bits;
                    ++visits[i];
                  });
        double amax_ref = 0.0;
        int saturated = 0;
        for (std::int64_t l = 0; l < s.l; ++l)
          for (std::int64_t n = 0; n < s.n; ++n)
            for (std::int64_t m = 0; m < s.m; ++m) {
              const std::size_t i = std::size_t(m + s.m * n + s.m * s.n * l);
              REQUIRE(visits[i] == 1);
              const double cv = with_c ? double(c[std::size_t(m + ld * n + bs * l)].to_float()) : 0.0;
              const double z = double(alpha) * double(sa) * double(sb) * double(acc(m, n, l)) + double(beta) * cv;
              CHECK(d[i] == e4m3_satfinite_reference(z * double(sd)));
              saturated += std::fabs(z * double(sd)) > 448.0;
              amax_ref = std::fmax(amax_ref, std::fabs(z));
            }
        CHECK(saturated > 0);  // (the case reaches the saturation)
        if (with_amax) CHECK(amax == float(amax_ref));
        else CHECK(amax == -1.0f);  // no amax pointer: nothing written
      }
  }
  // C is optional (beta = 0), the amax too; other nodes keep their pointers required
  const TreeShape s{4, 4, 1};
  CHECK(tree::can_implement<Q>(s, quantized_output_amax_arguments<float_e4m3_t>(1.0f, nullptr, nullptr, 0.0f, nullptr, 1, 4, 0, nullptr,
                                                                                nullptr)));
  const GemmResult r = tree::can_implement<SourceC<float_e4m3_t>>(s, {});
  CHECK(r.status == GemmStatus::NullPointer);
  // a misaligned scale_d is named
  alignas(4) static unsigned char bytes[8] = {};
  const GemmResult mis = tree::can_implement<Q>(
      s, quantized_output_amax_arguments<float_e4m3_t>(1.0f, nullptr, nullptr, 0.0f, nullptr, 1, 4, 0,
                                                      reinterpret_cast<const float*>(bytes + 2), nullptr));
  CHECK(mis.status == GemmStatus::Misaligned);
  CHECK(mis.message.find("Scalar") != std::string::npos);
}
