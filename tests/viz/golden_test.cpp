// Golden files: text, SVG and TikZ output must match tests/viz/data/ byte for byte.
// Regenerate after an intended change with:  TESSERA_UPDATE_GOLDEN=1 ./viz_golden_test
#include <catch2/catch.hpp>

#include "../golden_file.hpp"
#include "cases.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/output.hpp"


TEST_CASE("text output is CuTe's print_layout table, byte for byte") {
  // print_layout((2,3):(3,1)) as CuTe prints it: cosize 6 -> one digit, cell "| d ".
  const std::string expected =
      "(2,3):(3,1)\n"
      "      0   1   2 \n"
      "    +---+---+---+\n"
      " 0  | 0 | 1 | 2 |\n"
      "    +---+---+---+\n"
      " 1  | 3 | 4 | 5 |\n"
      "    +---+---+---+\n";
  CHECK(tessera::viz::to_text(tessera::viz::layout_diagram(viz_cases::row_major_2x3())) == expected);

  // Width follows num_digits(cosize), not the widest value: 10:1 has cosize 10 -> two digits.
  const std::string ten =
      "(1,10):(0,1)\n"
      "       0    1    2    3    4    5    6    7    8    9 \n"
      "    +----+----+----+----+----+----+----+----+----+----+\n"
      " 0  |  0 |  1 |  2 |  3 |  4 |  5 |  6 |  7 |  8 |  9 |\n"
      "    +----+----+----+----+----+----+----+----+----+----+\n";
  using viz_cases::T;
  CHECK(tessera::viz::to_text(tessera::viz::layout_diagram(tessera::rt::Layout(T({1, 10}), T({0, 1})))) == ten);

  // Negative strides: cosize = L(size-1)+1 = 2 -> width 1; "-1" overflows its cell as with printf("%*d").
  const std::string neg =
      "(2,2):(-1,2)\n"
      "      0   1 \n"
      "    +---+---+\n"
      " 0  | 0 | 2 |\n"
      "    +---+---+\n"
      " 1  | -1 | 1 |\n"
      "    +---+---+\n";
  CHECK(tessera::viz::to_text(tessera::viz::layout_diagram(tessera::rt::Layout(T({2, 2}), T({-1, 2})))) == neg);
}

TEST_CASE("golden files: txt, svg, tex") {
  using tessera::viz::Format;
  for (const auto& c : viz_cases::all()) {
    for (Format f : {Format::txt, Format::svg, Format::tex}) {
      const std::string ext(tessera::viz::format_name(f));
      const std::string path = std::string(TESSERA_TEST_DATA_DIR) + "/" + c.name + "." + ext;
      const std::string got = tessera::viz::render_text(c.diagram, f);
      tessera_test::check_golden(path, got);
      // Deterministic: drawing twice gives the same bytes.
      CHECK(tessera::viz::render_text(c.diagram, f) == got);
    }
  }
}

TEST_CASE("SVG: one <title> tooltip per drawn cell, well-formed escapes") {
  for (const auto& c : viz_cases::all()) {
    const std::string svg = tessera::viz::to_svg(c.diagram);
    std::size_t titles = 0, pos = 0;
    while ((pos = svg.find("<title>", pos)) != std::string::npos) { ++titles; ++pos; }
    std::size_t expected = 0;
    for (const auto& p : c.diagram.panels)
      for (const auto& cell : p.cells) expected += cell.present || !cell.tooltip.empty();
    CHECK(titles == expected);
    CHECK(svg.find("<&>") == std::string::npos);
  }
  const auto tv = viz_cases::all()[5];
  REQUIRE(tv.name == "tv_sm80_c");
  // Cell (9,3) of the SM80 C fragment: row 9 = lane/4 + 8 -> lane 4*1 + 1 = 5, value 3 (v0=1, v1=1).
  CHECK(tessera::viz::to_svg(tv.diagram).find("<title>(9,3) index 57 thread 5 value 3</title>") != std::string::npos);
}

#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cstdio>

namespace {
// print_layout's table rebuilt from its printf formats (per the description of
// the format: width num_digits(cosize), "%*d" fields), as an independent oracle.
std::string printf_table(const tessera::rt::Layout& l) {
  const std::int64_t M = tessera::rt::product(l.shape[0]), N = tessera::rt::product(l.shape[1]);
  const std::int64_t cosize = l(M * N - 1) + 1;
  int nd = 1;
  for (std::int64_t x = 10; x <= cosize; x *= 10) ++nd;
  const int w = nd + 2;
  std::string out = tessera::rt::to_string(l) + "\n";
  char buf[64];
  auto put = [&](const char* fmt, auto... a) {
    std::snprintf(buf, sizeof buf, fmt, a...);
    out += buf;
  };
  const std::string dashes = "+" + std::string(static_cast<std::size_t>(w), '-');
  put("    ");
  for (std::int64_t n = 0; n < N; ++n) put("  %*d ", w - 2, static_cast<int>(n));
  put("\n");
  for (std::int64_t m = 0; m < M; ++m) {
    put("    ");
    for (std::int64_t n = 0; n < N; ++n) out += dashes;
    put("+\n");
    put("%2d  ", static_cast<int>(m));
    for (std::int64_t n = 0; n < N; ++n) put("| %*d ", w - 2, static_cast<int>(l(m + M * n)));
    put("|\n");
  }
  put("    ");
  for (std::int64_t n = 0; n < N; ++n) out += dashes;
  put("+\n");
  return out;
}

rc::Gen<tessera::rt::IntTuple> mode_gen() {
  using tessera::rt::IntTuple;
  return rc::gen::oneOf(rc::gen::map(rc::gen::inRange<std::int64_t>(1, 13), [](std::int64_t v) { return IntTuple(v); }),
                        rc::gen::map(rc::gen::container<std::vector<std::int64_t>>(
                                         2, rc::gen::inRange<std::int64_t>(1, 5)),
                                     [](std::vector<std::int64_t> v) {
                                       return IntTuple::tuple({IntTuple(v[0]), IntTuple(v[1])});
                                     }));
}
}  // namespace

TEST_CASE("text output equals print_layout's printf table on generated layouts") {
  rc::prop("to_text(layout) == printf table", [] {
    using tessera::rt::IntTuple;
    const IntTuple s0 = *mode_gen(), s1 = *mode_gen();
    auto stride = [](const IntTuple& s) {
      return tessera::rt::transform_leaf(s, [](std::int64_t) { return *rc::gen::inRange<std::int64_t>(-3, 200); });
    };
    const tessera::rt::Layout l(IntTuple::tuple({s0, s1}), IntTuple::tuple({stride(s0), stride(s1)}));
    RC_ASSERT(tessera::viz::to_text(tessera::viz::layout_diagram(l)) == printf_table(l));
  });
}
