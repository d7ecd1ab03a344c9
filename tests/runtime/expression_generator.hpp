#pragma once
// Random expressions in `tessera eval`'s notation over every operation the evaluator knows,
// plain and swizzled, nested: for the tests that compare `explain` with `eval`
// (tests/runtime/trace_test.cpp through rapidcheck, tests/cli/explain_test.cpp from a seeded
// engine). Many are refused (inadmissible compositions, non-injective complements): those
// exercise the refusal path, which must agree too.
#include <cstdint>
#include <string>
#include <vector>

namespace tessera_test {

// R: `std::int64_t operator()(lo, hi)`, a uniform integer in [lo, hi].
template <class R>
class ExpressionGenerator {
 public:
  explicit ExpressionGenerator(R& random) : r_(random) {}

  // A layout's text and the sizes of its top-level modes (an integer layout: one entry).
  struct Lay {
    std::string text;
    std::vector<std::int64_t> modes;
    bool integral = false;
  };

  std::string expression(int depth = 2) {
    switch (r_(0, 3)) {
      case 0: return swizzled_expression();
      default: return plain_expression(depth);
    }
  }

 private:
  R& r_;

  static std::string s(std::int64_t v) { return std::to_string(v); }

  std::string join(const std::vector<std::string>& v) {
    if (v.size() == 1) return v[0];
    std::string t = "(";
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? "," : "") + v[i];
    return t + ")";
  }

  // injective: strides from a compact layout of the modes in a random order with gaps.
  Lay layout(bool injective, int max_rank = 3) {
    const int rank = static_cast<int>(r_(0, max_rank));  // 0: an integer layout
    std::vector<std::vector<std::int64_t>> shape;
    for (int i = 0; i < (rank == 0 ? 1 : rank); ++i) {
      if (r_(0, 3) == 0) shape.push_back({r_(2, 4), r_(2, 4)});
      else shape.push_back({r_(1, 8)});
    }
    std::vector<std::int64_t*> leaves;
    std::vector<std::vector<std::int64_t>> stride = shape;
    for (auto& m : stride)
      for (auto& x : m) leaves.push_back(&x);
    if (injective) {
      std::vector<std::size_t> order(leaves.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[static_cast<std::size_t>(r_(0, static_cast<std::int64_t>(i) - 1))]);
      std::int64_t span = 1;
      for (auto k : order) {
        span *= r_(1, 2);
        const std::int64_t n = *leaves[k];
        *leaves[k] = span;
        span *= n;
      }
    } else {
      for (auto* x : leaves) *x = r_(0, 3) == 0 ? 0 : r_(1, 24);
    }
    Lay l;
    l.integral = rank == 0 && shape[0].size() == 1;
    std::vector<std::string> st, dt;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      std::vector<std::string> a, b;
      std::int64_t size = 1;
      for (std::size_t j = 0; j < shape[i].size(); ++j) {
        a.push_back(s(shape[i][j]));
        b.push_back(s(stride[i][j]));
        size *= shape[i][j];
      }
      st.push_back(shape[i].size() == 1 ? a[0] : join(a));
      dt.push_back(stride[i].size() == 1 ? b[0] : join(b));
      l.modes.push_back(size);
    }
    if (rank == 0) {
      l.text = st[0] + ":" + dt[0];
    } else {
      std::string ss = "(", ds = "(";
      for (std::size_t i = 0; i < st.size(); ++i) ss += (i ? "," : "") + st[i], ds += (i ? "," : "") + dt[i];
      l.text = ss + "):" + ds + ")";
    }
    return l;
  }

  std::string swizzle() {
    const std::int64_t b = r_(1, 3), m = r_(0, 3), sh = r_(b, b + 2);
    return "Sw<" + s(b) + "," + s(m) + "," + s(r_(0, 1) ? sh : -sh) + ">";
  }

  // A compact layout of power-of-two modes in a random order (what swizzled tiles use).
  Lay bit_fields() {
    const int rank = static_cast<int>(r_(1, 3));
    std::vector<std::int64_t> sz(static_cast<std::size_t>(rank)), d(sz.size());
    for (auto& x : sz) x = std::int64_t{1} << r_(0, 4);
    std::vector<std::size_t> order(sz.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<std::size_t>(r_(0, static_cast<std::int64_t>(i) - 1))]);
    std::int64_t span = 1;
    for (auto k : order) d[k] = span, span *= sz[k];
    Lay l;
    std::string ss = "(", ds = "(";
    for (std::size_t i = 0; i < sz.size(); ++i) ss += (i ? "," : "") + s(sz[i]), ds += (i ? "," : "") + s(d[i]);
    l.text = ss + "):" + ds + ")";
    l.modes = sz;
    return l;
  }

  // A slice coordinate for modes of these sizes: `_` or an index per mode, at least one `_`.
  std::string coordinate(const std::vector<std::int64_t>& modes) {
    std::vector<std::string> c;
    bool kept = false;
    for (std::size_t i = 0; i < modes.size(); ++i) {
      const bool keep = r_(0, 1) == 0 || (!kept && i + 1 == modes.size());
      kept |= keep;
      c.push_back(keep ? "_" : s(r_(0, modes[i] - 1)));
    }
    return "(" + [&] {
      std::string t;
      for (std::size_t i = 0; i < c.size(); ++i) t += (i ? "," : "") + c[i];
      return t;
    }() + ")";
  }

  // A target shape that the block's modes divide (sometimes one that does not).
  std::string target_shape(const Lay& block) {
    std::vector<std::string> t;
    const std::size_t rank = block.modes.size() + static_cast<std::size_t>(r_(0, 1));
    for (std::size_t i = 0; i < rank; ++i) {
      const std::int64_t b = i < block.modes.size() ? block.modes[i] : 1;
      t.push_back(s(b * r_(1, 3) + (r_(0, 9) == 0 ? 1 : 0)));
    }
    return "(" + [&] {
      std::string x;
      for (std::size_t i = 0; i < t.size(); ++i) x += (i ? "," : "") + t[i];
      return x;
    }() + ")";
  }

  // A layout operand: a literal, or (depth > 0) a nested expression giving a layout.
  std::string operand(int depth, bool injective) {
    if (depth > 0 && r_(0, 3) == 0) return layout_expression(depth - 1);
    return layout(injective).text;
  }

  // A tiler: a layout, a tuple of layouts, or a shape.
  std::string tiler() {
    switch (r_(0, 3)) {
      case 0: return "(" + layout(true, 0).text + "," + layout(true, 0).text + ")";
      case 1: return "(" + s(r_(1, 4)) + "," + s(r_(1, 4)) + ")";
      case 2: return s(r_(1, 6));
      default: return layout(true, 2).text;
    }
  }

  // Expressions whose value is a layout (for nesting).
  std::string layout_expression(int depth) {
    static const char* unary[] = {"coalesce", "filter", "right_inverse", "left_inverse", "complement", "flatten"};
    static const char* divides[] = {"logical_divide", "zipped_divide", "tiled_divide", "flat_divide"};
    static const char* products[] = {"logical_product", "zipped_product", "tiled_product", "flat_product",
                                     "blocked_product", "raked_product"};
    switch (r_(0, 7)) {
      case 0: return std::string(unary[r_(0, 5)]) + "(" + operand(depth, r_(0, 1) == 0) + ")";
      case 1: return "composition(" + operand(depth, false) + ", " + layout(r_(0, 1) == 0, 2).text + ")";
      case 2: return "composition(" + operand(depth, false) + ", " + tiler() + ")";
      case 3: return std::string(divides[r_(0, 3)]) + "(" + operand(depth, false) + ", " + tiler() + ")";
      case 4: {
        const std::string op = products[r_(0, 5)];
        const bool by_layout = op == "blocked_product" || op == "raked_product";
        return op + "(" + operand(depth, true) + ", " + (by_layout ? layout(true, 2).text : tiler()) + ")";
      }
      case 5: {
        const Lay l = layout(true, 2);
        return "tile_to_shape(" + l.text + ", " + target_shape(l) + ")";
      }
      case 6: {
        const Lay l = layout(false);
        if (l.integral) return "slice(" + l.text + ", _)";
        return "slice(" + l.text + ", " + coordinate(l.modes) + ")";
      }
      default:
        return std::string(r_(0, 1) ? "upcast(" : "downcast(") + operand(depth, false) + ", " + s(std::int64_t{1}
                                                                                                 << r_(0, 2)) + ")";
    }
  }

  std::string plain_expression(int depth) {
    switch (r_(0, 9)) {
      case 0: return std::string(r_(0, 1) ? "max_common_vector(" : "max_common_layout(") + operand(depth, false) +
                     ", " + layout(false).text + ")";
      case 1: return "complement(" + operand(depth, true) + ", " + s(r_(1, 96)) + ")";
      case 2: {
        static const char* f[] = {"size", "cosize", "rank", "depth", "shape", "stride"};
        return std::string(f[r_(0, 5)]) + "(" + operand(depth, false) + ")";
      }
      case 3: return "make_layout(" + operand(depth, false) + ", " + layout(false, 1).text + ")";
      case 4: return "coalesce(" + operand(depth, false) + ", (1,1))";
      default: return layout_expression(depth);
    }
  }

  std::string swizzled_expression() {
    const Lay l = r_(0, 1) ? bit_fields() : layout(false, 2);
    const std::string sw = swizzle() + " o " + (r_(0, 3) == 0 ? s(r_(0, 64)) + " o " : "") + l.text;
    switch (r_(0, 11)) {
      case 0: return "composition(" + sw + ", " + layout(false, 2).text + ")";
      case 1: return "composition(" + bit_fields().text + ", " + swizzle() + ")";
      case 2: return "composition(" + bit_fields().text + ", " + swizzle() + " o " + bit_fields().text + ")";
      case 3: return std::string(r_(0, 1) ? "right_inverse(" : "left_inverse(") + sw + ")";
      case 4: return std::string(r_(0, 1) ? "upcast(" : "downcast(") + sw + ", " + s(std::int64_t{1} << r_(0, 2)) + ")";
      case 5: return "slice(" + sw + ", " + coordinate(l.modes) + ")";
      case 6: return "logical_divide(" + sw + ", " + tiler() + ")";
      case 7: return "tile_to_shape(" + sw + ", " + target_shape(l) + ")";
      case 8: return "max_common_vector(" + sw + ", " + bit_fields().text + ")";
      case 9: return "composition(" + swizzle() + ", " + swizzle() + ")";
      case 10: return "complement(" + sw + ")";
      default: return "coalesce(" + sw + ")";
    }
  }
};

}  // namespace tessera_test
