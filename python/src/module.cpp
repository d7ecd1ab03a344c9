// The `tessera._core` extension: thin pybind11 bindings over the runtime tier (rt), the
// diagram library (viz) and the atom registry. No algebra here: every operation goes
// through rt::evaluate, the evaluator `tessera eval` uses, so results, refusals and
// messages are eval's to the letter. The Python package (python/tessera) adds the
// CuTe DSL-style functions, methods and pictures on top.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "array_protocols.hpp"
#include "fastcall.hpp"
#include "attention_spec.hpp"
#include "gemm_spec.hpp"
#include "grouped_spec.hpp"
#include "tessera/analysis/banks.hpp"
#include "tessera/analysis/coalescing.hpp"
#include "tessera/analysis/gmma_atoms.hpp"
#include "tessera/analysis/report.hpp"
#include "../../src/epilogue_check/epilogue_check.hpp"
#include "tessera/rt/atom_registry.hpp"
#include "tessera/rt/epilogue_tree.hpp"
#include "tessera/rt/error.hpp"
#include "tessera/rt/eval.hpp"
#include "tessera/rt/json.hpp"
#include "tessera/rt/parse.hpp"
#include "tessera/rt/parsed_expression.hpp"
#include "tessera/rt/tiled.hpp"
#include "tessera/testing/claims.hpp"
#include "tessera/viz/atom_diagrams.hpp"
#include "tessera/viz/backends.hpp"
#include "tessera/viz/build_banks.hpp"
#include "tessera/viz/build_coalescing.hpp"
#include "tessera/viz/build_tma.hpp"
#include "tessera/viz/diff.hpp"
#include "tessera/viz/epilogue_tree.hpp"
#include "tessera/viz/explain.hpp"
#include "tessera/viz/layout_grid.hpp"
#include "tessera/verify/diagram.hpp"
#include "tessera/verify/report.hpp"
#include "tessera/verify/trace.hpp"
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

// A Layout result as its Python object: what py::cast(std::move(l)) makes, with the class's
// pybind11 record looked up once instead of per result (by a hash of the type's name). The
// call below is an internal one of pybind11 2 (what its py::cast calls); elsewhere, py::cast.
py::object from_layout(rt::Layout&& l) {
#if PYBIND11_VERSION_MAJOR == 2
  static const py::detail::type_info* const record = py::detail::get_type_info(typeid(rt::Layout));
  const auto move = [](const void* p) -> void* {
    return new rt::Layout(std::move(*const_cast<rt::Layout*>(static_cast<const rt::Layout*>(p))));
  };
  return py::reinterpret_steal<py::object>(
      py::detail::type_caster_generic::cast(&l, py::return_value_policy::move, {}, record, nullptr, move));
#else
  return py::cast(std::move(l));
#endif
}

py::object from_value(rt::Value v) {
  using K = rt::Value::Kind;
  switch (v.kind()) {
    case K::IntTuple: return from_tuple(v.tuple());
    case K::Layout: return from_layout(std::move(v.layout()));
    case K::Tiler: return py::cast(std::move(v.tiler()));
    case K::Swizzled: return py::cast(Composed{std::move(v.swizzled())});
    case K::Swizzle: return py::cast(v.swizzle());
    case K::LayoutAfterSwizzle: return py::cast(Composed{std::move(v.after_swizzle())});
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

// Text parsed once, without an rt::Node tree: parse errors and unknown names are ParseError
// (as parse_text reports them), the evaluation's errors those of their kind.
rt::Value evaluate_text(std::string_view text) {
  std::optional<rt::ParsedExpression> parsed;
  try {
    parsed.emplace(text);
    parsed->check_function_names();
  } catch (const rt::Error& e) {
    raise_text_error(e, classes().parse, text);
  }
  try {
    return parsed->evaluate();
  } catch (const rt::Error& e) {
    raise_text_error(e, class_of(e), text);
  }
}

// (The text is borrowed from the Python str, which lives through the call.)
py::object eval_text(std::string_view text) { return from_value(evaluate_text(text)); }

// eval(expression) as CPython calls it (METH_FASTCALL | METH_KEYWORDS): a str, positional or
// as `expression=`, goes straight to eval_text. pybind11's dispatch (argument casters, an
// argument vector allocated per call) cost a sixth of a short expression's time. Anything
// else (bytes, a wrong type or keyword, a str that is not UTF-8) and any exception that is
// not already a Python error are handed to the pybind11 binding of the same function, which
// gives its conversions, TypeError messages and exception translation unchanged
// (evaluation has no side effect, so running it again there is the same call).
py::object& eval_binding() {
  static py::object* f = new py::object;  // never destroyed: outlives the interpreter's teardown
  return *f;
}

PyObject* eval_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* text = nullptr;
  if (kwnames == nullptr || PyTuple_GET_SIZE(kwnames) == 0) {
    if (nargs == 1) text = args[0];
  } else if (nargs == 0 && PyTuple_GET_SIZE(kwnames) == 1 &&
             PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "expression") == 0) {
    text = args[0];
  }
  if (text != nullptr && PyUnicode_Check(text)) {
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(text, &size);
    if (utf8 != nullptr) {
      try {
        return eval_text(std::string_view(utf8, static_cast<std::size_t>(size))).release().ptr();
      } catch (py::error_already_set& e) {
        e.restore();
        return nullptr;
      } catch (...) {
      }
    }
    PyErr_Clear();
  }
  return PyObject_Vectorcall(eval_binding().ptr(), args, static_cast<std::size_t>(nargs), kwnames);
}

// Any single value given from Python (an object or text) as the runtime value it stands for.
rt::Value value_of(py::handle h) {
  if (py::isinstance<rt::Layout>(h)) return rt::Value::of(h.cast<rt::Layout>());
  if (PyUnicode_Check(h.ptr())) return evaluate_text(h.cast<std::string>());
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
  if (v.kind() == K::Layout) return rt::for_each_offset(v.layout(), f);
  if (v.kind() == K::Swizzled) {
    const rt::SwizzledLayout& s = v.swizzled();
    return rt::for_each_offset(s.layout, [&](std::int64_t off) { f(s.swizzle(rt::checked_add(s.offset, off, "offset"))); });
  }
  throw rt::Error("expected a layout or a swizzled layout Sw o off o L, got " + rt::describe(v));
}

std::int64_t size_of(const rt::Value& v) {
  using K = rt::Value::Kind;
  if (v.kind() == K::Layout) return v.layout().size();
  if (v.kind() == K::Swizzled) return v.swizzled().size();
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
  if (v.kind() != K::Layout && v.kind() != K::Swizzled)
    throw viz::Error("cannot draw " + rt::describe(v) + ": only layouts and swizzled layouts Sw o off o L draw");
  const rt::Layout& base = v.kind() == K::Layout ? v.layout() : v.swizzled().layout;
  viz::check_drawable(base);
  return viz::layout_diagram(v.kind() == K::Layout ? viz::grid_function(v.layout()) : viz::grid_function(v.swizzled()));
}

viz::TvTile tile_of(const rt::Value& t) {
  if (t.kind() == rt::Value::Kind::IntTuple) return viz::tile_of_shape(t.tuple());
  if (t.kind() == rt::Value::Kind::Layout) return viz::tile_of_layout(t.layout());
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
#ifdef TESSERA_HAS_CAIRO
  std::string doc;
  {
    py::gil_scoped_release unlocked;
    doc = *f == viz::Format::png ? viz::png_document(diagram) : viz::pdf_document(diagram);
  }
  return py::bytes(doc);
#else
  // (the Cairo backend is compiled only where Cairo is found: without it there is nothing to call)
  throw py::value_error(std::string(viz::format_name(*f)) + " output needs Cairo, which this build of tessera lacks: use svg or tex");
#endif
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
  if (v.kind() == rt::Value::Kind::IntTuple) return rt::Layout::column_major(v.tuple());  // a shape: make_layout(shape)
  if (v.kind() != rt::Value::Kind::Layout) throw rt::Error("expected a layout, got " + rt::describe(v));
  return v.layout();
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

// ---- bank conflicts and coalescing (tessera banks / tessera gmem) -----------------------------

// A memory tile with an access and its analysis: what `tessera banks` or `tessera gmem`
// computes, kept whole so that its text, JSON and drawing come from the same C++ as the CLI's.
struct MemoryReport {
  rt::Value layout;  // the tile as given: a layout or a swizzled layout
  tessera::analysis::MemoryTile tile;
  tessera::analysis::TvAccess access;
  int bits = 16;
  std::variant<tessera::analysis::BankAnalysis, tessera::analysis::CoalescingAnalysis> analysis;
};

// The checks `tessera banks`/`gmem` make on their arguments, with the Python argument names.
MemoryReport memory_report(py::handle layout, py::handle tv, py::handle vec, py::handle copy, py::handle side,
                           py::handle bits, bool smem, std::int64_t base) {
  namespace an = tessera::analysis;
  const std::string memory = smem ? "shared-memory" : "global-memory";
  MemoryReport r;
  r.layout = value_of(layout);
  return rt_guard([&] {
    if (r.layout.kind() == rt::Value::Kind::Layout) r.tile = an::memory_tile(r.layout.layout(), memory);
    else if (r.layout.kind() == rt::Value::Kind::Swizzled) r.tile = an::memory_tile(r.layout.swizzled(), memory);
    else
      throw rt::Error("the " + memory + " tile must be a layout (M,N):(s,t), possibly swizzled (Sw<B,M,S> o ...), not " +
                      rt::describe(r.layout));
    std::int64_t cells = 0;
    if (__builtin_mul_overflow(r.tile.rows(), r.tile.cols(), &cells) || cells > an::max_analysed_cells)
      throw rt::Error("the " + memory + " tile has " + std::to_string(r.tile.rows()) + "x" +
                      std::to_string(r.tile.cols()) + " cells, more than tessera analyses (" +
                      std::to_string(an::max_analysed_cells) + ")");
    const bool raw = !tv.is_none();
    if (raw == !copy.is_none())
      throw rt::Error(raw ? "give either tv= or access=, not both"
                          : "give the access: tv= a TV layout (thread,value) -> tile index, or access= a TiledCopy");
    if (raw) {
      if (!side.is_none()) throw rt::Error("side= goes with access= (a TiledCopy), not tv=");
      const std::int64_t v = vec.is_none() ? 1 : to_int64(vec);
      if (v <= 0 || v > INT_MAX) throw rt::Error("vec must be a positive number of values per access, not " + std::to_string(v));
      const rt::Layout t = layout_arg(tv);
      if (t.rank() != 2 || t.shape.is_leaf()) throw rt::Error("tv must have two modes, (threads,values) -> tile index");
      r.access = an::access_of_tv(t, r.tile.rows(), r.tile.cols(), int(v));
      r.bits = bits.is_none() ? 16 : int(std::clamp<std::int64_t>(to_int64(bits), -1, 1 << 20));
    } else {
      if (!vec.is_none()) throw rt::Error("vec= goes with tv=; with access= the copy atom sets the access width");
      if (!py::isinstance<rt::TiledCopy>(copy))
        throw rt::Error("access= is a TiledCopy (make_tiled_copy, make_tiled_copy_A, ...), not a " +
                        std::string(Py_TYPE(copy.ptr())->tp_name));
      const rt::TiledCopy& c = copy.cast<const rt::TiledCopy&>();
      bool source = smem ? c.atom.atom->smem_side != "dst" : true;
      if (!side.is_none()) {
        const std::string s = py::str(side);
        if (s != "src" && s != "dst") throw rt::Error("side must be 'src' or 'dst', not '" + s + "'");
        source = s == "src";
      }
      r.access = smem ? an::access_of_copy(c, source) : an::gmem_access_of_copy(c, source);
      r.bits = bits.is_none() ? c.atom.bits : int(std::clamp<std::int64_t>(to_int64(bits), -1, 1 << 20));
    }
    if (r.bits <= 0 || r.bits % 8 != 0 || r.bits > 128)
      throw rt::Error("bits must be 8, 16, 32, 64 or 128 (a multiple of 8 up to 128), not " + std::to_string(r.bits));
    const auto& a = r.access;
    if (a.tile_m > 0 && a.tile_n > 0 && r.tile.rows() % a.tile_m == 0 && r.tile.cols() % a.tile_n == 0) {
      std::int64_t work = 0;
      const std::int64_t reps = (r.tile.rows() / a.tile_m) * (r.tile.cols() / a.tile_n);
      if (__builtin_mul_overflow(reps, a.tv.size(), &work) || work > an::max_analysed_cells)
        throw rt::Error("the access visits " + std::to_string(reps) + " copy tiles x " + std::to_string(a.tv.size()) +
                        " (thread,value) pairs, more than tessera analyses (" + std::to_string(an::max_analysed_cells) + ")");
    }
    py::gil_scoped_release unlocked;
    if (smem) r.analysis = an::analyze_banks(r.tile, r.access, r.bits);
    else r.analysis = an::analyze_coalescing(r.tile, r.access, r.bits, base);
    return r;
  });
}

bool is_banks(const MemoryReport& r) { return r.analysis.index() == 0; }

std::string report_text(const MemoryReport& r, bool summary_only) {
  if (is_banks(r)) return tessera::analysis::banks_text(r.tile, r.access, r.bits, std::get<0>(r.analysis), summary_only);
  return tessera::analysis::gmem_text(r.tile, r.access, r.bits, std::get<1>(r.analysis), summary_only);
}

std::string report_json(const MemoryReport& r, bool summary_only) {
  if (is_banks(r))
    return rt::json::dump(
        tessera::analysis::banks_json(r.layout, r.tile, r.access, r.bits, std::get<0>(r.analysis), summary_only));
  return rt::json::dump(
      tessera::analysis::gmem_json(r.layout, r.tile, r.access, r.bits, std::get<1>(r.analysis), summary_only));
}

// The tile drawn by bank (banks) or by sector (gmem), as `-o FILE` draws it.
viz::Diagram report_diagram(const MemoryReport& r) {
  if (is_banks(r)) return viz::banks_diagram(r.tile, r.bits, std::get<0>(r.analysis));
  return viz::coalescing_diagram(r.tile, r.bits, std::get<1>(r.analysis));
}

// ---- TMA arguments (tessera tma) ----------------------------------------------------------------

struct TmaReport {
  rt::Layout gmem;
  rt::SwizzledLayout smem;
  int bits = 16;
  tessera::tma::Arguments arguments;
};

// As `tessera tma GMEM SMEM [--bits] [--box]`: SMEM a layout, a swizzled layout or a GMMA atom
// name (which sets the width). A refusal names TMA's rule and the argument it is about.
TmaReport tma_report(py::handle gmem, py::handle smem, py::handle bits, py::handle box) {
  namespace an = tessera::analysis;
  TmaReport r;
  r.gmem = layout_arg(gmem);
  const std::int64_t b = bits.is_none() ? 0 : to_int64(bits);
  if (b < 0 || b > 1024) throw py::value_error("bits must be 8, 16, 32 or 64, not " + std::to_string(b));
  r.bits = int(b);
  std::optional<an::GmmaAtomSpec> atom;
  if (PyUnicode_Check(smem.ptr())) {
    const std::string name = smem.cast<std::string>();
    try {
      atom = an::parse_gmma_atom_name(name);
    } catch (const rt::Error& e) {
      raise_text_error(e, classes().parse, name);
    }
  }
  if (atom) {
    r.smem = an::gmma_layout_atom(*atom);
    if (r.bits != 0 && r.bits != atom->bits)
      throw py::value_error("bits=" + std::to_string(r.bits) + " contradicts the atom's " + std::to_string(atom->bits) +
                            "-bit elements");
    r.bits = atom->bits;
  } else {
    const rt::Value v = value_of(smem);
    if (v.kind() == rt::Value::Kind::Swizzled) r.smem = v.swizzled();
    else if (v.kind() == rt::Value::Kind::Layout) r.smem = rt::SwizzledLayout{rt::Swizzle(0, 0, 0), v.layout()};
    else
      throw py::type_error("smem must be a layout, a swizzled layout Sw<B,M,S> o L or a GMMA atom name, not " +
                           rt::describe(v));
  }
  if (r.bits == 0) r.bits = 16;
  std::vector<std::int64_t> dims;
  if (!box.is_none()) {
    const rt::IntTuple t = tuple_of(box);
    if (t.is_leaf()) dims.push_back(t.value());
    else
      for (const auto& e : t.elems()) {
        if (!e.is_leaf()) throw py::value_error("box entries are integers, one per gmem mode (0: derive it)");
        dims.push_back(e.value());
      }
  }
  return rt_guard([&] {
    r.arguments = an::derive_tma_arguments(r.gmem, r.smem, r.bits, dims);
    if (r.arguments.rule != tessera::tma::Rule::ok)
      throw rt::Error(an::tma_refusal(r.arguments), an::tma_rule_is_gmem(r.arguments.rule) ? 1 : 2);
    return r;
  });
}

// ---- explain and verify (tessera explain / tessera verify) --------------------------------------

// A verification as `tessera verify TRACE [--map M] [--max N]` makes it: the trace, the report
// (focused on one map when asked) and the map a diff drawing shows.
struct Verification {
  std::string name;  // how the trace was given (its path), as the report's "trace"
  tessera::verify::Trace trace;
  tessera::verify::Report report;
  std::ptrdiff_t focus = -1;  // index into trace.maps of the map drawn; -1: none
};

// A malformed trace: ParseError with the reader's file:line:col message and caret.
[[noreturn]] void raise_trace_error(const tessera::verify::TraceError& e) {
  std::string display = e.what();
  if (display.rfind("error: ", 0) == 0) display.erase(0, 7);
  while (!display.empty() && display.back() == '\n') display.pop_back();
  raise(classes().parse, e.message(), none(), py::int_(e.column()), none(), display);
}

Verification verification(tessera::verify::Trace trace, std::string name, std::int64_t max, const std::string& map) {
  if (max < 0 || max > 999999999) throw py::value_error("max takes a count from 0 to 999999999, not " + std::to_string(max));
  Verification v{std::move(name), std::move(trace), {}, -1};
  return rt_guard([&] {
    v.report = tessera::verify::verify(v.trace, std::size_t(max));
    const tessera::verify::Map* m = tessera::verify::focus(v.trace, v.report, map, v.name);
    if (m) v.focus = m - v.trace.maps.data();
    return std::move(v);
  });
}

// ---- diff (tessera diff) -----------------------------------------------------------------------

// Two layouts, or two TV maps over a tile, compared as `tessera diff A B [--tv TILE]` does.
struct DiffResult {
  viz::DiffVerdict verdict;
  std::optional<rt::Value> a, b;            // layouts
  std::optional<viz::DiffTv> tv_a, tv_b;    // TV maps over `tile`
  std::optional<viz::TvTile> tile;
};

// A layout operand: a layout, a swizzled layout, or a shape (its column-major layout).
rt::Value diff_operand(py::handle h, const char* what) {
  rt::Value v = value_of(h);
  if (v.kind() == rt::Value::Kind::IntTuple) {
    if (rt::has_underscore(v.tuple())) throw py::value_error(std::string(what) + " holds _ (None), which is not a shape");
    for (auto x : rt::leaves(v.tuple()))
      if (x <= 0) throw py::value_error(std::string(what) + " is a tuple with a non-positive entry, not a shape");
    return rt::Value::of(rt::Layout::column_major(v.tuple()));
  }
  if (v.kind() != rt::Value::Kind::Layout && v.kind() != rt::Value::Kind::Swizzled)
    throw py::type_error(std::string(what) + " is " + rt::describe(v) +
                         ": diff compares layouts (shape:stride), swizzled layouts or, with tv=, TV layouts");
  return v;
}

DiffResult diff_result(py::handle a, py::handle b, py::handle tile, std::int64_t max) {
  if (max < 0 || max > 999999999) throw py::value_error("max takes a count from 0 to 999999999, not " + std::to_string(max));
  DiffResult r;
  if (tile.is_none()) {
    r.a = diff_operand(a, "A");
    r.b = diff_operand(b, "B");
    return rt_guard([&] {
      r.verdict = viz::diff_layouts(*r.a, *r.b, max);
      return std::move(r);
    });
  }
  const rt::Value t = value_of(tile), va = value_of(a), vb = value_of(b);
  for (const auto& [v, what] : {std::pair{&va, "A"}, std::pair{&vb, "B"}})
    if (v->kind() != rt::Value::Kind::Layout)
      throw py::type_error(std::string("tv= compares TV layouts ((threads),(values)):(...), but ") + what + " is " +
                           rt::describe(*v));
  return rt_guard([&] {
    r.tile = tile_of(t);
    if (r.tile->rows() * r.tile->cols() > viz::diff_compare_limit)
      throw rt::Error("the tile has " + std::to_string(r.tile->rows() * r.tile->cols()) +
                      " indices, more than diff compares (" + std::to_string(viz::diff_compare_limit) + ")");
    for (int k = 0; k < 2; ++k) {
      try {
        (k == 0 ? r.tv_a : r.tv_b) = viz::diff_tv_operand(k == 0 ? va.layout() : vb.layout(), *r.tile);
      } catch (const viz::Error& e) {
        throw rt::Error(std::string(k == 0 ? "A: " : "B: ") + e.what(), std::size_t(k + 1));
      }
    }
    r.verdict = viz::diff_tv(*r.tv_a, *r.tv_b, max);
    return std::move(r);
  });
}

// ---- epilogue trees (tessera epilogue) -------------------------------------------------------

// A tree read from text as `tessera epilogue TREE` reads it: its text, C++ type, JSON and
// drawings are the CLI's C++ (rt/epilogue_tree.hpp, viz/epilogue_tree.hpp), its check the
// CLI's host check (src/epilogue_check).
struct EpilogueTreeValue {
  rt::epilogue::Tree tree;
};

EpilogueTreeValue epilogue_tree(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    const std::string msg = "the tree is empty: give one, e.g. 'store(bf16, relu(acc))'";
    raise(classes().parse, msg, py::str(text), none(), none(), msg);
  }
  try {
    return EpilogueTreeValue{rt::epilogue::parse_tree(text)};
  } catch (const rt::Error& e) {
    raise_text_error(e, classes().parse, text);
  }
}

// The drawing in txt, svg, html or tex (the formats `tessera epilogue -o` writes).
std::string epilogue_document(const EpilogueTreeValue& t, const std::string& format, const std::string& title) {
  const auto f = viz::format_from_name(format);
  if (!f) throw py::value_error("unknown format '" + format + "': choose txt, svg, tex or html");
  if (*f == viz::Format::png || *f == viz::Format::pdf)
    throw py::value_error("an epilogue tree is drawn as txt, svg, tex or html, not " + std::string(viz::format_name(*f)));
  py::gil_scoped_release unlocked;
  switch (*f) {
    case viz::Format::svg: return viz::epilogue_tree_svg(t.tree, title);
    case viz::Format::html: return viz::epilogue_tree_html(t.tree, title);
    case viz::Format::tex: return viz::epilogue_tree_tikz(t.tree, title);
    default: return (title.empty() ? "" : title + "\n") + viz::epilogue_tree_text(t.tree);
  }
}

// The host check on an m x n tile: [(name, kind, type, count, max_error, worst_ratio,
// bound_at_worst, pass)], the CLI's --check (worst_ratio inf where a value is NaN or infinite
// and the math is finite).
py::list epilogue_check(const EpilogueTreeValue& t, std::int64_t m, std::int64_t n, std::uint64_t seed) {
  if (m < 1 || n < 1 || m > 4096 || n > 4096 || m * n > (std::int64_t(1) << 22))
    throw py::value_error("the check takes a tile m x n of 1 to 4096 rows and columns, at most 4194304 elements, not " +
                          std::to_string(m) + " x " + std::to_string(n));
  std::vector<tessera::epilogue_check::OutputCheck> checks;
  {
    py::gil_scoped_release unlocked;
    namespace ec = tessera::epilogue_check;
    const ec::Inputs in = ec::generate_inputs(t.tree, m, n, seed);
    checks = ec::compare(ec::emulate(t.tree, in), ec::reference(t.tree, in));
  }
  py::list out;
  for (const auto& c : checks)
    out.append(py::make_tuple(c.name, c.kind, c.type, c.count, c.max_error, c.worst_ratio, c.bound_at_worst, c.pass));
  return out;
}

// The drawing `tessera diff -o FILE` writes: the verdict as its last note.
viz::Diagram diff_diagram(const DiffResult& r, int width) {
  viz::Diagram d = r.tile ? viz::diff_tv_diagram(*r.tv_a, *r.tv_b, *r.tile) : viz::diff_layouts_diagram(*r.a, *r.b);
  d.text_side_by_side_width = width;
  viz::add_diff_notes(d, r.verdict, true);
  return d;
}

// ---- the testing kit's claims (the sentences of its C++ matchers) -----------------------------

tessera::testing::LayoutArg claim_arg(py::handle h, const char* what) {
  const rt::Value v = value_of(h);
  if (v.kind() == rt::Value::Kind::Layout) return v.layout();
  if (v.kind() == rt::Value::Kind::Swizzled) return v.swizzled();
  throw py::type_error(std::string(what) + " must be a layout or a swizzled layout Sw o off o L, not " + rt::describe(v));
}

// "" when `layout` satisfies the claim `name` (with its argument), else the C++ matcher's
// sentence "<claim>; but <first counterexample>".
std::string verify_claim(const std::string& name, py::handle layout, py::handle arg) {
  namespace t = tessera::testing;
  const t::LayoutArg l = claim_arg(layout, "the layout");
  auto number = [&] { return to_int64(arg); };
  if (name == "injective") return t::IsInjectiveClaim{}.verify(l);
  if (name == "bijective") return t::IsBijectiveClaim{}.verify(l);
  if (name == "compact") return t::IsCompactClaim{}.verify(l);
  if (name == "surjective_onto") return t::IsSurjectiveOntoClaim(number()).verify(l);
  if (name == "has_cosize") return t::HasCosizeClaim(number()).verify(l);
  if (name == "equal_as_functions") return t::EqualsFunctionClaim(claim_arg(arg, "the expected layout")).verify(l);
  if (name == "equals_exactly") return t::EqualsExactlyClaim(claim_arg(arg, "the expected layout")).verify(l);
  if (name == "covers_tile_once") {
    const rt::Value tile = value_of(arg);
    if (tile.kind() != rt::Value::Kind::IntTuple) throw py::type_error("the tile is a shape such as (16,8), not " + rt::describe(tile));
    return t::CoversTileOnceClaim(tile.tuple()).verify(l);
  }
  throw py::value_error("unknown claim '" + name + "'");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "tessera's runtime tier, diagrams and atoms (use the `tessera` package)";
  m.attr("__version__") = TESSERA_VERSION;
  m.attr("has_cairo") = viz::has_cairo();
  m.attr("cell_limit") = viz::cell_limit;
  m.attr("hard_cell_limit") = viz::hard_cell_limit;

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
               if (v.kind() != rt::Value::Kind::Layout)
                 throw py::type_error("Layout('" + text + "'): the text is " + rt::describe(v) + ", not a layout");
               return std::move(v.layout());
             }
             py::tuple call_args(stride.is_none() ? 1 : 2);
             call_args[0] = shape;
             if (!stride.is_none()) call_args[1] = stride;
             rt::Value v = evaluate_call("make_layout", py::reinterpret_borrow<py::args>(call_args));
             if (v.kind() != rt::Value::Kind::Layout) throw py::type_error("Layout: expected a shape, got " + rt::describe(v));
             return std::move(v.layout());
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
                      [](const std::string& s) { return rt_guard([&] { return rt::evaluate(s).layout(); }); }));

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
                        if (v.kind() == rt::Value::Kind::Swizzled) return Composed{v.swizzled()};
                        return Composed{v.after_swizzle()};
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
  {
    // The text signature first (inspect.signature reads it), then what help() shows.
    static constexpr char signature[] = "eval(expression)\n--\n\n";
    static constexpr char doc[] =
        "eval(expression)\n--\n\n"
        "Evaluates one expression exactly as ``tessera eval`` does and returns the result:\n"
        "``str(eval(e))`` is the line ``tessera eval`` prints.";
    eval_binding() = py::cpp_function(&eval_text, py::name("eval"), py::arg("expression"), doc + sizeof signature - 1);
    static PyMethodDef def{"eval", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&eval_entry)),
                           METH_FASTCALL | METH_KEYWORDS, doc};
    const py::object module_name = m.attr("__name__");
    PyObject* f = PyCFunction_NewEx(&def, nullptr, module_name.ptr());
    if (f == nullptr) throw py::error_already_set();
    m.add_object("eval", py::reinterpret_steal<py::object>(f));
  }
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
      const rt::Layout& base = v.kind() == rt::Value::Kind::Swizzled ? v.swizzled().layout : v.layout();
      if (v.kind() != rt::Value::Kind::Layout && v.kind() != rt::Value::Kind::Swizzled)
        throw viz::Error("cannot draw " + rt::describe(v));
      return base.size();
    });
  });
  m.def("tv_drawing", [](py::handle tv, py::handle tile) {
    const rt::Value t = value_of(tv), s = value_of(tile);
    return rt_guard([&] {
      if (t.kind() != rt::Value::Kind::Layout)
        throw viz::Error("a TV map is a layout ((threads),(values)):(...), not " + rt::describe(t));
      return Drawing{viz::tv_diagram(viz::tv_of_layout(t.layout()), tile_of(s))};
    });
  });
  m.def("tv_cells", [](py::handle tv, py::handle tile) {
    const rt::Value t = value_of(tv), s = value_of(tile);
    return rt_guard([&] {
      if (t.kind() != rt::Value::Kind::Layout)
        throw viz::Error("a TV map is a layout ((threads),(values)):(...), not " + rt::describe(t));
      const viz::TvTile tt = tile_of(s);
      return py::make_tuple(t.layout().size(), tt.rows(), tt.cols(), tt.text);
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
      .def_readonly("vendor", &rt::MmaAtomInfo::vendor)
      .def_readonly("wave_size", &rt::MmaAtomInfo::wave_size)
      .def_readonly("instruction", &rt::MmaAtomInfo::instruction)
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
      .def_readonly("cta_group", &rt::MmaAtomInfo::cta_group)
      .def_readonly("a_tmem", &rt::MmaAtomInfo::a_tmem)
      .def_readonly("idesc", &rt::MmaAtomInfo::idesc)
      .def_readonly("tmem_layout_C", &rt::MmaAtomInfo::tmem_c)
      .def_readonly("sf_vec_size", &rt::MmaAtomInfo::sf_vec)
      .def_readonly("sf_type", &rt::MmaAtomInfo::sf_type)
      .def_readonly("sf_layout_A", &rt::MmaAtomInfo::sfa_tv)
      .def_readonly("sf_layout_B", &rt::MmaAtomInfo::sfb_tv)
      .def_readonly("sf_atom", &rt::MmaAtomInfo::sf_atom)
      .def_readonly("tmem_layout_SFA", &rt::MmaAtomInfo::tmem_sfa)
      .def_readonly("tmem_layout_SFB", &rt::MmaAtomInfo::tmem_sfb)
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

  // JSON (docs/json.md) from the writer the CLI uses: to_dict() is json.loads of this.
  m.def("to_json", [](py::handle h) -> std::string {
    if (py::isinstance<rt::TiledMma>(h)) return rt::json::dump(rt::json::tiled_mma(h.cast<const rt::TiledMma&>()));
    if (py::isinstance<rt::TiledCopy>(h)) return rt::json::dump(rt::json::tiled_copy(h.cast<const rt::TiledCopy&>()));
    if (PyBool_Check(h.ptr())) throw py::type_error("a bool is not a value of the algebra");
    if (!is_int_like(h) && !PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()) && !py::isinstance<rt::Layout>(h) &&
        !py::isinstance<Composed>(h) && !py::isinstance<rt::Swizzle>(h) && !py::isinstance<rt::Tiler>(h))
      throw py::type_error(std::string("no JSON form for a ") + Py_TYPE(h.ptr())->tp_name);
    const rt::Value v = value_of(h);
    return rt::json::dump(rt::json::value(v));
  });

  py::class_<MemoryReport>(m, "MemoryReport")
      .def("text", &report_text, py::arg("summary_only") = false)
      .def("json", &report_json, py::arg("summary_only") = false)
      .def_property_readonly("cells", [](const MemoryReport& r) { return r.tile.rows() * r.tile.cols(); })
      .def_property_readonly("tile_text", [](const MemoryReport& r) { return r.tile.text; })
      .def("_drawing", [](const MemoryReport& r) { return rt_guard([&] { return Drawing{report_diagram(r)}; }); });
  m.def("banks", [](py::handle smem, py::handle tv, py::handle vec, py::handle access, py::handle side, py::handle bits) {
    return memory_report(smem, tv, vec, access, side, bits, true, 0);
  });
  m.def("gmem", [](py::handle gmem, py::handle tv, py::handle vec, py::handle access, py::handle side, py::handle bits,
                   py::handle base) {
    return memory_report(gmem, tv, vec, access, side, bits, false, to_int64(base));
  });

  m.def("verify_claim", [](const std::string& name, py::handle layout, py::handle arg) {
    return rt_guard([&] { return verify_claim(name, layout, arg); });
  }, py::arg("name"), py::arg("layout"), py::arg("arg") = py::none());

  py::class_<TmaReport>(m, "TmaReport")
      .def("text", [](const TmaReport& r) { return tessera::analysis::tma_text(r.gmem, r.smem, r.bits, r.arguments); })
      .def("json", [](const TmaReport& r) {
        return rt::json::dump(tessera::analysis::tma_json(r.gmem, r.smem, r.bits, r.arguments));
      })
      .def_property_readonly("cells", [](const TmaReport& r) { return r.smem.layout.size(); })
      .def_property_readonly("smem_text", [](const TmaReport& r) { return rt::to_string(r.smem); })
      .def("_drawing", [](const TmaReport& r) {
        return rt_guard([&] { return Drawing{viz::tma_boxes_diagram(r.smem, r.bits, r.arguments)}; });
      });
  m.def("tma", &tma_report);

  py::class_<viz::Explanation>(m, "Explanation")
      .def_readonly("expression", &viz::Explanation::expression)
      .def_property_readonly("value", [](const viz::Explanation& e) -> py::object {
        return e.value ? from_value(*e.value) : none();
      })
      // The refusal: (message, column or None, overflow?) or None.
      .def_property_readonly("refusal", [](const viz::Explanation& e) -> py::object {
        if (!e.error) return none();
        py::object column = e.error->pos() == rt::npos ? none() : py::object(py::int_(e.error->pos() + 1));
        const bool overflow = dynamic_cast<const rt::OverflowError*>(&*e.error) != nullptr;
        return py::make_tuple(std::string(e.error->what()), column, overflow);
      })
      .def("text", [](const viz::Explanation& e, int depth) { return viz::explanation_text(e, depth); })
      .def("json", [](const viz::Explanation& e, int depth) { return rt::json::dump(viz::explanation_json(e, depth)); })
      .def("_drawing", [](const viz::Explanation& e, int depth, bool force) {
        return rt_guard([&] { return Drawing{viz::explanation_diagram(e, depth, force)}; });
      });
  m.def("explain", [](const std::string& expr) {
    parse_text(expr);  // malformed text is a ParseError, as everywhere in the module
    py::gil_scoped_release unlocked;
    return viz::explain(expr);
  });

  py::class_<Verification>(m, "Verification")
      .def_readonly("name", &Verification::name)
      .def_property_readonly("ok", [](const Verification& v) { return v.report.ok; })
      .def("text", [](const Verification& v) { return tessera::verify::report_text(v.trace, v.report); })
      .def("json", [](const Verification& v) {
        return rt::json::dump(tessera::verify::report_json(v.name, v.trace, v.report));
      })
      .def_property_readonly("focus", [](const Verification& v) -> py::object {
        return v.focus < 0 ? none() : py::object(py::str(v.trace.maps[std::size_t(v.focus)].name));
      })
      .def_property_readonly("cells", [](const Verification& v) -> std::int64_t {
        if (v.focus < 0) return 0;
        return rt::product(v.trace.maps[std::size_t(v.focus)].tile);
      })
      .def("_drawing", [](const Verification& v) {
        if (v.focus < 0) raise(classes().error, "the trace declares no map: there is nothing to draw", none(), none(),
                               none(), "the trace declares no map: there is nothing to draw");
        return rt_guard([&] { return Drawing{tessera::verify::diff_diagram(v.trace, v.trace.maps[std::size_t(v.focus)])}; });
      });
  m.def("verify_file", [](const std::string& path, std::int64_t max, const std::string& map) {
    tessera::verify::Trace t;
    try {
      t = tessera::verify::read_trace_file(path);
    } catch (const tessera::verify::TraceError& e) {
      raise_trace_error(e);
    }
    return verification(std::move(t), path, max, map);
  });
  m.def("verify_text", [](const std::string& text, const std::string& name, std::int64_t max, const std::string& map) {
    tessera::verify::Trace t;
    try {
      std::istringstream in(text);
      t = tessera::verify::parse_trace(in, name);
    } catch (const tessera::verify::TraceError& e) {
      raise_trace_error(e);
    }
    return verification(std::move(t), name, max, map);
  });

  py::class_<DiffResult>(m, "DiffResult")
      .def_property_readonly("equal", [](const DiffResult& r) { return r.verdict.equal; })
      .def_property_readonly("line", [](const DiffResult& r) { return r.verdict.line; })
      .def("json", [](const DiffResult& r) { return rt::json::dump(viz::diff_json(r.verdict)); })
      // What is drawn, for the CLI's size checks: [(what, cells)].
      .def_property_readonly("drawn_cells", [](const DiffResult& r) {
        py::list out;
        if (r.tile) out.append(py::make_tuple("the tile " + r.tile->text, r.tile->rows() * r.tile->cols()));
        else {
          out.append(py::make_tuple("A", viz::base_layout(*r.a).size()));
          out.append(py::make_tuple("B", viz::base_layout(*r.b).size()));
        }
        return out;
      })
      .def("_drawing", [](const DiffResult& r, int width) {
        if (width < 0) throw py::value_error("width takes a count of columns (0: B below A), not " + std::to_string(width));
        return rt_guard([&] { return Drawing{diff_diagram(r, width)}; });
      });
  m.def("diff", &diff_result);

  py::class_<EpilogueTreeValue>(m, "EpilogueTree")
      .def_property_readonly("text", [](const EpilogueTreeValue& t) { return rt::epilogue::to_text(t.tree); })
      .def_property_readonly("cpp", [](const EpilogueTreeValue& t) { return rt::epilogue::cpp_type(t.tree.root); })
      .def_property_readonly("output", [](const EpilogueTreeValue& t) { return rt::epilogue::element_name(t.tree.output); })
      .def("json", [](const EpilogueTreeValue& t) { return rt::json::dump(viz::epilogue_tree_json(t.tree)); })
      .def("document", &epilogue_document)
      .def("check", &epilogue_check)
      .def("write", [](const EpilogueTreeValue&, const std::string& path, const std::string& content) {
        rt_guard([&] { viz::write_file_atomic(path, content); });
      })
      .def("__eq__", [](const EpilogueTreeValue& a, const EpilogueTreeValue& b) { return a.tree == b.tree; });
  m.def("epilogue_tree", &epilogue_tree);

  // The GEMM host API's argument checks (no CUDA, no device), so that every build refuses bad
  // arguments with the C++ reason: tessera.gemm runs them where _gemm_cuda.run, which makes them
  // itself, does not run first (a build without CUDA; before out=None allocates).
  tessera::python::def_fastcall<&tessera::python::check_gemm_arguments, 1>(
      m, "check_gemm_arguments",
      "check_gemm_arguments(spec): (status, message) of check_arguments on a tuple of GEMM_SPEC_FIELDS; ('', '') "
      "when it passes.");
  m.attr("GEMM_SPEC_FIELDS") = tessera::python::spec_field_names();
  // The attention host API's device-free checks (tessera::kernels::check_arguments), likewise.
  tessera::python::def_fastcall<&tessera::python::check_attention_arguments, 1>(
      m, "check_attention_arguments",
      "check_attention_arguments(spec): (status, message) of check_arguments on a tuple of ATTENTION_SPEC_FIELDS; "
      "('', '') when it passes.");
  m.attr("ATTENTION_SPEC_FIELDS") = tessera::python::attention_field_names();
  m.attr("ATTENTION_GRIDS") = py::make_tuple(tessera::python::kAttentionGrids[0], tessera::python::kAttentionGrids[1],
                                             tessera::python::kAttentionGrids[2]);
  m.attr("ATTENTION_COUNTER_BYTES") = tessera::kernels::attention_counter_bytes;
  // The grouped GEMM's device-free checks (check_grouped_arguments, the workspace standing in for
  // the one the launch allocates), likewise: tessera.gemm_grouped refuses in every build.
  tessera::python::def_fastcall<&tessera::python::check_grouped_spec, 1>(
      m, "check_grouped_arguments",
      "check_grouped_arguments(spec): (status, message) of check_grouped_arguments on a tuple of "
      "GROUPED_SPEC_FIELDS (the workspace the launch allocates standing in); ('', '') when it passes.");
  m.attr("GROUPED_SPEC_FIELDS") = tessera::python::grouped_field_names();
  tessera::python::def_fastcall<&tessera::python::check_grouped_list_spec, 1>(
      m, "check_grouped_list_arguments",
      "check_grouped_list_arguments(header): (status, message) of check_grouped_arguments on the ptr-array form's "
      "header (GROUPED_LIST_FIELDS; the device arrays and the workspace standing in); ('', '') when it passes.");
  m.attr("GROUPED_LIST_FIELDS") = tessera::python::grouped_list_field_names();
  // The GPU-array protocols (array_protocols.hpp), for tessera/_arrays.py.
  namespace protocols = tessera::python::protocols;
  tessera::python::def_fastcall<&protocols::read_cuda_array_interface, 2>(
      m, "read_cuda_array_interface",
      "read_cuda_array_interface(cai, what): (ptr, shape, strides, dtype, itemsize, device, device_id, stream, "
      "readonly) of a __cuda_array_interface__ dict; `what` names the array in refusals.");
  tessera::python::def_fastcall<&protocols::read_dlpack_capsule, 2>(
      m, "read_dlpack_capsule",
      "read_dlpack_capsule(capsule, what): (ptr, shape, strides, dtype, itemsize, device, device_id, None, "
"readonly) of an unconsumed DLPack capsule; `what` names the array in refusals.");
}
