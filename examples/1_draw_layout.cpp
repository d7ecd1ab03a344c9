// Example 1: draw your own layout as an SVG diagram.
//
//   ./example_draw_layout                                  # draws the default layout below
//   ./example_draw_layout '(4,(2,4)):(2,(1,8))' out.svg    # any layout in CuTe notation
//   ./example_draw_layout 'Sw<3,0,3> o (8,8):(8,1)' sw.svg # a swizzled one
//
// The text goes through the runtime tier (tessera::runtime): parse + evaluate gives an
// rt::Layout, exactly what `tessera eval` prints. The diagram library (tessera::viz)
// turns it into cells coloured by offset, and writes the file atomically (a failure never
// leaves a half-written file). This is what `tessera render` does, in a few lines.
#include <iostream>
#include <string>

#include <tessera/rt/eval.hpp>     // tessera::rt::evaluate: text -> value
#include <tessera/viz/build_layout.hpp> // layout_diagram: layout -> diagram model
#include <tessera/viz/output.hpp>       // render_to_file: diagram -> SVG / TikZ / PNG / PDF

int main(int argc, char** argv) {
  // Rows are mode 0, columns mode 1; the nested mode (2,4) draws a thicker line every 2 columns.
  const std::string text = argc > 1 ? argv[1] : "(4,(2,4)):(2,(1,8))";
  const std::string path = argc > 2 ? argv[2] : "my_layout.svg";
  try {
    const tessera::rt::Value v = tessera::rt::evaluate(text);  // also accepts calls: composition(...)
    tessera::viz::Diagram d;
    if (v.kind() == tessera::rt::Value::Kind::Layout) {
      d = tessera::viz::layout_diagram(v.layout());
    } else if (v.kind() == tessera::rt::Value::Kind::Swizzled) {
      d = tessera::viz::layout_diagram(v.swizzled());
    } else {
      std::cerr << "error: " << text << " is " << tessera::rt::describe(v) << ", not a layout\n";
      return 1;
    }
    // The format follows the extension: .svg .tex .txt (and .png .pdf when built with Cairo).
    const auto format = tessera::viz::format_from_path(path);
    if (!format) {
      std::cerr << "error: " << path << ": unknown extension (use .svg, .tex, .txt, .png or .pdf)\n";
      return 1;
    }
    tessera::viz::render_to_file(d, *format, path);
    std::cout << "wrote " << path << " for " << tessera::rt::to_string(v) << "\n";
    return 0;
  } catch (const tessera::rt::Error& e) {
    // Parse and algebra errors carry the byte position: print the input with a caret.
    std::cerr << tessera::rt::format_error(text, e.pos(), e.what());
  } catch (const tessera::viz::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}
