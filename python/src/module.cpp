// The `tessera._core` extension: thin pybind11 bindings over the runtime tier (rt), the
// diagram library (viz) and the atom registry. No algebra here: every operation goes
// through rt::evaluate, the evaluator `tessera eval` uses, so results, refusals and
// messages are eval's to the letter. The Python package (python/tessera) adds the
// CuTe DSL-style functions, methods and pictures on top.
#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/parse.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/viz/atom_diagrams.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/build_layout.hpp"
#include "tessera/viz/build_tv.hpp"
#include "tessera/viz/cairo_backend.hpp"
#include "tessera/viz/colors.hpp"
#include "tessera/viz/error.hpp"
#include "tessera/viz/output.hpp"

namespace py = pybind11;
namespace rt = tessera::rt;
namespace viz = tessera::viz;

namespace {

// A composed layout in either of CuTe's two forms: Sw o off o L, or L o off o Sw (what the
// inverses of Sw o off o L give when off != 0).
struct Composed {
  std::variant<rt::SwizzledLayout, rt::LayoutAfterSwizzle> v;
  bool swizzle_outside() const { return v.index() == 0; }
};

// The Python exception classes (tessera/_errors.py), installed by the package on import.
struct ErrorClasses {
  py::object error, parse, inadmissible, overflow, int_tuple;
};
ErrorClasses& classes() {
  static ErrorClasses* c = new ErrorClasses;  // never destroyed: outlives the interpreter's teardown
  return *c;
}

// Raises `cls(message, text, column, argument, display)`; column and argument are 1-based or None.
[[noreturn]] void raise(const py::object& cls, const std::string& message, py::object text, py::object column,
                        py::object argument, const std::string& display) {
  py::object e = cls(message, std::move(text), std::move(column), std::move(argument), display);
  PyErr_SetObject(cls.ptr(), e.ptr());
  throw py::error_already_set();
}

py::object none() { return py::none(); }

const py::object& class_of(const rt::Error& e) {
  return dynamic_cast<const rt::OverflowError*>(&e) ? classes().overflow : classes().inadmissible;
}

// Argument positions: the nodes built from Python argument i carry pos i + 1, the call pos 0,
// so an evaluator error names the argument it is about.
[[noreturn]] void raise_call_error(const rt::Error& e, const py::object& cls) {
  const std::size_t p = e.pos();
  py::object argument = p == rt::npos || p == 0 ? none() : py::int_(p);
  raise(cls, e.what(), none(), none(), std::move(argument), e.what());
}

// An error located in a text the user gave: the message, then the text and a caret, exactly
// as `tessera eval` prints it on standard error (without its "error: ").
[[noreturn]] void raise_text_error(const rt::Error& e, const py::object& cls, std::string_view text) {
  std::string display = rt::format_error(text, e.pos(), e.what());
  if (display.rfind("error: ", 0) == 0) display.erase(0, 7);
  while (!display.empty() && display.back() == '\n') display.pop_back();
  py::object column = e.pos() == rt::npos ? none() : py::int_(e.pos() + 1);
  raise(cls, e.what(), py::str(std::string(text)), std::move(column), none(), display);
}

// ---- Python integers -> int64, never wrapped ---------------------------------------------

std::int64_t to_int64(py::handle h) {
  if (PyBool_Check(h.ptr())) throw py::type_error("a bool is not an integer of a layout (write 0 or 1)");
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
  if (!index) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || v == LLONG_MIN) {
    const std::string text = py::str(index);
    const std::string msg = "integer overflow: " + text +
                            " does not fit in 64 bits (tessera's integers lie within +-(2^63-1))";
    raise(classes().overflow, msg, none(), none(), none(), msg);
  }
  return static_cast<std::int64_t>(v);
}

bool is_int_like(py::handle h) { return PyLong_Check(h.ptr()) || (!PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr())); }

// ---- runtime values -> parse-tree nodes (the evaluator's input) --------------------------

rt::Node node_of(const rt::IntTuple& t, std::size_t pos) {
  rt::Node n;
  n.pos = pos;
  if (t.is_leaf()) {
    if (t.value() == rt::kUnderscore) n.kind = rt::Node::Kind::Underscore;
    else {
      n.kind = rt::Node::Kind::Int;
      n.value = t.value();
    }
    return n;
  }
  n.kind = rt::Node::Kind::Tuple;
  n.children.reserve(t.rank());
  for (const auto& e : t.elems()) n.children.push_back(node_of(e, pos));
  return n;
}

rt::Node node_of(const rt::Layout& l, std::size_t pos) {
  rt::Node n;
  n.kind = rt::Node::Kind::Layout;
  n.pos = pos;
  n.children.push_back(node_of(l.shape, pos));
  n.children.push_back(node_of(l.stride, pos));
  return n;
}

rt::Node node_of(const rt::Swizzle& s, std::size_t pos, rt::Node::Kind kind = rt::Node::Kind::Swizzle) {
  rt::Node n;
  n.kind = kind;
  n.pos = pos;
  n.swizzle[0] = s.bits;
  n.swizzle[1] = s.base;
  n.swizzle[2] = s.shift;
  return n;
}

rt::Node node_of(const Composed& c, std::size_t pos) {
  if (const auto* s = std::get_if<rt::SwizzledLayout>(&c.v)) {
    rt::Node n = node_of(s->swizzle, pos, rt::Node::Kind::Swizzled);
    n.value = s->offset;
    n.children.push_back(node_of(s->layout, pos));
    return n;
  }
  const auto& a = std::get<rt::LayoutAfterSwizzle>(c.v);
  rt::Node n = node_of(a.swizzle, pos, rt::Node::Kind::LayoutAfterSwizzle);
  n.value = a.offset;
  n.children.push_back(node_of(a.layout, pos));
  return n;
}

// An integral tiler N reads back from N (CuTe's integral tiler), a layout from itself.
rt::Node node_of(const rt::Tiler& t, std::size_t pos) {
  if (t.is_layout) {
    if (!t.integral) return node_of(t.layout, pos);
    return node_of(t.layout.shape, pos);
  }
  rt::Node n;
  n.kind = rt::Node::Kind::Tuple;
  n.pos = pos;
  for (const auto& e : t.elems) n.children.push_back(node_of(e, pos));
  return n;
}

void set_pos(rt::Node& n, std::size_t pos) {
  n.pos = pos;
  for (auto& c : n.children) set_pos(c, pos);
}

void check_names(const rt::Node& n, std::string_view text);

rt::Node parse_text(std::string_view text) {
  try {
    rt::Node n = rt::parse(text);
    check_names(n, text);
    return n;
  } catch (const rt::Error& e) {
    raise_text_error(e, classes().parse, text);
  }
}

// A Python object as an argument of the algebra: tessera's objects, integers, None (CuTe
// DSL's underscore), tuples and lists of those, or text in the notation.
rt::Node node_of(py::handle h, std::size_t pos) {
  if (h.is_none()) {
    rt::Node n;
    n.kind = rt::Node::Kind::Underscore;
    n.pos = pos;
    return n;
  }
  if (is_int_like(h)) {
    rt::Node n;
    n.kind = rt::Node::Kind::Int;
    n.pos = pos;
    n.value = to_int64(h);
    return n;
  }
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    rt::Node n;
    n.kind = rt::Node::Kind::Tuple;
    n.pos = pos;
    for (py::handle e : h) n.children.push_back(node_of(e, pos));
    return n;
  }
  if (py::isinstance<rt::Layout>(h)) return node_of(h.cast<const rt::Layout&>(), pos);
  if (py::isinstance<Composed>(h)) return node_of(h.cast<const Composed&>(), pos);
  if (py::isinstance<rt::Swizzle>(h)) return node_of(h.cast<const rt::Swizzle&>(), pos);
  if (py::isinstance<rt::Tiler>(h)) return node_of(h.cast<const rt::Tiler&>(), pos);
  if (PyUnicode_Check(h.ptr())) {
    rt::Node n = parse_text(h.cast<std::string>());
    set_pos(n, pos);
    return n;
  }
  throw py::type_error("cannot use a " + std::string(Py_TYPE(h.ptr())->tp_name) +
                       " in the layout algebra: give a Layout, ComposedLayout, Swizzle, an integer, None (_), "
                       "a tuple of those, or text such as '(4,2):(1,4)'");
}

// Unknown function names are mistakes in the text: ParseError, pointing at the name.
void check_names(const rt::Node& n, std::string_view text) {
  static const std::unordered_set<std::string> known = [] {
    std::unordered_set<std::string> s;
    for (const auto& f : rt::functions()) s.insert(f.name);
    return s;
  }();
  if (n.kind == rt::Node::Kind::Call && !known.count(n.name))
    throw rt::Error("unknown function '" + n.name + "' (see `tessera eval --help`)", n.pos);
  for (const auto& c : n.children) check_names(c, text);
}

// ---- runtime values -> Python objects -----------------------------------------------------

py::object from_tuple(const rt::IntTuple& t) {
  if (t.is_leaf()) return t.value() == rt::kUnderscore ? none() : py::object(py::int_(t.value()));
  py::tuple out(t.rank());
  for (std::size_t i = 0; i < t.rank(); ++i) out[i] = from_tuple(t.elems()[i]);
  return classes().int_tuple(out);
}

py::object from_value(rt::Value v) {
  using K = rt::Value::Kind;
  switch (v.kind) {
    case K::IntTuple: return from_tuple(v.tuple);
    case K::Layout: return py::cast(std::move(v.layout));
    case K::Tiler: return py::cast(std::move(v.tiler));
    case K::Swizzled: return py::cast(Composed{std::move(v.swizzled)});
    case K::Swizzle: return py::cast(v.swizzle);
    case K::LayoutAfterSwizzle: return py::cast(Composed{std::move(v.after_swizzle)});
  }
  throw std::logic_error("unknown value kind");
}

rt::IntTuple tuple_of(py::handle h) {
  if (h.is_none()) return rt::IntTuple(rt::kUnderscore);
  if (is_int_like(h)) return rt::IntTuple(to_int64(h));
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    std::vector<rt::IntTuple> e;
    for (py::handle x : h) e.push_back(tuple_of(x));
    return rt::IntTuple::tuple(std::move(e));
  }
  throw py::type_error("expected an integer or a tuple of integers, got a " + std::string(Py_TYPE(h.ptr())->tp_name));
}

// ---- the evaluator --------------------------------------------------------------------------

rt::Value evaluate_call(const std::string& name, const py::args& args) {
  rt::Node call;
  call.kind = rt::Node::Kind::Call;
  call.name = name;
  call.pos = 0;
  call.children.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) call.children.push_back(node_of(args[i], i + 1));
  try {
    check_names(call, name);
    return rt::evaluate(call);
  } catch (const rt::Error& e) {
    raise_call_error(e, class_of(e));
  }
}

py::object eval_text(const std::string& text) {
  rt::Node n = parse_text(text);
  try {
    return from_value(rt::evaluate(n));
  } catch (const rt::Error& e) {
    raise_text_error(e, class_of(e), text);
  }
}

// Any single value given from Python (an object or text) as the runtime value it stands for.
rt::Value value_of(py::handle h) {
  if (py::isinstance<rt::Layout>(h)) return rt::Value::of(h.cast<rt::Layout>());
  if (PyUnicode_Check(h.ptr())) {
    const std::string text = h.cast<std::string>();
    rt::Node n = parse_text(text);
    try {
      return rt::evaluate(n);
    } catch (const rt::Error& e) {
      raise_text_error(e, class_of(e), text);
    }
  }
  rt::Node n = node_of(h, 1);
  try {
    return rt::evaluate(n);
  } catch (const rt::Error& e) {
    raise_call_error(e, class_of(e));
  }
}

// f(i) for i in [0, size): a layout or a composed layout as a function of the 1-D index.
template <class F>
void for_each_value(const rt::Value& v, F&& f) {
  using K = rt::Value::Kind;
  if (v.kind == K::Layout) return rt::for_each_offset(v.layout, f);
  if (v.kind == K::Swizzled) {
    const rt::SwizzledLayout& s = v.swizzled;
    return rt::for_each_offset(s.layout, [&](std::int64_t off) { f(s.swizzle(rt::checked_add(s.offset, off, "offset"))); });
  }
  throw rt::Error("expected a layout or a swizzled layout Sw o off o L, got " + rt::describe(v));
}

std::int64_t size_of(const rt::Value& v) {
  using K = rt::Value::Kind;
  if (v.kind == K::Layout) return v.layout.size();
  if (v.kind == K::Swizzled) return v.swizzled.size();
  throw rt::Error("expected a layout or a swizzled layout Sw o off o L, got " + rt::describe(v));
}

// Every offset, in index order (a layout is a function of [0, size)). Refuses more than
// `limit` elements: the caller asked for a list it can hold.
std::vector<std::int64_t> offsets(const rt::Value& v, std::int64_t limit) {
  const std::int64_t n = size_of(v);
  if (n > limit)
    throw rt::Error(rt::describe(v) + " has " + std::to_string(n) + " elements, more than " + std::to_string(limit) +
                    " to list");
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(n));
  for_each_value(v, [&](std::int64_t o) { out.push_back(o); });
  return out;
}

// ---- diagrams -----------------------------------------------------------------------------

viz::Diagram layout_diagram(const rt::Value& v) {
  using K = rt::Value::Kind;
  if (v.kind != K::Layout && v.kind != K::Swizzled)
    throw viz::Error("cannot draw " + rt::describe(v) + ": only layouts and swizzled layouts Sw o off o L draw");
  const rt::Layout& base = v.kind == K::Layout ? v.layout : v.swizzled.layout;
  viz::check_drawable(base);
  return viz::layout_diagram(v.kind == K::Layout ? viz::grid_function(v.layout) : viz::grid_function(v.swizzled));
}

viz::TvTile tile_of(const rt::Value& t) {
  if (t.kind == rt::Value::Kind::IntTuple) return viz::tile_of_shape(t.tuple);
  if (t.kind == rt::Value::Kind::Layout) return viz::tile_of_layout(t.layout);
  throw viz::Error("the tile is " + rt::describe(t) + ": give a shape (M,N) or a layout (M,N):(s,t)");
}

struct Drawing {
  viz::Diagram diagram;
};

// Renders in one of the formats the CLI writes: text for txt/svg/tex/html, bytes for png/pdf.
py::object render(const Drawing& d, const std::string& format, const std::string& color_by, const std::string& title,
                  const std::string& density) {
  const auto f = viz::format_from_name(format);
  if (!f) throw py::value_error("unknown format '" + format + "': choose txt, svg, tex, png, pdf or html");
  viz::Diagram diagram = d.diagram;
  if (!title.empty()) diagram.title = title;
  if (!color_by.empty()) {
    const auto by = viz::color_by_from_name(color_by);
    if (!by) throw py::value_error("unknown color_by '" + color_by + "': choose thread, warp, value, offset, bank, chunk or box");
    viz::apply_colors(diagram, *by);
  }
  if (density == "heatmap") diagram.density = viz::Density::heatmap;
  else if (density == "labels") diagram.density = viz::Density::labels;
  else if (!density.empty()) throw py::value_error("density must be 'heatmap' or 'labels', not '" + density + "'");
  if (viz::is_text_format(*f)) {
    std::string doc;
    {
      py::gil_scoped_release unlocked;
      doc = viz::render_text(diagram, *f);
    }
    return py::str(doc);
  }
  if (!viz::has_cairo())
    throw py::value_error(std::string(viz::format_name(*f)) + " output needs Cairo, which this build of tessera lacks: use svg or tex");
  std::string doc;
  {
    py::gil_scoped_release unlocked;
    doc = *f == viz::Format::png ? viz::png_document(diagram) : viz::pdf_document(diagram);
  }
  return py::bytes(doc);
}

// ---- atoms ------------------------------------------------------------------------------------

std::string suggestions(const std::string& name, const std::vector<std::string>& known) {
  const auto close = rt::close_matches(name, known);
  if (close.empty()) return "; see tessera.mma_atom_names() and tessera.copy_atom_names()";
  std::string s = "; did you mean: ";
  for (std::size_t i = 0; i < close.size(); ++i) s += (i ? ", " : "") + close[i];
  return s;
}

rt::Layout layout_arg(py::handle h) {
  rt::Value v = value_of(h);
  if (v.kind == rt::Value::Kind::IntTuple) return rt::Layout::column_major(v.tuple);  // a shape: make_layout(shape)
  if (v.kind != rt::Value::Kind::Layout) throw rt::Error("expected a layout, got " + rt::describe(v));
  return v.layout;
}

// (2,2,1), a Layout, or the CLI's "2x2x1".
rt::Layout atom_layout_arg(py::handle h) {
  if (h.is_none()) return rt::Layout::column_major(rt::IntTuple::tuple({1, 1, 1}));
  if (PyUnicode_Check(h.ptr())) {
    const std::string text = h.cast<std::string>();
    if (text.find('x') != std::string::npos) {
      try {
        return rt::parse_atom_layout(text);
      } catch (const rt::Error& e) {
        raise_text_error(e, classes().parse, text);
      }
    }
  }
  return layout_arg(h);
}

// (None, Layout, 32) per mode, or the CLI's "(_,(8,2,2):(1,16,8),_)".
rt::Permutation permutation_arg(py::handle h) {
  rt::Permutation p;
  if (h.is_none()) return p;
  if (PyUnicode_Check(h.ptr())) {
    std::string text = h.cast<std::string>();
    const std::size_t first = text.find_first_not_of(" \t");
    if (first != std::string::npos && text[first] != '(') text = "(" + text + ")";
    try {
      return rt::parse_permutation(text);
    } catch (const rt::Error& e) {
      raise_text_error(e, classes().parse, text);
    }
  }
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
    throw py::type_error("permutation_mnk: give a tuple of up to three entries (None, an extent, or a Layout)");
  const py::sequence s = py::reinterpret_borrow<py::sequence>(h);
  if (s.size() > 3) throw py::value_error("permutation_mnk: at most three entries (M, N, K)");
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i].is_none()) continue;
    if (is_int_like(s[i])) {
      const std::int64_t e = to_int64(s[i]);
      if (e <= 0) throw py::value_error("permutation_mnk: an extent must be positive, got " + std::to_string(e));
      p[i] = rt::Layout(rt::IntTuple(e), rt::IntTuple(1));
    } else {
      p[i] = layout_arg(s[i]);
    }
  }
  return p;
}

template <class F>
auto rt_guard(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const rt::Error& e) {
    raise_call_error(e, class_of(e));
  } catch (const viz::Error& e) {
    raise(classes().error, e.what(), none(), none(), none(), e.what());
  }
}

py::object layout_at(const rt::Layout& l, py::args coord) {
  py::tuple call_args(2);
  call_args[0] = coord.size() == 1 ? py::object(coord[0]) : py::object(coord);
  call_args[1] = py::cast(l);
  return from_value(evaluate_call("crd2idx", py::reinterpret_borrow<py::args>(call_args)));
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "tessera's runtime tier, diagrams and atoms (use the `tessera` package)";
  m.attr("__version__") = TESSERA_VERSION;
  m.attr("has_cairo") = viz::has_cairo();

  m.def("_install", [](py::object error, py::object parse, py::object inadmissible, py::object overflow,
                       py::object int_tuple) {
    classes() = ErrorClasses{std::move(error), std::move(parse), std::move(inadmissible), std::move(overflow),
                             std::move(int_tuple)};
  });
  // Errors raised below the functions that locate them (an overflow inside L(i), a diagram's
  // limit): the right class, no position.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const rt::Error& e) {
      const py::object& cls = class_of(e);
      py::object ex = cls(e.what(), none(), none(), none(), e.what());
      PyErr_SetObject(cls.ptr(), ex.ptr());
    } catch (const viz::Error& e) {
      py::object ex = classes().error(e.what(), none(), none(), none(), e.what());
      PyErr_SetObject(classes().error.ptr(), ex.ptr());
    }
  });

  py::class_<rt::Layout>(m, "Layout")
      // Layout(shape, stride=None) as make_layout, or Layout("(4,2):(1,4)") from text.
      .def(py::init([](py::handle shape, py::handle stride) {
             if (PyUnicode_Check(shape.ptr()) && stride.is_none()) {
               const std::string text = shape.cast<std::string>();
               rt::Value v = value_of(shape);
               if (v.kind != rt::Value::Kind::Layout)
                 throw py::type_error("Layout('" + text + "'): the text is " + rt::describe(v) + ", not a layout");
               return std::move(v.layout);
             }
             py::tuple call_args(stride.is_none() ? 1 : 2);
             call_args[0] = shape;
             if (!stride.is_none()) call_args[1] = stride;
             rt::Value v = evaluate_call("make_layout", py::reinterpret_borrow<py::args>(call_args));
             if (v.kind != rt::Value::Kind::Layout) throw py::type_error("Layout: expected a shape, got " + rt::describe(v));
             return std::move(v.layout);
           }),
           py::arg("shape"), py::arg("stride") = py::none())
      .def_property_readonly("shape", [](const rt::Layout& l) { return from_tuple(l.shape); })
      .def_property_readonly("stride", [](const rt::Layout& l) { return from_tuple(l.stride); })
      .def("__str__", [](const rt::Layout& l) { return rt::to_string(l); })
      .def("__eq__", [](const rt::Layout& a, py::object b) {
        return py::isinstance<rt::Layout>(b) && a == b.cast<const rt::Layout&>();
      })
      .def("__hash__", [](const rt::Layout& l) { return py::hash(py::str(rt::to_string(l))); })
      .def("__call__", &layout_at)
      .def("__len__", [](const rt::Layout& l) { return l.rank(); })
      .def(py::pickle([](const rt::Layout& l) { return rt::to_string(l); },
                      [](const std::string& s) { return rt_guard([&] { return rt::evaluate(s).layout; }); }));

  py::class_<rt::Swizzle>(m, "Swizzle")
      .def(py::init([](py::handle b, py::handle mm, py::handle s) {
             const std::int64_t B = to_int64(b), M = to_int64(mm), S = to_int64(s);
             if (B < INT_MIN || B > INT_MAX || M < INT_MIN || M > INT_MAX || S < INT_MIN || S > INT_MAX)
               throw py::value_error("Swizzle: B, M and S must fit in an int");
             return rt_guard([&] { return rt::Swizzle(int(B), int(M), int(S)); });
           }),
           py::arg("bits"), py::arg("base"), py::arg("shift"))
      .def_property_readonly("num_bits", [](const rt::Swizzle& s) { return s.bits; })
      .def_property_readonly("num_base", [](const rt::Swizzle& s) { return s.base; })
      .def_property_readonly("num_shft", [](const rt::Swizzle& s) { return s.shift; })
      .def("__call__", [](const rt::Swizzle& s, py::handle offset) {
        const std::int64_t o = to_int64(offset);
        return rt_guard([&] { return s(o); });
      })
      .def("__str__", [](const rt::Swizzle& s) { return rt::to_string(s); })
      .def("__eq__", [](const rt::Swizzle& a, py::object b) { return py::isinstance<rt::Swizzle>(b) && a == b.cast<const rt::Swizzle&>(); })
      .def("__hash__", [](const rt::Swizzle& s) { return py::hash(py::str(rt::to_string(s))); })
      .def(py::pickle([](const rt::Swizzle& s) { return py::make_tuple(s.bits, s.base, s.shift); },
                      [](py::tuple t) { return rt::Swizzle(t[0].cast<int>(), t[1].cast<int>(), t[2].cast<int>()); }));

  py::class_<Composed>(m, "ComposedLayout")
      .def_property_readonly("inner", [](const Composed& c) -> py::object {
        if (const auto* s = std::get_if<rt::SwizzledLayout>(&c.v)) return py::cast(s->swizzle);
        return py::cast(std::get<rt::LayoutAfterSwizzle>(c.v).layout);
      })
      .def_property_readonly("offset", [](const Composed& c) {
        return std::visit([](const auto& x) { return x.offset; }, c.v);
      })
      .def_property_readonly("outer", [](const Composed& c) -> py::object {
        if (const auto* s = std::get_if<rt::SwizzledLayout>(&c.v)) return py::cast(s->layout);
        return py::cast(std::get<rt::LayoutAfterSwizzle>(c.v).swizzle);
      })
      .def_property_readonly("_swizzle_outside", &Composed::swizzle_outside)
      .def("__str__", [](const Composed& c) { return std::visit([](const auto& x) { return rt::to_string(x); }, c.v); })
      .def("__eq__", [](const Composed& a, py::object b) {
        return py::isinstance<Composed>(b) && a.v == b.cast<const Composed&>().v;
      })
      .def("__hash__", [](const Composed& c) {
        return py::hash(py::str(std::visit([](const auto& x) { return rt::to_string(x); }, c.v)));
      })
      .def("__call__", [](const Composed& c, py::args coord) -> py::object {
        if (c.swizzle_outside()) {
          py::tuple call_args(2);
          call_args[0] = coord.size() == 1 ? py::object(coord[0]) : py::object(coord);
          call_args[1] = py::cast(c);
          return from_value(evaluate_call("crd2idx", py::reinterpret_borrow<py::args>(call_args)));
        }
        if (coord.size() != 1 || !is_int_like(coord[0]))
          throw py::type_error("L o off o Sw is a function of one integer offset");
        const std::int64_t x = to_int64(coord[0]);
        return rt_guard([&] { return py::int_(std::get<rt::LayoutAfterSwizzle>(c.v)(x)); });
      })
      .def(py::pickle([](const Composed& c) { return std::visit([](const auto& x) { return rt::to_string(x); }, c.v); },
                      [](const std::string& s) {
                        rt::Value v = rt_guard([&] { return rt::evaluate(s); });
                        if (v.kind == rt::Value::Kind::Swizzled) return Composed{v.swizzled};
                        return Composed{v.after_swizzle};
                      }));

  py::class_<rt::Tiler>(m, "Tiler")
      .def("__str__", [](const rt::Tiler& t) { return rt::to_string(t); })
      .def("__len__", [](const rt::Tiler& t) { return t.rank(); })
      .def("__getitem__", [](const rt::Tiler& t, std::int64_t i) -> py::object {
        const auto r = static_cast<std::int64_t>(t.rank());
        if (i < 0) i += r;
        if (i < 0 || i >= r) throw py::index_error("tiler mode " + std::to_string(i) + " does not exist (rank " + std::to_string(r) + ")");
        if (t.is_layout) return py::cast(t.layout);
        const rt::Tiler& e = t.elems[static_cast<std::size_t>(i)];
        if (e.is_layout && e.integral) return py::int_(e.layout.size());
        if (e.is_layout) return py::cast(e.layout);
        return py::cast(e);
      })
      .def_property_readonly("shape", [](const rt::Tiler& t) { return from_tuple(t.shape()); })
      // The tiler as the JSON form sees it: a Layout, or its modes (Layouts and Tilers).
      .def_property_readonly("_form", [](const rt::Tiler& t) -> py::object {
        if (t.is_layout) return py::cast(t.layout);
        py::list out;
        for (const auto& e : t.elems) out.append(e.is_layout ? py::cast(e.layout) : py::cast(e));
        return out;
      })
      .def("__eq__", [](const rt::Tiler& a, py::object b) { return py::isinstance<rt::Tiler>(b) && a == b.cast<const rt::Tiler&>(); })
      .def("__hash__", [](const rt::Tiler& t) { return py::hash(py::str(rt::to_string(t))); });

  m.def("call", [](const std::string& name, py::args args) { return from_value(evaluate_call(name, args)); },
        "Applies the function `name` of `tessera eval` to the arguments.");
  m.def("eval", &eval_text, py::arg("expression"), "Parses and evaluates one expression, as `tessera eval` does.");
  m.def("value", [](py::handle h) { return from_value(value_of(h)); }, "An object or text as the value it stands for.");
  m.def("parse_int_tuple", [](py::handle h) { return from_tuple(tuple_of(h)); });
  m.def("functions", [] {
    py::list out;
    for (const auto& f : rt::functions()) out.append(py::make_tuple(f.name, f.signature, f.summary));
    return out;
  });
  m.def("offsets", [](py::handle h, std::int64_t limit) {
    const rt::Value v = value_of(h);
    return rt_guard([&] {
      const std::vector<std::int64_t> o = offsets(v, limit);
      py::list out(o.size());
      for (std::size_t i = 0; i < o.size(); ++i) out[i] = py::int_(o[i]);
      return out;
    });
  });
  m.def("equal_as_functions", [](py::handle a, py::handle b, std::int64_t limit) {
    const rt::Value x = value_of(a), y = value_of(b);
    return rt_guard([&] {
      if (size_of(x) != size_of(y)) return false;
      return offsets(x, limit) == offsets(y, limit);
    });
  });
  m.def("format_error", [](const std::string& text, std::int64_t column, const std::string& message) {
    return rt::format_error(text, column <= 0 ? rt::npos : static_cast<std::size_t>(column - 1), message);
  });

  py::class_<Drawing>(m, "Drawing")
      .def("render", &render, py::arg("format"), py::arg("color_by") = "", py::arg("title") = "",
           py::arg("density") = "")
      .def_property_readonly("num_cells", [](const Drawing& d) { return d.diagram.num_cells(); })
      .def("write", [](const Drawing&, const std::string& path, py::object content) {
        std::string bytes = py::isinstance<py::bytes>(content) ? std::string(content.cast<py::bytes>())
                                                               : content.cast<std::string>();
        rt_guard([&] { viz::write_file_atomic(path, bytes); });
      });
  m.def("layout_drawing", [](py::handle h) {
    const rt::Value v = value_of(h);
    return rt_guard([&] { return Drawing{layout_diagram(v)}; });
  });
  m.def("layout_cells", [](py::handle h) {
    const rt::Value v = value_of(h);
    return rt_guard([&] {
      const rt::Layout& base = v.kind == rt::Value::Kind::Swizzled ? v.swizzled.layout : v.layout;
      if (v.kind != rt::Value::Kind::Layout && v.kind != rt::Value::Kind::Swizzled)
        throw viz::Error("cannot draw " + rt::describe(v));
      return base.size();
    });
  });
  m.def("tv_drawing", [](py::handle tv, py::handle tile) {
    const rt::Value t = value_of(tv), s = value_of(tile);
    return rt_guard([&] {
      if (t.kind != rt::Value::Kind::Layout)
        throw viz::Error("a TV map is a layout ((threads),(values)):(...), not " + rt::describe(t));
      return Drawing{viz::tv_diagram(viz::tv_of_layout(t.layout), tile_of(s))};
    });
  });
  m.def("tv_cells", [](py::handle tv, py::handle tile) {
    const rt::Value t = value_of(tv), s = value_of(tile);
    return rt_guard([&] {
      if (t.kind != rt::Value::Kind::Layout)
        throw viz::Error("a TV map is a layout ((threads),(values)):(...), not " + rt::describe(t));
      const viz::TvTile tt = tile_of(s);
      return py::make_tuple(t.layout.size(), tt.rows(), tt.cols(), tt.text);
    });
  });
  m.def("gmma_layout_atom", [](const std::string& name) -> py::object {
    try {
      const auto spec = tessera::analysis::parse_gmma_atom_name(name);
      if (!spec) return none();
      return py::cast(Composed{tessera::analysis::gmma_layout_atom(*spec)});
    } catch (const rt::Error& e) {
      raise_text_error(e, classes().parse, name);
    }
  });

  // Atoms: the registry's entries live as long as the program (static vectors).
  py::class_<rt::MmaAtomInfo>(m, "MmaAtom")
      .def_readonly("name", &rt::MmaAtomInfo::name)
      .def_readonly("arch", &rt::MmaAtomInfo::arch)
      .def_readonly("types", &rt::MmaAtomInfo::types)
      .def_property_readonly("shape_mnk", [](const rt::MmaAtomInfo& a) { return classes().int_tuple(py::make_tuple(a.m, a.n, a.k)); })
      .def_readonly("thr_id", &rt::MmaAtomInfo::thr_id)
      .def_readonly("tv_layout_A", &rt::MmaAtomInfo::a_tv)
      .def_readonly("tv_layout_B", &rt::MmaAtomInfo::b_tv)
      .def_readonly("tv_layout_C", &rt::MmaAtomInfo::c_tv)
      .def_readonly("a_bits", &rt::MmaAtomInfo::a_bits)
      .def_readonly("b_bits", &rt::MmaAtomInfo::b_bits)
      .def_readonly("a_smem", &rt::MmaAtomInfo::a_smem)
      .def_readonly("b_smem", &rt::MmaAtomInfo::b_smem)
      .def_property_readonly("num_threads", [](const rt::MmaAtomInfo& a) { return a.thr_id.size(); });
  py::class_<rt::CopyAtomInfo>(m, "CopyAtom")
      .def_readonly("name", &rt::CopyAtomInfo::name)
      .def_readonly("arch", &rt::CopyAtomInfo::arch)
      .def_readonly("smem_side", &rt::CopyAtomInfo::smem_side)
      .def_readonly("default_bits", &rt::CopyAtomInfo::default_bits)
      .def_readonly("thr_id", &rt::CopyAtomInfo::thr_id)
      .def_readonly("layout_src_tv_bits", &rt::CopyAtomInfo::src_bits)
      .def_readonly("layout_dst_tv_bits", &rt::CopyAtomInfo::dst_bits)
      .def_readonly("layout_ref_tv_bits", &rt::CopyAtomInfo::ref_bits)
      .def_property_readonly("num_threads", [](const rt::CopyAtomInfo& a) { return a.thr_id.size(); });
  m.def("mma_atom", [](const std::string& name) {
    const rt::MmaAtomInfo* a = rt::find_mma(name);
    if (!a) throw py::key_error("unknown MMA atom '" + name + "'" + suggestions(name, rt::mma_names()));
    return a;
  }, py::return_value_policy::reference);
  m.def("copy_atom", [](const std::string& name) {
    const rt::CopyAtomInfo* a = rt::find_copy(name);
    if (!a) throw py::key_error("unknown copy atom '" + name + "'" + suggestions(name, rt::copy_names()));
    return a;
  }, py::return_value_policy::reference);
  m.def("mma_atom_names", [] {
    py::list out;
    for (const auto& n : rt::mma_names()) out.append(n);
    return out;
  });
  m.def("copy_atom_names", [] {
    py::list out;
    for (const auto& n : rt::copy_names()) out.append(n);
    return out;
  });

  py::class_<rt::TiledMma>(m, "TiledMma", py::dynamic_attr())
      .def_property_readonly("atom", [](const rt::TiledMma& t) { return t.atom; }, py::return_value_policy::reference)
      .def_readonly("atom_layout_mnk", &rt::TiledMma::atom_layout)
      .def_property_readonly("permutation_mnk", [](const rt::TiledMma& t) {
        py::tuple out(3);
        for (std::size_t i = 0; i < 3; ++i) out[i] = t.perm[i] ? py::cast(*t.perm[i]) : none();
        return out;
      })
      .def_readonly("thr_layout_vmnk", &rt::TiledMma::thr_layout_vmnk)
      .def_property_readonly("tile_shape_mnk", [](const rt::TiledMma& t) {
        return classes().int_tuple(py::make_tuple(t.tile[0], t.tile[1], t.tile[2]));
      })
      .def_readonly("tv_layout_A_tiled", &rt::TiledMma::layout_a_tv)
      .def_readonly("tv_layout_B_tiled", &rt::TiledMma::layout_b_tv)
      .def_readonly("tv_layout_C_tiled", &rt::TiledMma::layout_c_tv)
      .def_property_readonly("size", &rt::TiledMma::num_threads)
      .def("_drawing", [](const rt::TiledMma& t, const std::string& name, const std::string& only) {
        return rt_guard([&] {
          viz::MmaTvLayouts l = viz::mma_tv_layouts(t, name);
          if (!only.empty()) {
            l.show_a = only.find('A') != std::string::npos;
            l.show_b = only.find('B') != std::string::npos;
            l.show_c = only.find('C') != std::string::npos;
          }
          return Drawing{viz::mma_diagram(l)};
        });
      });
  m.def("make_tiled_mma", [](const rt::MmaAtomInfo& atom, py::handle atom_layout, py::handle permutation) {
    const rt::Layout al = atom_layout_arg(atom_layout);
    const rt::Permutation p = permutation_arg(permutation);
    return rt_guard([&] { return rt::make_tiled_mma(atom, al, p); });
  });

  py::class_<rt::TiledCopy>(m, "TiledCopy", py::dynamic_attr())
      .def_property_readonly("atom", [](const rt::TiledCopy& c) { return c.atom.atom; }, py::return_value_policy::reference)
      .def_property_readonly("bits", [](const rt::TiledCopy& c) { return c.atom.bits; })
      .def_readonly("layout_tv", &rt::TiledCopy::layout_tv)
      .def_property_readonly("tiler_mn", [](const rt::TiledCopy& c) { return from_tuple(c.tiler); })
      .def_readonly("layout_src_tv_tiled", &rt::TiledCopy::layout_s_tv)
      .def_readonly("layout_dst_tv_tiled", &rt::TiledCopy::layout_d_tv)
      .def_property_readonly("size", &rt::TiledCopy::num_threads)
      .def("_drawing", [](const rt::TiledCopy& c, const std::string& name) {
        return rt_guard([&] { return Drawing{viz::copy_diagram(viz::copy_tv_layouts(c, name))}; });
      });
  m.def("make_tiled_copy_tv", [](const rt::CopyAtomInfo& atom, int bits, py::handle thr, py::handle val) {
    const rt::Layout t = layout_arg(thr), v = layout_arg(val);
    return rt_guard([&] { return rt::make_tiled_copy(rt::copy_atom_view(atom, bits), t, v); });
  });
  m.def("make_tiled_copy_for", [](const rt::CopyAtomInfo& atom, int bits, const rt::TiledMma& mma, char operand) {
    return rt_guard([&] { return rt::make_tiled_copy_for(rt::copy_atom_view(atom, bits), mma, operand); });
  });
}
