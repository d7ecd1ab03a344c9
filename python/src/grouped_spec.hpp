// GemmGroupedArguments (contiguous form) from the flat description tessera/_gemm_grouped.py
// builds out of the arrays: a tuple of the fields kGroupedFields names, in that order
// (_core.GROUPED_SPEC_FIELDS gives Python the same list). Shared by _core
// (check_grouped_arguments, no CUDA) and _gemm_cuda (the launch), as gemm_spec.hpp is for
// tessera.gemm. The workspace is not part of it: the launch allocates it on the stream, so the
// host check runs with a stand-in of the size and alignment the allocation will have.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "gemm_spec.hpp"
#include "tessera/kernels/gemm_grouped.hpp"

namespace tessera::python {

enum GroupedField : int {
  kGGroups, kGElement, kGBMajor, kGAlpha, kGBeta, kGTokens, kGN, kGK,
  kGOffsPtr, kGAPtr, kGBPtr, kGCPtr, kGDPtr, kGLda, kGLdc, kGLdd,
  kGActivation, kGBias, kGBiasPtr, kGBiasStride,
  kGroupedFieldCount
};
inline constexpr const char* kGroupedFields[kGroupedFieldCount] = {
    "groups", "element", "b_major", "alpha", "beta", "tokens", "n", "k",
    "offs_ptr", "a_ptr", "b_ptr", "c_ptr", "d_ptr", "lda", "ldc", "ldd",
    "activation", "bias", "bias_ptr", "bias_stride"};

inline py::tuple grouped_field_names() {
  py::tuple names(static_cast<int>(kGroupedFieldCount));
  for (int i = 0; i < kGroupedFieldCount; ++i) names[i] = py::str(kGroupedFields[i]);
  return names;
}

// A field of the description; a wrong kind names the field (tessera's own tuple: a bug's message).
struct GroupedReader {
  PyObject* spec;
  PyObject* item(int f) const { return PyTuple_GET_ITEM(spec, f); }
  [[noreturn]] void wrong(int f, const char* kind) const {
    PyErr_Clear();
    throw py::type_error(std::string("gemm_grouped description: ") + kGroupedFields[f] + " is not " + kind);
  }
  std::int64_t integer(int f) const {
    const long long v = PyLong_AsLongLong(item(f));
    if (v == -1 && PyErr_Occurred()) wrong(f, "a 64-bit integer");
    return v;
  }
  const void* pointer(int f) const {
    const unsigned long long v = PyLong_AsUnsignedLongLong(item(f));
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) wrong(f, "an unsigned 64-bit integer");
    return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(v));
  }
  double real(int f) const {
    const double v = PyFloat_AsDouble(item(f));
    if (v == -1.0 && PyErr_Occurred()) wrong(f, "a real number");
    return v;
  }
  const char* name(int f) const {
    const char* s = PyUnicode_Check(item(f)) ? PyUnicode_AsUTF8(item(f)) : nullptr;
    if (s == nullptr) wrong(f, "a string");
    return s;
  }
};

// The arguments without a workspace (the launch supplies it).
inline k::GemmGroupedArguments grouped_arguments_of(py::handle spec) {
  if (!PyTuple_Check(spec.ptr()) || PyTuple_GET_SIZE(spec.ptr()) != kGroupedFieldCount)
    throw py::type_error("gemm_grouped description: a tuple of the " + std::to_string(int(kGroupedFieldCount)) +
                         " fields of GROUPED_SPEC_FIELDS");
  const GroupedReader r{spec.ptr()};
  k::GemmGroupedArguments g;
  g.groups = r.integer(kGGroups);
  g.element = element_of(r.name(kGElement));
  g.b_major = major_of(r.name(kGBMajor));
  g.alpha = static_cast<float>(r.real(kGAlpha));
  g.beta = static_cast<float>(r.real(kGBeta));
  g.form = k::GroupedForm::Contiguous;
  k::GemmGroupedContiguous& c = g.contiguous;
  c.tokens = r.integer(kGTokens);
  c.n = r.integer(kGN);
  c.k = r.integer(kGK);
  c.offs = static_cast<const std::int32_t*>(r.pointer(kGOffsPtr));
  c.a = r.pointer(kGAPtr);
  c.b = r.pointer(kGBPtr);
  c.c = r.pointer(kGCPtr);
  c.d = const_cast<void*>(r.pointer(kGDPtr));
  c.lda = r.integer(kGLda);
  c.ldc = r.integer(kGLdc);
  c.ldd = r.integer(kGLdd);
  // The fused epilogue (tessera.gemm's names: activation_of, bias_of): bias (G, N), rows
  // bias_stride apart.
  g.activation = activation_of(r.name(kGActivation));
  g.bias = bias_of(r.name(kGBias));
  c.bias = r.pointer(kGBiasPtr);
  c.bias_stride = r.integer(kGBiasStride);
  return g;
}

// check_grouped_arguments with the workspace the launch will allocate standing in (its size,
// 128-byte aligned, as the stream-ordered allocator's): every refusal but the workspace's.
inline k::GemmResult check_grouped_without_workspace(k::GemmGroupedArguments g) {
  g.workspace_bytes = k::gemm_grouped_workspace_size(g);
  g.workspace = reinterpret_cast<void*>(std::uintptr_t(256));
  return k::check_grouped_arguments(g);
}

// ---- the ptr-array form from lists of per-group arrays: a header tuple of the fields
// kGroupedListFields names, and the groups' records packed by Python in one bytes object (the
// device arrays' contents, copied to the GPU by the launch): G int32 triples (m, n, k), then
// G uint64 each of the pointers a, b, c, d, then G int64 each of lda, ldb, ldc, ldd, then G
// uint64 bias pointers (0: no bias for that group; all 0 without a bias).
enum GroupedListField : int { kLGroups, kLElement, kLBMajor, kLAlpha, kLBeta, kLActivation, kLBias, kGroupedListFieldCount };
inline constexpr const char* kGroupedListFields[kGroupedListFieldCount] = {"groups", "element", "b_major", "alpha",
                                                                            "beta", "activation", "bias"};
inline py::tuple grouped_list_field_names() {
  py::tuple names(static_cast<int>(kGroupedListFieldCount));
  for (int i = 0; i < kGroupedListFieldCount; ++i) names[i] = py::str(kGroupedListFields[i]);
  return names;
}
inline constexpr std::size_t grouped_list_record_bytes = 3 * 4 + 9 * 8;  // per group
inline constexpr int grouped_list_arrays = 9;  // the 8-byte arrays after the sizes: a, b, c, d, lda, ldb, ldc, ldd, bias

// The arguments of the header, the ptr-array form's arrays not yet set (the launch points them
// into device memory). Field kinds are read as the contiguous description's.
inline k::GemmGroupedArguments grouped_list_arguments_of(py::handle header) {
  if (!PyTuple_Check(header.ptr()) || PyTuple_GET_SIZE(header.ptr()) != kGroupedListFieldCount)
    throw py::type_error("gemm_grouped list description: a tuple of the " + std::to_string(int(kGroupedListFieldCount)) +
                         " fields of GROUPED_LIST_FIELDS");
  const GroupedReader r{header.ptr()};
  k::GemmGroupedArguments g;
  g.groups = r.integer(kLGroups);
  g.element = element_of(r.name(kLElement));
  g.b_major = major_of(r.name(kLBMajor));
  g.alpha = static_cast<float>(r.real(kLAlpha));
  g.beta = static_cast<float>(r.real(kLBeta));
  g.activation = activation_of(r.name(kLActivation));
  g.bias = bias_of(r.name(kLBias));
  g.form = k::GroupedForm::PtrArray;
  return g;
}

// check_grouped_arguments of the list form: the arrays and the workspace standing in (both
// the launch's own allocations): what it checks is G, the element type and the epilogue (the
// bias array standing in where a bias is asked for).
inline k::GemmResult check_grouped_list_without_arrays(k::GemmGroupedArguments g) {
  const auto stand_in = reinterpret_cast<std::uintptr_t>(&g);
  g.ptr_array.shapes = reinterpret_cast<const k::GemmGroupShape*>(stand_in);
  g.ptr_array.a = g.ptr_array.b = g.ptr_array.c = reinterpret_cast<const void* const*>(stand_in);
  g.ptr_array.d = reinterpret_cast<void* const*>(stand_in);
  g.ptr_array.lda = g.ptr_array.ldb = g.ptr_array.ldc = g.ptr_array.ldd = reinterpret_cast<const std::int64_t*>(stand_in);
  if (g.bias == k::Bias::PerColumn) g.ptr_array.bias = reinterpret_cast<const void* const*>(stand_in);
  return check_grouped_without_workspace(g);
}

inline py::tuple check_grouped_list_spec(py::handle header) {
  return status_tuple(check_grouped_list_without_arrays(grouped_list_arguments_of(header)));
}

inline py::tuple check_grouped_spec(py::handle spec) {
  return status_tuple(check_grouped_without_workspace(grouped_arguments_of(spec)));
}

}  // namespace tessera::python
