// GemmArguments from the flat description tessera/_gemm.py builds out of the arrays (sizes,
// pointers, majors, leading dimensions, batch strides, the epilogue): a tuple of the fields
// kSpecFields names, in that order (_core.GEMM_SPEC_FIELDS gives Python the same list). Shared
// by the _core extension (check_arguments, no CUDA) and _gemm_cuda (can_implement and gemm),
// so the two read one description the same way. A tuple, not a dict: a call builds it and
// reads it back once per GEMM, and a dict of 29 string keys cost microseconds both ways.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::python {

namespace py = pybind11;
namespace k = tessera::kernels;

// The description's fields, in order.
enum SpecField : int {
  kM, kN, kK, kBatch, kElement,
  kAPtr, kAMajor, kALd, kABatchStride,
  kBPtr, kBMajor, kBLd, kBBatchStride,
  kCPtr, kCMajor, kCLd, kCBatchStride,
  kDPtr, kDLd, kDBatchStride,
  kAlpha, kBeta, kActivation, kBias, kBiasPtr, kOutput, kAllowTf32, kWorkspacePtr, kWorkspaceBytes,
  kElementB, kScaleAPtr, kScaleBPtr, kScaleMode, kLdScaleA, kScaleDPtr, kAmaxDPtr,
  kSpecFieldCount
};
inline constexpr const char* kSpecFields[kSpecFieldCount] = {
    "m", "n", "k", "batch", "element",
    "a_ptr", "a_major", "a_ld", "a_batch_stride",
    "b_ptr", "b_major", "b_ld", "b_batch_stride",
    "c_ptr", "c_major", "c_ld", "c_batch_stride",
    "d_ptr", "d_ld", "d_batch_stride",
    "alpha", "beta", "activation", "bias", "bias_ptr", "output", "allow_tf32", "workspace_ptr", "workspace_bytes",
    "element_b", "scale_a_ptr", "scale_b_ptr", "scale_mode", "ld_scale_a", "scale_d_ptr", "amax_d_ptr"};

inline py::tuple spec_field_names() {
  py::tuple names(static_cast<int>(kSpecFieldCount));
  for (int i = 0; i < kSpecFieldCount; ++i) names[i] = py::str(kSpecFields[i]);
  return names;
}

// A field of the description; a wrong kind names the field (the description is tessera's
// own, so this is a bug's message, not a user's).
struct SpecReader {
  PyObject* spec;

  PyObject* item(int f) const { return PyTuple_GET_ITEM(spec, f); }
  [[noreturn]] void wrong(int f, const char* kind) const {
    PyErr_Clear();
    throw py::type_error(std::string("gemm description: ") + kSpecFields[f] + " is not " + kind);
  }
  std::int64_t integer(int f) const {
    const long long v = PyLong_AsLongLong(item(f));
    if (v == -1 && PyErr_Occurred()) wrong(f, "a 64-bit integer");
    return v;
  }
  std::uint64_t count(int f) const {
    const unsigned long long v = PyLong_AsUnsignedLongLong(item(f));
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) wrong(f, "an unsigned 64-bit integer");
    return v;
  }
  const void* pointer(int f) const { return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(count(f))); }
  double real(int f) const {
    const double v = PyFloat_AsDouble(item(f));
    if (v == -1.0 && PyErr_Occurred()) wrong(f, "a real number");
    return v;
  }
  bool flag(int f) const {
    if (!PyBool_Check(item(f))) wrong(f, "a bool");
    return item(f) == Py_True;
  }
  const char* name(int f) const {
    const char* s = PyUnicode_Check(item(f)) ? PyUnicode_AsUTF8(item(f)) : nullptr;
    if (s == nullptr) wrong(f, "a string");
    return s;
  }
};

inline bool same(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

inline k::Element element_of(const char* s) {
  if (same(s, "f32")) return k::Element::F32;
  if (same(s, "f16")) return k::Element::F16;
  if (same(s, "bf16")) return k::Element::BF16;
  if (same(s, "e4m3")) return k::Element::E4M3;
  if (same(s, "e5m2")) return k::Element::E5M2;
  throw py::value_error(std::string("unknown element type '") + s + "'");
}
inline k::Major major_of(const char* s) {
  if (same(s, "row")) return k::Major::Row;
  if (same(s, "col")) return k::Major::Col;
  throw py::value_error(std::string("unknown major '") + s + "'");
}
inline k::Activation activation_of(const char* s) {
  for (auto a : {k::Activation::Identity, k::Activation::ReLU, k::Activation::GELU, k::Activation::GELUTanh,
                 k::Activation::SiLU})
    if (same(s, k::to_string(a))) return a;
  throw py::value_error(std::string("unknown activation '") + s + "'");
}
inline k::ScaleMode scale_mode_of(const char* s) {
  for (auto m : {k::ScaleMode::PerTensor, k::ScaleMode::Rowwise, k::ScaleMode::Block})
    if (same(s, k::to_string(m))) return m;
  throw py::value_error(std::string("unknown scale mode '") + s + "'");
}
inline k::Bias bias_of(const char* s) {
  for (auto b : {k::Bias::None, k::Bias::PerRow, k::Bias::PerColumn})
    if (same(s, k::to_string(b))) return b;
  throw py::value_error(std::string("unknown bias mode '") + s + "'");
}

inline k::Operand operand_of(const SpecReader& r, int first) {
  k::Operand o;
  o.ptr = r.pointer(first);
  o.major = major_of(r.name(first + 1));
  o.ld = r.integer(first + 2);
  o.batch_stride = r.integer(first + 3);
  return o;
}

inline k::GemmArguments gemm_arguments_of(py::handle spec) {
  if (!PyTuple_Check(spec.ptr()) || PyTuple_GET_SIZE(spec.ptr()) != kSpecFieldCount)
    throw py::type_error("gemm description: a tuple of the " + std::to_string(int(kSpecFieldCount)) +
                         " fields of GEMM_SPEC_FIELDS");
  const SpecReader r{spec.ptr()};
  k::GemmArguments g;
  g.m = r.integer(kM);
  g.n = r.integer(kN);
  g.k = r.integer(kK);
  g.batch = r.integer(kBatch);
  g.element = element_of(r.name(kElement));
  g.a = operand_of(r, kAPtr);
  g.b = operand_of(r, kBPtr);
  g.c = operand_of(r, kCPtr);
  g.d = const_cast<void*>(r.pointer(kDPtr));
  g.ldd = r.integer(kDLd);
  g.batch_stride_d = r.integer(kDBatchStride);
  g.alpha = static_cast<float>(r.real(kAlpha));
  g.beta = static_cast<float>(r.real(kBeta));
  g.epilogue.activation = activation_of(r.name(kActivation));
  g.epilogue.bias = bias_of(r.name(kBias));
  g.epilogue.bias_ptr = r.pointer(kBiasPtr);
  g.epilogue.output = element_of(r.name(kOutput));
  g.allow_tf32 = r.flag(kAllowTf32);
  g.workspace = const_cast<void*>(r.pointer(kWorkspacePtr));
  g.workspace_bytes = static_cast<std::size_t>(r.count(kWorkspaceBytes));
  // B's type where it is not A's ("" : A's), the FP8 scales (0: none) and how they are laid out.
  if (const char* eb = r.name(kElementB); eb[0] != '\0') g.element_b = element_of(eb);
  g.scale_a = static_cast<const float*>(r.pointer(kScaleAPtr));
  g.scale_b = static_cast<const float*>(r.pointer(kScaleBPtr));
  g.scale_mode = scale_mode_of(r.name(kScaleMode));
  g.ld_scale_a = r.integer(kLdScaleA);
  // An e4m3 D's scale and amax (0: none).
  g.scale_d = static_cast<const float*>(r.pointer(kScaleDPtr));
  g.amax_d = static_cast<float*>(const_cast<void*>(r.pointer(kAmaxDPtr)));
  return g;
}

// (status, message): ("", "") for success, else the C++ status's name and reason.
inline py::tuple status_tuple(const k::GemmResult& r) {
  return py::make_tuple(r ? "" : k::to_string(r.status), r.message);
}

// check_arguments on a description: (status, message).
inline py::tuple check_gemm_arguments(py::handle spec) { return status_tuple(k::check_arguments(gemm_arguments_of(spec))); }

}  // namespace tessera::python
