// Functions bound as METH_FASTCALL, without pybind11's dispatch: for the few that tessera.gemm
// calls on every launch (the protocol readers, the argument check, the launch), where that
// dispatch (argument casters, overload and keyword handling: a few tenths of a microsecond)
// costs as much as the work. Positional arguments only, each a py::handle; C++ exceptions
// become Python's as pybind11 makes them.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <string>
#include <utility>

namespace tessera::python {

namespace py = pybind11;

template <auto Fn, int N>
PyObject* fastcall_entry(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != N) {
    PyErr_Format(PyExc_TypeError, "takes %d positional arguments (%zd given)", N, nargs);
    return nullptr;
  }
  try {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return py::object(Fn(py::handle(args[I])...)).release().ptr();
    }(std::make_index_sequence<N>{});
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// Adds Fn (N py::handle arguments, returning a py::object or a subclass) to `m` as `name`.
template <auto Fn, int N>
void def_fastcall(py::module_& m, const char* name, const char* doc) {
  static PyMethodDef def{name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&fastcall_entry<Fn, N>)),
                         METH_FASTCALL, doc};
  PyObject* f = PyCFunction_NewEx(&def, nullptr, nullptr);
  if (f == nullptr) throw py::error_already_set();
  m.add_object(name, py::reinterpret_steal<py::object>(f));
}

}  // namespace tessera::python
