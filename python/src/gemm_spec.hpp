// GemmArguments from the flat description tessera/_gemm.py builds out of the arrays (sizes,
// pointers, majors, leading dimensions, batch strides, the epilogue). Shared by the _core
// extension (check_arguments, no CUDA) and _gemm_cuda (can_implement and gemm), so the two
// read one description the same way.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::python {

namespace py = pybind11;
namespace k = tessera::kernels;

inline py::handle spec_item(const py::dict& spec, const char* key) {
  PyObject* v = PyDict_GetItemString(spec.ptr(), key);
  if (v == nullptr) throw py::key_error(std::string("gemm description without '") + key + "'");
  return v;
}
inline std::int64_t spec_int(const py::dict& spec, const char* key) { return spec_item(spec, key).cast<std::int64_t>(); }
inline const void* spec_ptr(const py::dict& spec, const char* key) {
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(spec_item(spec, key).cast<std::uint64_t>()));
}
inline std::string spec_str(const py::dict& spec, const char* key) { return spec_item(spec, key).cast<std::string>(); }

inline k::Element element_of(const std::string& s) {
  if (s == "f32") return k::Element::F32;
  if (s == "f16") return k::Element::F16;
  if (s == "bf16") return k::Element::BF16;
  throw py::value_error("unknown element type '" + s + "'");
}
inline k::Major major_of(const std::string& s) {
  if (s == "row") return k::Major::Row;
  if (s == "col") return k::Major::Col;
  throw py::value_error("unknown major '" + s + "'");
}
inline k::Activation activation_of(const std::string& s) {
  for (auto a : {k::Activation::Identity, k::Activation::ReLU, k::Activation::GELU, k::Activation::GELUTanh,
                 k::Activation::SiLU})
    if (s == k::to_string(a)) return a;
  throw py::value_error("unknown activation '" + s + "'");
}
inline k::Bias bias_of(const std::string& s) {
  for (auto b : {k::Bias::None, k::Bias::PerRow, k::Bias::PerColumn})
    if (s == k::to_string(b)) return b;
  throw py::value_error("unknown bias mode '" + s + "'");
}

inline k::Operand operand_of(const py::dict& spec, const std::string& name) {
  k::Operand o;
  o.ptr = spec_ptr(spec, (name + "_ptr").c_str());
  o.major = major_of(spec_str(spec, (name + "_major").c_str()));
  o.ld = spec_int(spec, (name + "_ld").c_str());
  o.batch_stride = spec_int(spec, (name + "_batch_stride").c_str());
  return o;
}

inline k::GemmArguments gemm_arguments_of(const py::dict& spec) {
  k::GemmArguments g;
  g.m = spec_int(spec, "m");
  g.n = spec_int(spec, "n");
  g.k = spec_int(spec, "k");
  g.batch = spec_int(spec, "batch");
  g.element = element_of(spec_str(spec, "element"));
  g.a = operand_of(spec, "a");
  g.b = operand_of(spec, "b");
  g.c = operand_of(spec, "c");
  g.d = const_cast<void*>(spec_ptr(spec, "d_ptr"));
  g.ldd = spec_int(spec, "d_ld");
  g.batch_stride_d = spec_int(spec, "d_batch_stride");
  g.alpha = spec_item(spec, "alpha").cast<float>();
  g.beta = spec_item(spec, "beta").cast<float>();
  g.epilogue.activation = activation_of(spec_str(spec, "activation"));
  g.epilogue.bias = bias_of(spec_str(spec, "bias"));
  g.epilogue.bias_ptr = spec_ptr(spec, "bias_ptr");
  g.epilogue.output = element_of(spec_str(spec, "output"));
  g.allow_tf32 = spec_item(spec, "allow_tf32").cast<bool>();
  g.workspace = const_cast<void*>(spec_ptr(spec, "workspace_ptr"));
  g.workspace_bytes = static_cast<std::size_t>(spec_item(spec, "workspace_bytes").cast<std::uint64_t>());
  return g;
}

// (status, message): ("", "") for success, else the C++ status's name and reason.
inline py::tuple status_tuple(const k::GemmResult& r) {
  return py::make_tuple(r ? "" : k::to_string(r.status), r.message);
}

}  // namespace tessera::python
