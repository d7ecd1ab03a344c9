// tessera::viz from the installed package: a parsed layout drawn as SVG (and, where the
// package was built with Cairo, as PNG: its users link Cairo through the package).
#include <cstdio>
#include <filesystem>
#include <string>

#include <tessera/rt/eval.hpp>
#include <tessera/viz/backends.hpp>
#include <tessera/viz/build_layout.hpp>
#include <tessera/viz/output.hpp>

using namespace tessera;

int main() {
  const rt::Value v = rt::evaluate("(4,(2,4)):(2,(1,8))");
  const viz::Diagram d = viz::layout_diagram(viz::grid_function(v.layout()));
  const std::string svg = viz::to_svg(d);
  bool ok = svg.find("<svg") != std::string::npos;
  if (viz::has_cairo()) {
    const std::string png = "consumer_layout.png";
    viz::render_to_file(d, viz::Format::png, png);
    ok = ok && std::filesystem::file_size(png) > 0;
  }
  std::printf("svg of %zu bytes, cairo %d\n", svg.size(), viz::has_cairo());
  return ok ? 0 : 1;
}
