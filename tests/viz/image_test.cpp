// PNG and PDF: image size and the colours of chosen cells, read back through
// Cairo (PNG) or rasterized with pdftoppm (PDF, when installed).
#include <catch2/catch.hpp>

#include <cairo.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cases.hpp"
#include "tessera/viz/cairo_backend.hpp"
#include "tessera/viz/geometry.hpp"
#include "tessera/viz/output.hpp"

namespace fs = std::filesystem;
namespace viz = tessera::viz;

namespace {
fs::path scratch() {
  fs::path p = fs::temp_directory_path() / ("tessera-viz-image-" + std::to_string(::getpid()));
  fs::create_directories(p);
  return p;
}

struct Image {
  cairo_surface_t* s;
  explicit Image(const std::string& path) : s(cairo_image_surface_create_from_png(path.c_str())) {}
  ~Image() { cairo_surface_destroy(s); }
  bool ok() const { return cairo_surface_status(s) == CAIRO_STATUS_SUCCESS; }
  int width() const { return cairo_image_surface_get_width(s); }
  int height() const { return cairo_image_surface_get_height(s); }
  viz::Rgb at(int x, int y) const {
    const unsigned char* d = cairo_image_surface_get_data(s) + y * cairo_image_surface_get_stride(s) + 4 * x;
    const std::uint32_t px = *reinterpret_cast<const std::uint32_t*>(d);  // native-endian xRGB
    return viz::Rgb{static_cast<std::uint8_t>(px >> 16), static_cast<std::uint8_t>(px >> 8),
                    static_cast<std::uint8_t>(px)};
  }
};

bool near(viz::Rgb a, viz::Rgb b, int tol) {
  return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

// A point inside cell (r,c), clear of grid lines and centred labels, in geometry units.
std::pair<double, double> probe(const viz::PanelBox& b, std::int64_t r, std::int64_t c) {
  return {b.cell_x(c) + 5, b.cell_y(r) + 4};
}

// Checks every cell's fill colour at `scale` pixels per unit.
void check_cells(const Image& img, const viz::Diagram& d, double scale, int tol) {
  const viz::Geometry g = viz::compute_geometry(d);
  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const viz::Panel& p = d.panels[i];
    for (std::int64_t r = 0; r < p.rows.count; ++r)
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        auto [x, y] = probe(g.panels[i], r, c);
        const viz::Rgb want = viz::effective_fill(p.at(r, c));
        const viz::Rgb got = img.at(static_cast<int>(x * scale), static_cast<int>(y * scale));
        INFO("panel " << i << " cell (" << r << "," << c << ") want " << viz::hex(want) << " got " << viz::hex(got));
        CHECK(near(got, want, tol));
      }
  }
}
}  // namespace

TEST_CASE("PNG: size and cell colours") {
  const fs::path dir = scratch();
  for (const auto& c : viz_cases::all()) {
    const std::string path = (dir / (c.name + ".png")).string();
    viz::render_to_file(c.diagram, viz::Format::png, path);
    Image img(path);
    REQUIRE(img.ok());
    const viz::Geometry g = viz::compute_geometry(c.diagram);
    REQUIRE(viz::png_scale_for(g) == viz::png_scale);
    CHECK(img.width() == static_cast<int>(g.width * viz::png_scale));
    CHECK(img.height() == static_cast<int>(g.height * viz::png_scale));
    check_cells(img, c.diagram, viz::png_scale, 0);
    // The page corner is white, the outer grid line of the first panel black.
    CHECK(img.at(1, 1) == viz::white);
    const auto& b = g.panels[0];
    CHECK(near(img.at(static_cast<int>(b.grid_x * viz::png_scale),
                      static_cast<int>((b.grid_y + b.cell_h / 2 + 2) * viz::png_scale)),
               viz::black, 40));
  }
  fs::remove_all(dir);
}

TEST_CASE("PDF: a one-page document of the diagram's size; pixels via pdftoppm") {
  const fs::path dir = scratch();
  const auto cases = viz_cases::all();
  const auto& c = cases[1];  // hier_8x8
  const std::string path = (dir / "d.pdf").string();
  viz::render_to_file(c.diagram, viz::Format::pdf, path);
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string pdf = ss.str();
  REQUIRE(pdf.rfind("%PDF-", 0) == 0);
  std::size_t pages = 0, pos = 0;
  while ((pos = pdf.find("/Type /Page", pos)) != std::string::npos) {
    if (pdf.compare(pos, 12, "/Type /Pages") != 0) ++pages;
    ++pos;
  }
  CHECK(pages == 1);
  const viz::Geometry g = viz::compute_geometry(c.diagram);
  std::ostringstream box;
  box << "/MediaBox [ 0 0 " << g.width << " " << g.height << " ]";
  CHECK(pdf.find(box.str()) != std::string::npos);

  if (std::system("command -v pdftoppm >/dev/null 2>&1") != 0) {
    WARN("pdftoppm not installed: PDF pixels not checked");
  } else {
    // 144 dpi = 2 pixels per point, like the PNG.
    const std::string base = (dir / "raster").string();
    REQUIRE(std::system(("pdftoppm -png -r 144 -singlefile '" + path + "' '" + base + "'").c_str()) == 0);
    Image img(base + ".png");
    REQUIRE(img.ok());
    CHECK(std::abs(img.width() - static_cast<int>(g.width * 2)) <= 1);
    check_cells(img, c.diagram, 2.0, 3);
  }
  fs::remove_all(dir);
}

TEST_CASE("wide PNGs shrink to Cairo's 32767-pixel limit") {
  const fs::path dir = scratch();
  // 1x1024 cells of 28 units: 2 pixels a unit would exceed the limit.
  viz::Diagram d = viz::layout_diagram(tessera::rt::Layout(viz_cases::T({1, 1024}), viz_cases::T({0, 1})));
  d.density = viz::Density::labels;  // labelled cells: a heatmap would be small
  const viz::Geometry g = viz::compute_geometry(d);
  const double scale = viz::png_scale_for(g);
  CHECK(scale < viz::png_scale);
  CHECK(g.width * scale <= 32767);
  const std::string path = (dir / "wide.png").string();
  viz::render_to_file(d, viz::Format::png, path);
  Image img(path);
  REQUIRE(img.ok());
  CHECK(img.width() == static_cast<int>(g.width * scale));
  CHECK(img.width() <= 32767);
  fs::remove_all(dir);
}

TEST_CASE("a failed PNG leaves no file behind") {
  const fs::path dir = scratch();
  // 16384 columns: even at a quarter pixel a unit, wider than Cairo's 32767-pixel limit.
  viz::Diagram d = viz::layout_diagram(tessera::rt::Layout(viz_cases::T({1, 16384}), viz_cases::T({0, 1})));
  d.density = viz::Density::labels;  // labelled cells: a heatmap would be small
  const std::string path = (dir / "big.png").string();
  CHECK_THROWS_WITH(viz::render_to_file(d, viz::Format::png, path), Catch::Matchers::Contains("too large for PNG"));
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}
