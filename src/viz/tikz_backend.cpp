#include <algorithm>
#include <cstdio>
#include <map>

#include "tessera/viz/backends.hpp"
#include "tessera/viz/geometry.hpp"

namespace tessera::viz {

namespace {
std::string tex(const std::string& s) {
  std::string o;
  for (char ch : drawable_text(s)) {
    switch (ch) {
      case '\\': o += "\\textbackslash{}"; break;
      case '{': o += "\\{"; break;
      case '}': o += "\\}"; break;
      case '$': o += "\\$"; break;
      case '&': o += "\\&"; break;
      case '#': o += "\\#"; break;
      case '%': o += "\\%"; break;
      case '_': o += "\\_"; break;
      case '^': o += "\\^{}"; break;
      case '~': o += "\\~{}"; break;
      case '\n': case '\t': o += ' '; break;
      default: o += ch;
    }
  }
  return o;
}

// Colours are declared once, named by their hex value, in order of first use.
struct Palette {
  std::vector<Rgb> order;
  std::string name(Rgb c) {
    if (std::find(order.begin(), order.end(), c) == order.end()) order.push_back(c);
    return "c" + hex(c).substr(1);
  }
};

std::string pt(double x, double y) { return "(" + num(x) + "," + num(y) + ")"; }

// Lengths are in bp (PDF points), so the PDF page matches the geometry exactly.
// Font switches sized like the geometry's estimates (Computer Modern tt is 0.525 em wide).
constexpr const char* kCellFont = "\\ttfamily\\fontsize{10}{12}\\selectfont";
constexpr const char* kHeaderFont = "\\ttfamily\\fontsize{9}{11}\\selectfont";
constexpr const char* kPanelTitleFont = "\\sffamily\\bfseries\\fontsize{11}{13}\\selectfont";
constexpr const char* kTitleFont = "\\sffamily\\bfseries\\fontsize{12}{14}\\selectfont";

void node(std::string& o, Palette& pal, double x, double y, const char* anchor, const char* font, Rgb color,
          const std::string& s) {
  o += "\\node[anchor=" + std::string(anchor) + ",inner sep=0pt,font=" + font;
  if (color != black) o += ",text=" + pal.name(color);
  o += "] at " + pt(x, y) + " {" + tex(s) + "};\n";
}
// The cells' fills as few paths as possible (fill_rects), the rectangles of a colour in
// paths of PGF's basic layer (\tesserarect, defined in the preamble): pdflatex keeps every
// path of a picture in memory, and TikZ's parser costs about five times PGF's per rectangle,
// so a path per cell exhausted its default memory on a 64x256 heatmap and merged TikZ paths
// still took seconds.
void fill_cells(std::string& o, Palette& pal, const Panel& p, const PanelBox& b) {
  const std::vector<FillRect> rects = fill_rects(p);
  std::vector<Rgb> order;
  std::map<std::string, std::vector<std::size_t>> by_color;
  for (std::size_t i = 0; i < rects.size(); ++i) {
    const std::string name = pal.name(rects[i].fill);
    if (by_color.find(name) == by_color.end()) order.push_back(rects[i].fill);
    by_color[name].push_back(i);
  }
  constexpr std::size_t kPerPath = 64;  // rectangles per path: short lines, bounded paths
  for (Rgb color : order) {
    const std::vector<std::size_t>& list = by_color[pal.name(color)];
    for (std::size_t k = 0; k < list.size(); ++k) {
      const FillRect& q = rects[list[k]];
      if (k % kPerPath == 0) o += "{\\pgfsetfillcolor{" + pal.name(color) + "}";
      o += "\\tesserarect{" + num(b.cell_x(q.c0)) + "}{" + num(b.cell_y(q.r0)) + "}{" + num(b.cell_x(q.c1)) + "}{" +
           num(b.cell_y(q.r1)) + "}";
      if (k % kPerPath == kPerPath - 1 || k + 1 == list.size()) o += "\\pgfusepath{fill}}\n";
    }
  }
}
}  // namespace

std::string to_tikz(const Diagram& d) {
  const Geometry g = compute_geometry(d);
  const Style& s = g.style;
  Palette pal;
  std::string body;
  const Rgb grey{0x44, 0x44, 0x44};

  if (!d.title.empty()) node(body, pal, s.margin, g.title_y, "base west", kTitleFont, black, d.title);
  for (std::size_t i = 0; i < d.panels.size(); ++i) {
    const Panel& p = d.panels[i];
    const PanelBox& b = g.panels[i];
    body += "% panel " + std::to_string(i) + "\n";
    if (!p.title.empty()) node(body, pal, b.x, b.title_y, "base west", kPanelTitleFont, black, p.title);
    if (!p.subtitle.empty()) node(body, pal, b.x, b.subtitle_y, "base west", kHeaderFont, grey, p.subtitle);
    for (std::size_t c = 0; c < p.cols.headers.size(); ++c)
      if (b.shows_header(static_cast<std::int64_t>(c))) node(body, pal, b.cell_x(static_cast<std::int64_t>(c)) + b.cell_w / 2, b.grid_y - 5, "base", kHeaderFont, grey,
           p.cols.headers[c]);
    for (std::size_t r = 0; r < p.rows.headers.size(); ++r)
      if (b.shows_header(static_cast<std::int64_t>(r))) node(body, pal, b.grid_x - 5, b.cell_y(static_cast<std::int64_t>(r)) + b.cell_h / 2 + s.header_font * 0.35,
           "base east", kHeaderFont, grey, p.rows.headers[r]);
    fill_cells(body, pal, p, b);
    for (std::int64_t r = 0; r < p.rows.count; ++r) {
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const Cell& cell = p.at(r, c);
        if (!cell.present) continue;
        const double x = b.cell_x(c), y = b.cell_y(r);
        const Rgb fill = effective_fill(cell);
        if (b.heatmap) continue;
        const Rgb tc = text_color_for(fill);
        const double cx = x + b.cell_w / 2;
        if (cell.label2.empty()) {
          node(body, pal, cx, y + b.cell_h / 2 + s.cell_font * 0.35, "base", kCellFont, tc, cell.label);
        } else {
          node(body, pal, cx, y + b.cell_h / 2 - 2, "base", kCellFont, tc, cell.label);
          node(body, pal, cx, y + b.cell_h / 2 + s.cell_font - 1, "base", kCellFont, tc, cell.label2);
        }
      }
    }
    const double x0 = b.grid_x, y0 = b.grid_y, x1 = b.cell_x(p.cols.count), y1 = b.cell_y(p.rows.count);
    for (const GridLine& l : grid_lines(p, b.heatmap)) {
      body += "\\draw[line width=" + num(l.width) + "bp,line cap=rect] ";
      if (l.horizontal) body += pt(x0, b.cell_y(l.index)) + " -- " + pt(x1, b.cell_y(l.index)) + ";\n";
      else body += pt(b.cell_x(l.index), y0) + " -- " + pt(b.cell_x(l.index), y1) + ";\n";
    }
    for (const RegionEdge& e : region_edges(p)) {
      body += "\\draw[" + (e.atom ? std::string("black") : pal.name(warp_edge_color)) + ",line width=" +
              num(region_edge_width(e.atom, b.heatmap)) + "bp,line cap=rect] ";
      if (e.horizontal) body += pt(b.cell_x(e.from), b.cell_y(e.index)) + " -- " + pt(b.cell_x(e.to), b.cell_y(e.index)) + ";\n";
      else body += pt(b.cell_x(e.index), b.cell_y(e.from)) + " -- " + pt(b.cell_x(e.index), b.cell_y(e.to)) + ";\n";
    }
    for (std::int64_t r = 0; r < p.rows.count; ++r)
      for (std::int64_t c = 0; c < p.cols.count; ++c) {
        const Cell& cell = p.at(r, c);
        if (cell.highlight == Highlight::none) continue;
        const double hw = highlight_width(b);
        body += "\\draw[" + pal.name(highlight_stroke(cell.highlight)) + ",line width=" + num(hw) + "bp] " +
                pt(b.cell_x(c) + hw / 2, b.cell_y(r) + hw / 2) + " rectangle " +
                pt(b.cell_x(c) + b.cell_w - hw / 2, b.cell_y(r) + b.cell_h - hw / 2) + ";\n";
      }
  }
  const LegendBox& lb = g.legend;
  if (!d.legend.empty()) body += "% legend\n";
  if (lb.title_y > 0) node(body, pal, s.margin, lb.title_y, "base west", kHeaderFont, black, d.legend.title);
  for (std::size_t k = 0; k < d.legend.items.size(); ++k) {
    const auto& sw = lb.swatches[k];
    body += "\\filldraw[fill=" + pal.name(d.legend.items[k].color) + ",draw=" + pal.name(Rgb{0x44, 0x44, 0x44}) +
            ",line width=0.5bp] " + pt(sw.x, sw.y) + " rectangle " + pt(sw.x + lb.swatch, sw.y + lb.swatch) + ";\n";
    node(body, pal, sw.label_x(), sw.y + lb.label_dy, "base west", kHeaderFont, black, d.legend.items[k].label);
  }
  for (std::size_t k = 0; k < d.legend.lines.size(); ++k)
    node(body, pal, s.margin, lb.line_y[k], "base west", kHeaderFont, black, d.legend.lines[k]);
  for (std::size_t i = 0; i < d.notes.size(); ++i)
    node(body, pal, s.margin, g.note_y[i], "base west", kHeaderFont, black, d.notes[i]);

  std::string o;
  o += "% Drawn by tessera. Compile with: pdflatex <file>.tex\n";
  // The standalone class when installed (Debian: texlive-latex-extra); otherwise an
  // article whose page is exactly the picture, so texlive-latex-base suffices.
  o += "\\IfFileExists{standalone.cls}{\\documentclass[border=0pt]{standalone}}{%\n";
  o += "\\documentclass{article}\\pagestyle{empty}%\n";
  o += "\\paperwidth=" + num(g.width) + "bp\\paperheight=" + num(g.height) + "bp%\n";
  o += "\\pdfpagewidth=\\paperwidth\\pdfpageheight=\\paperheight%\n";
  o += "\\hoffset=-1in\\voffset=-1in\\oddsidemargin=0pt\\topmargin=0pt\\headheight=0pt\\headsep=0pt%\n";
  o += "\\textwidth=" + num(g.width) + "bp\\textheight=" + num(g.height) + "bp\\parindent=0pt\\topskip=0pt}\n";
  o += "\\usepackage{tikz}\n";
  // A filled cell rectangle from (x0,y0) to (x1,y1) in the picture's bp, y down (PGF's basic
  // layer, much cheaper than a TikZ path).
  o += "\\newcommand\\tesserarect[4]{\\pgfpathrectanglecorners{\\pgfqpoint{#1bp}{-#2bp}}{\\pgfqpoint{#3bp}{-#4bp}}}\n";
  for (Rgb c : pal.order) o += "\\definecolor{c" + hex(c).substr(1) + "}{HTML}{" + hex(c).substr(1) + "}\n";
  o += "\\begin{document}\\frenchspacing\n";
  o += "\\begin{tikzpicture}[x=1bp,y=-1bp]\n";
  // The page: a white sheet the size of the diagram, so margins match SVG and PNG.
  o += "\\fill[white] (0,0) rectangle " + pt(g.width, g.height) + ";\n";
  o += body;
  o += "\\end{tikzpicture}\n";
  o += "\\end{document}\n";
  return o;
}

}  // namespace tessera::viz
